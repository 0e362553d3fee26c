import { useCallback, useEffect, useRef, useState } from 'react'
import { editDraft, isDraftLive, rebaseDraft, shownText, type Draft } from './draft'

/**
 * Local editing of a document string with a debounced commit: `change` shows the text at
 * once and commits it `delayMs` later; `flush` commits now (on blur, before unmount). A
 * commit is dropped if the document changed under the draft meanwhile (undo wins).
 */
export function useDraft(value: string, commit: (text: string) => void, delayMs: number) {
  const [draft, setDraft] = useState<Draft | null>(null)
  // The document caught up with our commit: from now on only it is the draft's base (state
  // adjusted while rendering, React's pattern for state derived from a prop).
  const rebased = rebaseDraft(value, draft)
  if (rebased !== draft) setDraft(rebased)
  const latest = useRef({ value, draft, commit })
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  useEffect(() => {
    latest.current = { value, draft, commit }
  })

  const flush = useCallback(() => {
    clearTimeout(timer.current)
    timer.current = undefined
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
      clearTimeout(timer.current)
      timer.current = setTimeout(flush, delayMs)
    },
    [delayMs, flush],
  )

  useEffect(() => flush, [flush])
  return { text: shownText(value, draft), change, flush }
}
