import { useCallback, useEffect, useRef, useState } from 'react'
import { editDraft, isDraftLive, rebaseDraft, shownText, type Draft } from './draft'
import { setDraftPending } from './pendingDrafts'

/**
 * The longest a typed text waits for its commit: steady typing (which never pauses for the
 * debounce) is still committed, and so saved, this often.
 */
export const MAX_DRAFT_WAIT_MS = 1000

/**
 * Local editing of a document string with a debounced commit: `change` shows the text at
 * once and commits it `delayMs` after the last keystroke, and at most `MAX_DRAFT_WAIT_MS`
 * after the first uncommitted one; `flush` commits now (on blur, before unmount, when the page
 * is hidden or left). A commit is dropped if the document changed under the draft meanwhile
 * (undo wins). While text waits, the draft counts as pending (see pendingDrafts).
 */
export function useDraft(value: string, commit: (text: string) => void, delayMs: number) {
  const [draft, setDraft] = useState<Draft | null>(null)
  // The document caught up with our commit: from now on only it is the draft's base (state
  // adjusted while rendering, React's pattern for state derived from a prop).
  const rebased = rebaseDraft(value, draft)
  if (rebased !== draft) setDraft(rebased)
  const latest = useRef({ value, draft, commit })
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  // When the oldest uncommitted keystroke was typed (undefined: nothing waits).
  const waitingSince = useRef<number | undefined>(undefined)
  const self = useRef({})
  // The draft itself lives in `latest` (change and flush write it at once): a render's `draft`
  // may already be behind it, because Monaco reports keystrokes outside React's events and an
  // effect can run after a keystroke that its render did not see. Only the document value and
  // the commit come from the render.
  useEffect(() => {
    latest.current = { value, commit, draft: rebaseDraft(value, latest.current.draft) }
  })

  const flush = useCallback(() => {
    clearTimeout(timer.current)
    timer.current = undefined
    waitingSince.current = undefined
    setDraftPending(self.current, false)
    const { value: current, draft: d, commit: send } = latest.current
    if (!isDraftLive(current, d) || d.text === current || d.committed === d.text) return
    const next = { ...d, committed: d.text }
    latest.current = { ...latest.current, draft: next }
    setDraft(next)
    send(d.text)
  }, [])

  const change = useCallback(
    (text: string) => {
      const next = editDraft(latest.current.draft, latest.current.value, text)
      latest.current = { ...latest.current, draft: next }
      setDraft(next)
      const now = Date.now()
      waitingSince.current ??= now
      setDraftPending(self.current, true)
      clearTimeout(timer.current)
      const left = MAX_DRAFT_WAIT_MS - (now - waitingSince.current)
      timer.current = setTimeout(flush, Math.max(0, Math.min(delayMs, left)))
    },
    [delayMs, flush],
  )

  // Leaving or hiding the page commits what waits, so the autosave can still write it.
  useEffect(() => {
    const onHide = () => {
      if (document.visibilityState === 'hidden') flush()
    }
    window.addEventListener('pagehide', flush)
    document.addEventListener('visibilitychange', onHide)
    return () => {
      window.removeEventListener('pagehide', flush)
      document.removeEventListener('visibilitychange', onHide)
    }
  }, [flush])

  useEffect(() => flush, [flush])
  return { text: shownText(value, draft), change, flush }
}
