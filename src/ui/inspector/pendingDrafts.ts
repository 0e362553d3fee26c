import { useSyncExternalStore } from 'react'

/**
 * The drafts typed but not yet handed to the document (a code editor between keystrokes and
 * its debounced commit). While any is pending, the save indicator says "Saving…", never
 * "Saved": what is on screen is not in IndexedDB yet.
 */
const pending = new Set<object>()
const listeners = new Set<() => void>()

function notify(): void {
  for (const l of listeners) l()
}

/** Marks a draft pending (typed, not committed) or not. */
export function setDraftPending(draft: object, isPending: boolean): void {
  const had = pending.has(draft)
  if (isPending === had) return
  if (isPending) pending.add(draft)
  else pending.delete(draft)
  notify()
}

/** Whether any draft is pending. */
export function draftsPending(): boolean {
  return pending.size > 0
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/** Whether any draft is pending, as React state. */
export function useDraftsPending(): boolean {
  return useSyncExternalStore(subscribe, draftsPending, draftsPending)
}
