import './tabHint.css'
import type * as Monaco from 'monaco-editor'
import { useSyncExternalStore } from 'react'

/** Monaco's key for "Tab moves focus" (its toggleTabFocusMode): Ctrl+M, Ctrl+Shift+M on a Mac. */
const KEY =
  typeof navigator !== 'undefined' && navigator.userAgent.includes('Macintosh')
    ? 'Ctrl+Shift+M'
    : 'Ctrl+M'

/** Monaco's tab focus mode is one switch for every editor: mirrored here for the hints. */
let tabMovesFocus = false
const listeners = new Set<() => void>()
const subscribe = (f: () => void) => {
  listeners.add(f)
  return () => listeners.delete(f)
}

/** Follows the key that toggles Monaco's tab focus mode in `editor`. */
export function trackTabFocusKey(monaco: typeof Monaco, editor: Monaco.editor.ICodeEditor) {
  const mac = KEY !== 'Ctrl+M'
  return editor.onKeyDown((e) => {
    const match = mac
      ? e.keyCode === monaco.KeyCode.KeyM && e.ctrlKey && e.shiftKey && !e.altKey && !e.metaKey
      : e.keyCode === monaco.KeyCode.KeyM && e.ctrlKey && !e.shiftKey && !e.altKey && !e.metaKey
    if (!match) return
    tabMovesFocus = !tabMovesFocus
    for (const f of listeners) f()
  })
}

/**
 * The way out of a code editor: Monaco keeps Tab to indent, so the hint under each editor
 * says which key makes Tab move the focus instead (WCAG 2.1.2, no keyboard trap).
 */
export function TabHint() {
  const moves = useSyncExternalStore(subscribe, () => tabMovesFocus)
  return (
    <p
      className="editor-tab-hint"
      title="Monaco keeps Tab to indent; this key switches Tab between indenting and moving the focus out of the editor"
    >
      {moves ? `${KEY}: Tab indents` : `${KEY}: Tab moves focus`}
    </p>
  )
}

/** The hint's height in pixels: the editor above it takes the rest. */
export const TAB_HINT_HEIGHT = 20
