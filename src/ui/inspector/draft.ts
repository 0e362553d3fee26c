/**
 * A text being edited locally before it is committed to the document (debounced code, a
 * JSON default). The shown text is derived, never copied into state on prop changes: the
 * draft wins while the document still holds what the draft started from or what it last
 * committed (the echo of our own edit); any other document value (undo, another editor)
 * wins over the draft.
 */
export interface Draft {
  text: string
  /** The document's value when this draft started. */
  origin: string
  /** The document value our last commit produced, or null before the first commit. */
  committed: string | null
}

/** Whether `draft` is still the one to show against the document's `value`. */
export function isDraftLive(value: string, draft: Draft | null): draft is Draft {
  return draft !== null && (draft.origin === value || draft.committed === value)
}

/** The text to show: the live draft's, else the document's. */
export function shownText(value: string, draft: Draft | null): string {
  return isDraftLive(value, draft) ? draft.text : value
}

/**
 * The draft once the document holds its commit: that is its new origin, so a later return
 * of the document to the old origin (an undo) is a change from elsewhere, not a late echo.
 */
export function rebaseDraft(value: string, draft: Draft | null): Draft | null {
  return draft && draft.committed === value && draft.origin !== value
    ? { ...draft, origin: value }
    : draft
}

/** The draft after the user typed `text` while the document holds `value`. */
export function editDraft(draft: Draft | null, value: string, text: string): Draft {
  return isDraftLive(value, draft) ? { ...draft, text } : { text, origin: value, committed: null }
}
