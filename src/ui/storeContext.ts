import { createContext, useContext } from 'react'
import { useStore, type StoreApi } from 'zustand'
import { useShallow } from 'zustand/react/shallow'
import type { AppActions, AppState, AppStore } from '../store/appStore'

export const StoreContext = createContext<AppStore | null>(null)

/** Reads from the app store; multi-field picks compare shallowly. */
export function useApp<T>(select: (s: AppState & AppActions) => T): T {
  const store = useContext(StoreContext)
  if (!store) throw new Error('useApp outside <StoreContext.Provider>')
  return useStore(store, useShallow(select))
}

/** Whether undo and redo have anything to do (the document's history). */
export function useUndoState(): { canUndo: boolean; canRedo: boolean } {
  const store = useContext(StoreContext)
  if (!store) throw new Error('useUndoState outside <StoreContext.Provider>')
  const temporal = (store as unknown as { temporal: StoreApi<TemporalCounts> }).temporal
  return useStore(
    temporal,
    useShallow((t) => ({ canUndo: t.pastStates.length > 0, canRedo: t.futureStates.length > 0 })),
  )
}

interface TemporalCounts {
  pastStates: unknown[]
  futureStates: unknown[]
}
