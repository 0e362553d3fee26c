import { useLayoutEffect, type RefObject } from 'react'

/** The renamed thing whose control takes the focus when it mounts (`node:<id>`, `field:<name>`). */
let pending: string | null = null

/**
 * Asks the control of `key` to take the focus when it mounts. A rename remounts what shows
 * the renamed thing (the node inspector and a field's row are keyed by the name), so the
 * focused input goes away and the focus would fall to `<body>`.
 */
export function refocusAfterRename(key: string): void {
  pending = key
}

/**
 * On mount as `key` after `refocusAfterRename(key)`: focuses `selector` inside `root`, unless
 * the focus is already somewhere (the user clicked elsewhere meanwhile).
 */
export function useRefocusAfterRename(
  root: RefObject<HTMLElement | null>,
  key: string,
  selector: string,
): void {
  useLayoutEffect(() => {
    if (pending !== key) return
    pending = null
    const active = document.activeElement
    if (active && active !== document.body) return
    root.current?.querySelector<HTMLElement>(selector)?.focus()
  }, [root, key, selector])
}
