import type { ReactFlowState } from '@xyflow/react'
import { createContext, useContext } from 'react'
import type { XY } from '../../core/graph/edits'
import { sizeOf } from './nodeSize'
import type { Direction, FlowEdge, FlowNode } from './flowTypes'

/**
 * Below this zoom a big graph's nodes are drawn as plain boxes and its edges as straight
 * lines (React Flow apps do the same): at the zoom that fits thousands of nodes a node is a
 * few pixels, its name unreadable, and each handle, badge and label costs a drag frame
 * (React Flow's per-handle store subscriptions, paint).
 */
export const LOW_DETAIL_ZOOM = 0.4

/** Whether the view is zoomed out past `LOW_DETAIL_ZOOM` (module scope: one selector). */
export const selectZoomedOut = (s: ReactFlowState): boolean => s.transform[2] < LOW_DETAIL_ZOOM

/** True while nodes and edges are drawn in low detail (set once by the canvas, not per node). */
export const LowDetailContext = createContext(false)

export const useLowDetail = (): boolean => useContext(LowDetailContext)

/** A zoomed-out edge: a straight line between its two nodes' handles, in flow coordinates. */
export interface Line {
  id: string
  x1: number
  y1: number
  x2: number
  y2: number
  /** Classes: the edge's kind, and `ss-selected` / `ss-fired`. */
  className: string
  arrow: boolean
}

/** The part of the flow in view (flow coordinates), from React Flow's transform and size. */
export interface View {
  x: number
  y: number
  width: number
  height: number
}

export const viewOf = (
  [tx, ty, zoom]: readonly [number, number, number],
  w: number,
  h: number,
) => ({
  x: -tx / zoom,
  y: -ty / zoom,
  width: w / zoom,
  height: h / zoom,
})

/** Where an edge leaves `n` (`out`) or enters it, as React Flow places the handles. */
export function handlePoint(n: FlowNode, out: boolean, direction: Direction): XY {
  const { width, height } = sizeOf(n)
  const { x, y } = n.position
  if (n.type === 'marker') {
    // A join's handles are at its centre; other markers' at the left and right.
    if (n.data.kind === 'join') return { x: x + width / 2, y: y + height / 2 }
    return { x: out ? x + width : x, y: y + height / 2 }
  }
  if (direction === 'LR') return { x: out ? x + width : x, y: y + height / 2 }
  return { x: x + width / 2, y: out ? y + height : y }
}

/** Where an edge's line was last found: its nodes (by object and place) and the line. */
interface Drawn {
  si: number
  ti: number
  s: FlowNode
  t: FlowNode
  fired: boolean
  direction: Direction
  line: Line
}

/**
 * The lines of the edges with a part in `view` (a margin round it, so a pan shows no gap at
 * once), from the nodes as drawn (drag positions included). It keeps each edge's line while
 * the edge and its two node objects stay the same, so a drag frame, which makes new objects
 * for the dragged nodes only, recomputes only their lines, with no lookup by id.
 */
export function createLineCache() {
  const drawn = new WeakMap<FlowEdge, Drawn>()
  let index = new Map<string, number>()
  let indexed: readonly FlowNode[] | null = null
  const place = (nodes: readonly FlowNode[], id: string, hint: number | undefined): number => {
    if (hint !== undefined && nodes[hint]?.id === id) return hint
    if (indexed !== nodes) {
      indexed = nodes
      index = new Map(nodes.map((n, i) => [n.id, i]))
    }
    return index.get(id) ?? -1
  }
  return function visibleLines(
    edges: readonly FlowEdge[],
    nodes: readonly FlowNode[],
    direction: Direction,
    view: View,
    fired: ReadonlySet<string>,
  ): Line[] {
    const mx = view.width / 4
    const my = view.height / 4
    const left = view.x - mx
    const right = view.x + view.width + mx
    const top = view.y - my
    const bottom = view.y + view.height + my
    const out: Line[] = []
    for (const e of edges) {
      if (e.source === e.target) continue
      const isFired = fired.has(e.id)
      let d = drawn.get(e)
      if (
        !d ||
        nodes[d.si] !== d.s ||
        nodes[d.ti] !== d.t ||
        d.fired !== isFired ||
        d.direction !== direction
      ) {
        const si = place(nodes, e.source, d?.si)
        const ti = place(nodes, e.target, d?.ti)
        const s = nodes[si]
        const t = nodes[ti]
        if (!s || !t) continue
        d = { si, ti, s, t, fired: isFired, direction, line: lineOf(e, s, t, direction, isFired) }
        drawn.set(e, d)
      }
      const { x1, y1, x2, y2 } = d.line
      if (Math.max(x1, x2) < left || Math.min(x1, x2) > right) continue
      if (Math.max(y1, y2) < top || Math.min(y1, y2) > bottom) continue
      out.push(d.line)
    }
    return out
  }
}

function lineOf(e: FlowEdge, s: FlowNode, t: FlowNode, direction: Direction, fired: boolean): Line {
  const a = handlePoint(s, true, direction)
  const b = handlePoint(t, false, direction)
  return {
    id: e.id,
    x1: a.x,
    y1: a.y,
    x2: b.x,
    y2: b.y,
    className: `ss-edge-${e.data?.kind ?? 'fixed'}${e.selected ? ' ss-selected' : ''}${fired ? ' ss-fired' : ''}`,
    arrow: e.markerEnd !== undefined,
  }
}
