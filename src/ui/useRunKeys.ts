import { useContext, useEffect } from 'react'
import { selectCanRun } from '../store/appStore'
import { isTyping } from './isTyping'
import { StoreContext } from './storeContext'

/**
 * F5 runs or continues, F10 steps, F6 pauses, Shift+F5 stops, Ctrl/Cmd+Z undoes, Ctrl/Cmd+E
 * exports; `?` shows the list.
 */
export function useRunKeys(onHelp?: () => void, onExport?: () => void): void {
  const store = useContext(StoreContext)
  useEffect(() => {
    if (!store) return
    const onKey = (e: KeyboardEvent) => {
      const s = store.getState()
      const idle = selectCanRun(s)
      const typing = isTyping(e.target)
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'z' && !typing) {
        e.preventDefault()
        if (e.shiftKey) s.redo()
        else s.undo()
      } else if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'e') {
        e.preventDefault()
        onExport?.()
      } else if (e.key === '?' && !typing) {
        e.preventDefault()
        onHelp?.()
      } else if (e.key === 'F5' && e.shiftKey) {
        e.preventDefault()
        if (s.runState === 'running') void s.stop()
      } else if (e.key === 'F6') {
        e.preventDefault()
        void s.pause()
      } else if (e.key === 'F5') {
        e.preventDefault()
        if (idle) void s.run()
      } else if (e.key === 'F10') {
        e.preventDefault()
        if (idle) void s.step()
      }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [store, onHelp, onExport])
}
