/**
 * Whether a key pressed on `target` belongs to what the user is typing in: a field, a
 * content-editable, or the code editor. Monaco 0.57 edits through EditContext in Chromium, so
 * focus is on a plain div inside `.monaco-editor`, not a textarea.
 */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  return (
    ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) ||
    target.isContentEditable ||
    target.closest('.monaco-editor') !== null
  )
}
