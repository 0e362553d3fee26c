import { useContext, useEffect } from 'react'
import { commandFor } from './commands'
import { isTyping } from './isTyping'
import { StoreContext } from './storeContext'

/**
 * The workbench's keys, dispatched through the registered commands (`commands.ts`): the run
 * keys (F5, F10, F6, Shift+F5) and Ctrl/Cmd+E work anywhere, also in a code editor; Undo,
 * Redo and `?` only when the user is not typing. A key no command takes is left alone.
 */
export function useRunKeys(onHelp?: () => void, onExport?: () => void): void {
  const store = useContext(StoreContext)
  useEffect(() => {
    if (!store) return
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented) return
      const ctx = { state: store.getState(), openHelp: onHelp, openExport: onExport }
      const command = commandFor(e, isTyping(e.target), ctx)
      if (!command?.run) return
      e.preventDefault()
      command.run(ctx)
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [store, onHelp, onExport])
}
