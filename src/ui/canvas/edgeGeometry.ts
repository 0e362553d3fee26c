import { Position } from '@xyflow/react'

/**
 * Edge geometry, pure: the bezier React Flow draws (with a sideways offset for edges that
 * share their two nodes), and an orthogonal detour ("lane") for an edge whose bezier would go
 * through another node or backwards through its own two nodes. `routeEdges` (edgeRouter.ts)
 * picks offsets and lanes from the node boxes; `edgePath` draws either shape between the real
 * handle points.
 */

export interface Pt {
  x: number
  y: number
}

/** A node's box in flow coordinates. */
export interface Rect {
  x: number
  y: number
  w: number
  h: number
}

/** Where a node's handles are: on the sides (LR), top and bottom (TB), or both at its centre. */
export type HandleSides = 'LR' | 'TB' | 'centre'

/** An orthogonal detour: out of the source, across at `at`, into the target. */
export interface Lane {
  /** The lane's coordinate across the direction (a y when `lr`, an x otherwise). */
  at: number
  /** The frame: left to right (true) or top to bottom. */
  lr: boolean
}

/** How far apart the middles of two edges between the same nodes are drawn. */
export const PARALLEL_GAP = 36
/**
 * How an edge is drawn: `offset` moves it aside from the other edges between the same two
 * nodes (in their canonical order, see `ownOffset`); `lane` is its detour, if it needs one.
 */
export interface EdgeRoute {
  offset: number
  lane?: Lane
}

/** Whether two routes draw the same. */
export const sameRoute = (a: EdgeRoute | undefined, b: EdgeRoute | undefined): boolean =>
  a === b ||
  (a !== undefined &&
    b !== undefined &&
    a.offset === b.offset &&
    a.lane?.at === b.lane?.at &&
    a.lane?.lr === b.lane?.lr)

/** The straight piece out of a handle before a detour turns. */
export const STUB = 20
/** The clearance a detour keeps from every node box. */
export const CLEARANCE = 12
const CORNER = 8

/** The React Flow positions of a node's source and target handles. */
export const handlePositions = (sides: HandleSides): [source: Position, target: Position] =>
  sides === 'TB' ? [Position.Bottom, Position.Top] : [Position.Right, Position.Left]

/** The handle points of a node box, as React Flow places them. */
export function handlePoints(box: Rect, sides: HandleSides): [source: Pt, target: Pt] {
  const cx = box.x + box.w / 2
  const cy = box.y + box.h / 2
  if (sides === 'centre')
    return [
      { x: cx, y: cy },
      { x: cx, y: cy },
    ]
  if (sides === 'TB')
    return [
      { x: cx, y: box.y + box.h },
      { x: cx, y: box.y },
    ]
  return [
    { x: box.x + box.w, y: cy },
    { x: box.x, y: cy },
  ]
}

// React Flow's own control points (getBezierPath, curvature 0.25), so an edge looks the same.
const controlOffset = (distance: number) =>
  distance >= 0 ? 0.5 * distance : 0.25 * 25 * Math.sqrt(-distance)

function control(pos: Position, p: Pt, other: Pt): Pt {
  switch (pos) {
    case Position.Left:
      return { x: p.x - controlOffset(p.x - other.x), y: p.y }
    case Position.Right:
      return { x: p.x + controlOffset(other.x - p.x), y: p.y }
    case Position.Top:
      return { x: p.x, y: p.y - controlOffset(p.y - other.y) }
    case Position.Bottom:
      return { x: p.x, y: p.y + controlOffset(other.y - p.y) }
  }
}

/** A cubic bezier: source, two controls, target. */
export type Cubic = [Pt, Pt, Pt, Pt]

/**
 * React Flow's bezier from `s` to `t`, its middle moved `offset` px to the left of the
 * direction of travel (so two edges with offsets of opposite sign never share a middle).
 */
export function bezier(s: Pt, sPos: Position, t: Pt, tPos: Position, offset = 0): Cubic {
  const c1 = control(sPos, s, t)
  const c2 = control(tPos, t, s)
  if (offset === 0) return [s, c1, c2, t]
  const dx = t.x - s.x
  const dy = t.y - s.y
  const len = Math.hypot(dx, dy) || 1
  // The middle of a cubic is (s + 3 c1 + 3 c2 + t) / 8: moving both controls by k moves it by 3k/4.
  const k = (offset * 4) / 3
  const nx = (-dy / len) * k
  const ny = (dx / len) * k
  return [s, { x: c1.x + nx, y: c1.y + ny }, { x: c2.x + nx, y: c2.y + ny }, t]
}

/** The point at `u` (0 to 1) of a cubic. */
export function cubicAt([p0, p1, p2, p3]: Cubic, u: number): Pt {
  const v = 1 - u
  const a = v * v * v
  const b = 3 * v * v * u
  const c = 3 * v * u * u
  const d = u * u * u
  return {
    x: a * p0.x + b * p1.x + c * p2.x + d * p3.x,
    y: a * p0.y + b * p1.y + c * p2.y + d * p3.y,
  }
}

/** A point with its coordinates swapped: the top-to-bottom frame as a left-to-right one. */
export const swap = (p: Pt): Pt => ({ x: p.y, y: p.x })

/**
 * The corner points of a detour: a stub out of `s`, across to the lane, along it, across to
 * the target's stub, into `t`. Repeated and collinear points are dropped.
 */
export function lanePoints(s: Pt, t: Pt, lane: Lane): Pt[] {
  const f = lane.lr ? (p: Pt) => p : swap
  const S = f(s)
  const T = f(t)
  const a1 = S.x + STUB
  const a2 = T.x - STUB
  const raw = [
    S,
    { x: a1, y: S.y },
    { x: a1, y: lane.at },
    { x: a2, y: lane.at },
    { x: a2, y: T.y },
    T,
  ]
  return simplify(raw.map(f))
}

function simplify(points: Pt[]): Pt[] {
  const out: Pt[] = []
  for (const p of points) {
    const last = out[out.length - 1]
    if (last && Math.abs(last.x - p.x) < 0.01 && Math.abs(last.y - p.y) < 0.01) continue
    const before = out[out.length - 2]
    if (before && last && collinear(before, last, p)) out.pop()
    out.push(p)
  }
  return out
}

const collinear = (a: Pt, b: Pt, c: Pt) =>
  Math.abs((b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)) < 0.01 &&
  (b.x - a.x) * (c.x - b.x) + (b.y - a.y) * (c.y - b.y) >= 0

/** A polyline with rounded corners, as an SVG path. */
export function roundedPath(points: readonly Pt[], radius = CORNER): string {
  const first = points[0]
  if (!first) return ''
  let d = `M ${first.x} ${first.y}`
  for (let i = 1; i < points.length; i++) {
    const p = points[i] as Pt
    const prev = points[i - 1] as Pt
    const next = points[i + 1]
    if (!next) {
      d += ` L ${p.x} ${p.y}`
      break
    }
    const r = Math.min(radius, dist(prev, p) / 2, dist(p, next) / 2)
    const a = toward(p, prev, r)
    const b = toward(p, next, r)
    d += ` L ${a.x} ${a.y} Q ${p.x} ${p.y} ${b.x} ${b.y}`
  }
  return d
}

const dist = (a: Pt, b: Pt) => Math.hypot(a.x - b.x, a.y - b.y)
const toward = (from: Pt, to: Pt, r: number): Pt => {
  const d = dist(from, to) || 1
  return { x: from.x + ((to.x - from.x) * r) / d, y: from.y + ((to.y - from.y) * r) / d }
}

/** What an edge component needs to draw one edge between its two handle points. */
export interface EdgeShape {
  s: Pt
  sPos: Position
  t: Pt
  tPos: Position
  /** Sideways offset of the bezier's middle, in the edge's own direction of travel. */
  offset: number
  lane?: Lane | undefined
}

/** The SVG path of an edge and where its label goes: a detour along its lane, or a bezier. */
export function edgePath(e: EdgeShape): [path: string, labelX: number, labelY: number] {
  if (e.lane) {
    const points = lanePoints(e.s, e.t, e.lane)
    const f = e.lane.lr ? (p: Pt) => p : swap
    const S = f(e.s)
    const T = f(e.t)
    const mid = f({ x: (S.x + STUB + T.x - STUB) / 2, y: e.lane.at })
    return [roundedPath(points), mid.x, mid.y]
  }
  const c = bezier(e.s, e.sPos, e.t, e.tPos, e.offset)
  const [s, c1, c2, t] = c
  const mid = cubicAt(c, 0.5)
  return [`M ${s.x},${s.y} C ${c1.x},${c1.y} ${c2.x},${c2.y} ${t.x},${t.y}`, mid.x, mid.y]
}

/**
 * The offset of an edge in its own direction of travel from its offset between its two nodes
 * in their canonical order (the smaller id first): an edge B→A draws on the other side.
 */
export const ownOffset = (offset: number, source: string, target: string) =>
  source <= target ? offset : -offset

/** Whether the segment p–q crosses the rectangle grown by `margin` (Liang–Barsky clipping). */
export function segmentCrossesRect(p: Pt, q: Pt, r: Rect, margin = 0): boolean {
  const x0 = r.x - margin
  const y0 = r.y - margin
  const x1 = r.x + r.w + margin
  const y1 = r.y + r.h + margin
  const dx = q.x - p.x
  const dy = q.y - p.y
  let u0 = 0
  let u1 = 1
  const clip = (den: number, num: number): boolean => {
    if (den === 0) return num >= 0
    const u = num / den
    if (den < 0) {
      if (u > u1) return false
      if (u > u0) u0 = u
    } else {
      if (u < u0) return false
      if (u < u1) u1 = u
    }
    return true
  }
  return (
    clip(-dx, p.x - x0) &&
    clip(dx, x1 - p.x) &&
    clip(-dy, p.y - y0) &&
    clip(dy, y1 - p.y) &&
    u0 <= u1
  )
}
