import { useEffect, useState } from 'react'

const KEY = 'superstep:first-run-hint'

function wasSeen(): boolean {
  try {
    return localStorage.getItem(KEY) === 'seen'
  } catch {
    return false
  }
}

function markSeen(): void {
  try {
    localStorage.setItem(KEY, 'seen')
  } catch {
    // Not remembered: shown again next time, which is harmless.
  }
}

/**
 * What to do first, over the canvas of a first visit: step the graph. It goes for good when
 * dismissed or once the user has run or stepped (`done`); it stands aside while the user
 * works on the canvas (`hidden`: something is selected), so it never covers what they edit.
 */
export function FirstRunHint({ done, hidden = false }: { done: boolean; hidden?: boolean }) {
  const [seen, setSeen] = useState(wasSeen)
  useEffect(() => {
    if (done) markSeen()
  }, [done])
  if (seen || done || hidden) return null
  const dismiss = () => {
    markSeen()
    setSeen(true)
  }
  return (
    <div className="first-run-hint" role="note" aria-label="Getting started">
      <p>
        Press <kbd>F10</kbd> to step one super-step; <kbd>F5</kbd> runs to the end.
      </p>
      <button type="button" onClick={dismiss} aria-label="Dismiss the hint" title="Dismiss">
        ×
      </button>
    </div>
  )
}
