import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type CSSProperties,
  type KeyboardEvent,
  type PointerEvent,
  type RefObject,
} from 'react'

/**
 * A row or column of panels with separators between them, to drag (pointer) or move (keyboard):
 * one panel fills what the others leave, each other panel has a size of its own. This replaced
 * react-resizable-panels (14 kB gzip in the page's first script) and keeps its saved layouts:
 * the same localStorage keys (`react-resizable-panels:<group id>`) and values (each panel's
 * percentage of the group, by panel id).
 *
 * Sizes are percentages of the group, drawn as CSS flex bases with the limits as CSS min/max
 * sizes: the first paint measures nothing. The group is measured when the browser lays it out
 * (a ResizeObserver), and when the user presses a separator.
 */

/** Where a panel's size may be kept: localStorage, or nothing. */
export interface LayoutStorage {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
}

export interface SplitPanel {
  id: string
  /** Its size at first: pixels, or a percentage of the group. Absent on the panel that fills. */
  defaultSize?: number | `${number}%`
  /** Least size in pixels (the panel that fills keeps it too). */
  minSize?: number
  /** Largest size, a percentage of the group. */
  maxSize?: `${number}%`
  /** Dragged (or moved) below half its minimum, it collapses to nothing. */
  collapsible?: boolean
}

export interface SplitSpec {
  /** The group's id: its element's, and its saved layout's key. */
  id: string
  /** `horizontal`: panels side by side (columns); `vertical`: stacked (rows). */
  orientation: 'horizontal' | 'vertical'
  /** In order; exactly one without `defaultSize` (it takes the rest). */
  panels: readonly SplitPanel[]
  storage: LayoutStorage
  /** A resized group keeps its panels' pixel sizes (the filling panel takes the change). */
  keepPixels?: boolean
}

/** Panel id to percentage of the group, for the panels with sizes of their own. */
export type Sizes = Readonly<Record<string, number>>

/** The group's size and its separators' (pixels, along its axis), once laid out. */
export interface Extent {
  group: number
  separators: number
}

const KEY_STEP = 5 // percent of the group per arrow key, as the library did
const round3 = (n: number) => Math.round(n * 1000) / 1000

export const storageKey = (groupId: string) => `react-resizable-panels:${groupId}`

const fillOf = (spec: SplitSpec) => spec.panels.find((p) => p.defaultSize === undefined)!
const fixedOf = (spec: SplitSpec) => spec.panels.filter((p) => p.defaultSize !== undefined)

/** The saved layout, when it names every panel of the group with a number. */
export function readLayout(spec: SplitSpec): Sizes | null {
  let saved: unknown
  try {
    saved = JSON.parse(spec.storage.getItem(storageKey(spec.id)) ?? 'null')
  } catch {
    return null
  }
  if (!saved || typeof saved !== 'object') return null
  const values = saved as Record<string, unknown>
  const sizes: Record<string, number> = {}
  for (const p of spec.panels) {
    const v = values[p.id]
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 100) return null
    if (p.defaultSize !== undefined) sizes[p.id] = v
  }
  return sizes
}

/** The layout as saved: every panel's percentage, the filling one's being what is left. */
export function layoutRecord(spec: SplitSpec, sizes: Sizes): Record<string, number> {
  const fixed = fixedOf(spec).reduce((s, p) => s + (sizes[p.id] ?? 0), 0)
  return Object.fromEntries(
    spec.panels.map((p) => [
      p.id,
      round3(p.defaultSize === undefined ? Math.max(0, 100 - fixed) : (sizes[p.id] ?? 0)),
    ]),
  )
}

/** A default size as a percentage of a group of `group` pixels. */
export const defaultPercent = (p: SplitPanel, group: number) =>
  typeof p.defaultSize === 'number' ? (p.defaultSize * 100) / group : parseFloat(p.defaultSize!)

/**
 * The largest percentage `id` may take: its maximum, or less where the filling panel's minimum
 * (and the other panels' sizes) stop it first.
 */
export function largestPercent(spec: SplitSpec, sizes: Sizes, id: string, at: Extent): number {
  const panel = spec.panels.find((p) => p.id === id)!
  const max = parseFloat(panel.maxSize ?? '100%')
  if (at.group <= 0) return max
  const others = fixedOf(spec).reduce((s, p) => s + (p.id === id ? 0 : (sizes[p.id] ?? 0)), 0)
  const room = 100 - others - (((fillOf(spec).minSize ?? 0) + at.separators) * 100) / at.group
  return Math.max(0, Math.min(max, room))
}

/** A panel's least size (percent), uncollapsed. */
export function minPercent(spec: SplitSpec, id: string, at: Extent): number {
  const min = spec.panels.find((p) => p.id === id)!.minSize ?? 0
  return at.group > 0 ? (min * 100) / at.group : 0
}

/**
 * The size (percent) a panel gets when asked for `wanted` percent: within its limits, and, if
 * it collapses, nothing below half its minimum (the library's snap).
 */
export function settle(
  spec: SplitSpec,
  sizes: Sizes,
  id: string,
  wanted: number,
  at: Extent,
): number {
  const min = minPercent(spec, id, at)
  if (spec.panels.find((p) => p.id === id)!.collapsible && wanted < min / 2) return 0
  return Math.max(min, Math.min(wanted, largestPercent(spec, sizes, id, at)))
}

/** Sizes kept in pixels across a group resize from `from` to `to` pixels (limits applied). */
export function keepPixels(spec: SplitSpec, sizes: Sizes, from: Extent, to: Extent): Sizes {
  const next: Record<string, number> = { ...sizes }
  for (const p of fixedOf(spec)) {
    const v = next[p.id]
    if (v === undefined || v === 0) continue
    next[p.id] = (v * from.group) / to.group
  }
  for (const p of fixedOf(spec)) {
    const v = next[p.id]
    if (v !== undefined && v > 0) next[p.id] = settle(spec, next, p.id, v, to)
  }
  return next
}

export interface Split {
  /** Props of the group's element. */
  group: {
    ref: RefObject<HTMLDivElement | null>
    id: string
    style: CSSProperties
    'data-split': string
  }
  /** Props of a panel's element: its id, its size, `data-collapsed` while collapsed. */
  panel(id: string): {
    id: string
    className: string
    style: CSSProperties
    'data-collapsed': true | undefined
  }
  /** Props of the separator beside panel `id` (that it resizes and names). */
  separator(
    id: string,
    label: string,
    title?: string,
  ): Record<string, unknown> & { role: 'separator' }
  isCollapsed(id: string): boolean
  /** Whether the panel is at the largest size it can have now (4 px to spare). */
  isLargest(id: string): boolean
  /** Collapses an open panel; restores a collapsed one to its last size (else its default). */
  toggle(id: string): void
  /** Sets a panel's size (percent of the group), within its limits; `'largest'` as it may be. */
  resize(id: string, size: number | 'largest' | 'default'): void
  /** The panel's size now, in percent of the group (0 when collapsed). */
  sizeOf(id: string): number
}

/** The state of one group of panels; render its props on the group, panels and separators. */
export function useSplit(spec: SplitSpec): Split {
  const ref = useRef<HTMLDivElement | null>(null)
  const [sizes, setSizes] = useState<Sizes | null>(() => readLayout(spec))
  const [extent, setExtent] = useState<Extent>({ group: 0, separators: 0 })
  const [dragging, setDragging] = useState<string | null>(null)
  // Each collapsed panel's size before it collapsed (percent), to restore it.
  const restore = useRef<Record<string, number>>({})
  const changed = useRef(false)
  const horizontal = spec.orientation === 'horizontal'
  const specRef = useRef(spec)
  useLayoutEffect(() => {
    specRef.current = spec
  })

  /** Measures the group now (in an event: the layout is clean then). */
  const measure = useCallback((): Extent => {
    const el = ref.current
    if (!el) return { group: 0, separators: 0 }
    const along = (e: Element) =>
      horizontal ? e.getBoundingClientRect().width : e.getBoundingClientRect().height
    let separators = 0
    for (const child of el.children)
      if (child.getAttribute('role') === 'separator') separators += along(child)
    return { group: along(el), separators }
  }, [horizontal])

  /** The sizes in percent, the defaults converted for a group of `group` pixels. */
  const resolved = useCallback(
    (current: Sizes | null, group: number): Sizes =>
      current ??
      Object.fromEntries(fixedOf(specRef.current).map((p) => [p.id, defaultPercent(p, group)])),
    [],
  )

  const update = useCallback(
    (make: (current: Sizes, at: Extent) => Sizes) => {
      const at = measure()
      if (at.group <= 0) return
      changed.current = true
      setExtent(at)
      setSizes((current) => make(resolved(current, at.group), at))
    },
    [measure, resolved],
  )

  // The group's size as laid out: defaults become percentages; a resize keeps pixel sizes.
  useEffect(() => {
    const el = ref.current
    if (!el) return
    let last: Extent | null = null
    const observer = new ResizeObserver(() => {
      const at = measure()
      if (at.group <= 0) return // hidden (a collapsed drawer's inner group): nothing to fit
      const from = last
      last = at
      setExtent((e) => (e.group === at.group && e.separators === at.separators ? e : at))
      setSizes((current) => {
        const now = resolved(current, at.group)
        if (!from || from.group === at.group || !specRef.current.keepPixels) return now
        changed.current = true
        return keepPixels(specRef.current, now, from, at)
      })
    })
    observer.observe(el)
    return () => observer.disconnect()
  }, [measure, resolved])

  // Saved once a change settles (not while a separator is dragged).
  useEffect(() => {
    if (!changed.current || dragging || !sizes) return
    const s = specRef.current
    try {
      s.storage.setItem(storageKey(s.id), JSON.stringify(layoutRecord(s, sizes)))
    } catch {
      // Not kept: the layout is UI, never the user's work.
    }
  }, [sizes, dragging])

  const current = (id: string) => sizes?.[id]
  const isCollapsed = (id: string) => current(id) === 0

  const setSize = (id: string, make: (size: number, at: Extent, all: Sizes) => number) =>
    update((all, at) => {
      const before = all[id] ?? 0
      const next = make(before, at, all)
      if (next === 0 && before > 0) restore.current[id] = before
      return next === before ? all : { ...all, [id]: next }
    })

  const defaultOf = (id: string, group: number) =>
    defaultPercent(
      spec.panels.find((p) => p.id === id)!,
      group,
    )

  const resize: Split['resize'] = (id, size) =>
    setSize(id, (_, at, all) =>
      settle(
        spec,
        all,
        id,
        size === 'largest'
          ? largestPercent(spec, all, id, at)
          : size === 'default'
            ? defaultOf(id, at.group)
            : size,
        at,
      ),
    )

  const toggle: Split['toggle'] = (id) =>
    setSize(id, (size, at, all) =>
      size > 0 ? 0 : settle(spec, all, id, restore.current[id] ?? defaultOf(id, at.group), at),
    )

  /** Whether panel `id` lies before the filling panel (its separator after it). */
  const before = (id: string) =>
    spec.panels.findIndex((p) => p.id === id) <
    spec.panels.findIndex((p) => p.defaultSize === undefined)

  const onKeyDown = (id: string) => (e: KeyboardEvent<HTMLElement>) => {
    const grow = horizontal ? ['ArrowRight', 'ArrowLeft'] : ['ArrowDown', 'ArrowUp']
    // Toward the end of the group grows a panel before the separator, shrinks one after it.
    const toEnd = e.key === grow[0] || e.key === 'End'
    const toStart = e.key === grow[1] || e.key === 'Home'
    if (toEnd || toStart) {
      e.preventDefault()
      const step = e.key === 'Home' || e.key === 'End' ? 100 : KEY_STEP
      const delta = (toEnd === before(id) ? 1 : -1) * step
      setSize(id, (size, at, all) =>
        // From collapsed, a step out opens the panel (to its minimum at least).
        settle(
          spec,
          all,
          id,
          size === 0 && delta > 0 ? Math.max(delta, minPercent(spec, id, at)) : size + delta,
          at,
        ),
      )
    } else if (e.key === 'Enter') {
      e.preventDefault()
      if (spec.panels.find((p) => p.id === id)?.collapsible) toggle(id)
    } else if (e.key === 'F6') {
      // The next (Shift: previous) separator of the group, as the library did.
      e.preventDefault()
      const all = [
        ...(ref.current?.querySelectorAll<HTMLElement>(`[data-split-of="${spec.id}"]`) ?? []),
      ]
      const at = all.indexOf(e.currentTarget)
      all[(at + (e.shiftKey ? all.length - 1 : 1)) % all.length]?.focus({ preventScroll: true })
    }
  }

  const onPointerDown = (id: string) => (e: PointerEvent<HTMLElement>) => {
    if (e.button !== 0) return
    e.preventDefault()
    const handle = e.currentTarget
    const at = measure()
    const panel = document.getElementById(id)
    if (!panel || at.group <= 0) return
    const box = panel.getBoundingClientRect()
    const start = horizontal ? e.clientX : e.clientY
    const startSize = ((horizontal ? box.width : box.height) * 100) / at.group
    const sign = before(id) ? 1 : -1
    handle.setPointerCapture(e.pointerId)
    handle.focus({ preventScroll: true })
    setDragging(id)
    const move = (m: globalThis.PointerEvent) => {
      const delta = (((horizontal ? m.clientX : m.clientY) - start) * 100) / at.group
      setSize(id, (_, now, all) => settle(spec, all, id, startSize + sign * delta, now))
    }
    const end = () => {
      handle.removeEventListener('pointermove', move)
      handle.removeEventListener('pointerup', end)
      handle.removeEventListener('pointercancel', end)
      handle.removeEventListener('lostpointercapture', end)
      setDragging(null)
    }
    handle.addEventListener('pointermove', move)
    handle.addEventListener('pointerup', end)
    handle.addEventListener('pointercancel', end)
    handle.addEventListener('lostpointercapture', end)
  }

  const percentOf = (id: string): number | undefined => {
    const v = current(id)
    if (v !== undefined) return v
    return extent.group > 0 ? defaultOf(id, extent.group) : undefined
  }

  return {
    group: {
      ref,
      id: spec.id,
      'data-split': spec.orientation,
      style: {
        display: 'flex',
        flexDirection: horizontal ? 'row' : 'column',
        overflow: 'hidden',
        width: '100%',
        height: '100%',
      },
    },
    panel(id) {
      const p = spec.panels.find((q) => q.id === id)!
      const dim = horizontal ? 'Width' : 'Height'
      const size = current(id)
      const style: CSSProperties =
        p.defaultSize === undefined
          ? { flex: '1 1 0px', [`min${dim}`]: p.minSize ?? 0 }
          : size === 0
            ? { flex: '0 0 0px', [`min${dim}`]: 0 }
            : {
                flex: `0 1 ${size !== undefined ? `${size}%` : typeof p.defaultSize === 'number' ? `${p.defaultSize}px` : p.defaultSize}`,
                [`min${dim}`]: p.minSize ?? 0,
                [`max${dim}`]: p.maxSize ?? '100%',
              }
      return {
        id,
        className: 'ss-panel',
        style,
        'data-collapsed': size === 0 || undefined,
      }
    },
    separator(id, label, title) {
      const p = spec.panels.find((q) => q.id === id)!
      const now = percentOf(id)
      const round = (n: number) => Math.round(n * 10) / 10
      const all = sizes ?? (extent.group > 0 ? resolved(null, extent.group) : null)
      return {
        role: 'separator',
        tabIndex: 0,
        className: 'ss-separator',
        id: `${id}-separator`,
        'data-split-of': spec.id,
        'data-separator': dragging === id ? 'active' : undefined,
        'aria-label': label,
        title,
        'aria-orientation': horizontal ? 'vertical' : 'horizontal',
        'aria-controls': id,
        // A separator that can take focus must always say where it is; before
        // the group is measured (or while it has no size) the declared default
        // stands in for it.
        'aria-valuenow': round(
          now ?? (typeof p.defaultSize === 'string' ? parseFloat(p.defaultSize) || 0 : 0),
        ),
        'aria-valuemin': p.collapsible ? 0 : round(minPercent(spec, id, extent)),
        'aria-valuemax':
          all && extent.group > 0 ? round(largestPercent(spec, all, id, extent)) : undefined,
        onKeyDown: onKeyDown(id),
        onPointerDown: onPointerDown(id),
        onDoubleClick: (e: { preventDefault(): void }) => {
          e.preventDefault()
          resize(id, 'default')
        },
      }
    },
    isCollapsed,
    isLargest(id) {
      const v = current(id)
      if (!v || !sizes || extent.group <= 0) return false
      return ((largestPercent(spec, sizes, id, extent) - v) * extent.group) / 100 <= 4
    },
    toggle,
    resize,
    sizeOf: (id) => percentOf(id) ?? 0,
  }
}
