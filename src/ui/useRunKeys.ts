import { useContext, useEffect } from 'react'
import { StoreContext } from './storeContext'

/** F5 runs or continues, F10 steps, Shift+F5 stops, anywhere on the page. */
export function useRunKeys(): void {
  const store = useContext(StoreContext)
  useEffect(() => {
    if (!store) return
    const onKey = (e: KeyboardEvent) => {
      const s = store.getState()
      const idle = s.graphId !== null && s.runState !== 'running'
      if (e.key === 'F5' && e.shiftKey) {
        e.preventDefault()
        if (s.runState === 'running') void s.stop()
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
  }, [store])
}
