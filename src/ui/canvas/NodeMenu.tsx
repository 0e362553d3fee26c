import { useLayoutEffect, useRef, useState } from 'react'
import { createPortal } from 'react-dom'
import { showBidiControls } from '../bidi'

/** Where a node's context menu was asked for, in window pixels. */
export interface NodeMenuAt {
  /** The document node id. */
  id: string
  x: number
  y: number
}

/** The gap kept between the menu and the window's edges. */
const EDGE = 4

/**
 * Keeps a box of `size` at `at` inside a window of `view`, `EDGE` px from its sides: a menu
 * opened near the right or bottom edge opens to the left or above instead of spilling out.
 */
export function clampToWindow(
  at: { x: number; y: number },
  size: { width: number; height: number },
  view: { width: number; height: number },
): { left: number; top: number } {
  const left = at.x + size.width + EDGE > view.width ? at.x - size.width : at.x
  const top = at.y + size.height + EDGE > view.height ? at.y - size.height : at.y
  return {
    left: Math.max(EDGE, Math.min(left, view.width - size.width - EDGE)),
    top: Math.max(EDGE, Math.min(top, view.height - size.height - EDGE)),
  }
}

/**
 * A node's context menu, its two breakpoints, drawn in screen space (a portal on the body, at
 * the pointer, kept inside the window): the same size at any zoom. Escape or a click elsewhere
 * closes it; focus goes back where it was.
 */
export function NodeMenu(props: {
  at: NodeMenuAt
  before: boolean
  after: boolean
  onBreakpoint(when: 'before' | 'after', on: boolean): void
  onClose(): void
}) {
  const { at, onClose } = props
  const menu = useRef<HTMLDivElement>(null)
  const [place, setPlace] = useState<{ left: number; top: number } | null>(null)
  const [returnTo] = useState(() => document.activeElement)
  useLayoutEffect(() => {
    const el = menu.current
    if (!el) return
    const box = el.getBoundingClientRect()
    setPlace(
      clampToWindow(
        at,
        { width: box.width, height: box.height },
        { width: window.innerWidth, height: window.innerHeight },
      ),
    )
  }, [at])
  // Focus the first item once the menu is shown (a hidden element takes no focus).
  const shown = place !== null
  useLayoutEffect(() => {
    if (shown) menu.current?.querySelector('button')?.focus()
  }, [shown])
  const close = (refocus: boolean) => {
    onClose()
    if (refocus && returnTo instanceof HTMLElement) returnTo.focus()
  }
  const item = (when: 'before' | 'after', on: boolean) => (
    <button
      type="button"
      role="menuitemcheckbox"
      aria-checked={on}
      onClick={() => {
        props.onBreakpoint(when, !on)
        close(true)
      }}
    >
      {on ? '✓ ' : ''}Pause {when}
    </button>
  )
  return createPortal(
    <div
      ref={menu}
      className="ss-menu ss-node-menu"
      role="menu"
      aria-label={`Breakpoints of ${showBidiControls(at.id)}`}
      style={{
        position: 'fixed',
        margin: 0,
        left: place?.left ?? at.x,
        top: place?.top ?? at.y,
        // Measured first, then shown where it fits.
        visibility: place ? 'visible' : 'hidden',
        zIndex: 1000,
      }}
      onKeyDown={(e) => {
        e.stopPropagation()
        if (e.key === 'Escape') close(true)
        if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
          e.preventDefault()
          const items = [...(menu.current?.querySelectorAll('button') ?? [])]
          const i = items.indexOf(document.activeElement as HTMLButtonElement)
          const next = items[(i + (e.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length]
          next?.focus()
        }
      }}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) close(false)
      }}
      onContextMenu={(e) => e.preventDefault()}
    >
      {item('before', props.before)}
      {item('after', props.after)}
    </div>,
    document.body,
  )
}
