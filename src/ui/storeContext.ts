import { createContext, useContext } from 'react'
import { useStore } from 'zustand'
import { useShallow } from 'zustand/react/shallow'
import type { AppActions, AppState, AppStore } from '../store/appStore'

export const StoreContext = createContext<AppStore | null>(null)

/** Reads from the app store; multi-field picks compare shallowly. */
export function useApp<T>(select: (s: AppState & AppActions) => T): T {
  const store = useContext(StoreContext)
  if (!store) throw new Error('useApp outside <StoreContext.Provider>')
  return useStore(store, useShallow(select))
}
