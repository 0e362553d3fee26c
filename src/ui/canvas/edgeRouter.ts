import {
  CLEARANCE,
  PARALLEL_GAP,
  STUB,
  bezier,
  cubicAt,
  handlePoints,
  handlePositions,
  ownOffset,
  sameRoute,
  segmentCrossesRect,
  swap,
  type Cubic,
  type EdgeRoute,
  type HandleSides,
  type Pt,
  type Rect,
} from './edgeGeometry'

/**
 * Which edges are drawn apart or round other nodes, from the node boxes (see `routeEdges`).
 * Pure; `createEdgeRouter` keeps the last answer and redoes only the edges a move can change.
 */

const SAMPLES = 24

/** A node as the router sees it. */
export interface RouteNode {
  id: string
  box: Rect
  sides: HandleSides
}

/** An edge as the router sees it. */
export interface RouteEdge {
  id: string
  source: string
  target: string
}

type Pair = { key: string; edges: RouteEdge[] }

/**
 * How each edge is drawn, for the edges that are not a plain bezier (no entry for those):
 * - a detour (`lane`) for an edge whose bezier would cross another node's box, and for an
 *   edge that goes backwards (its target's handle is not ahead of its source's, so the
 *   bezier would run back through both of its nodes);
 * - edges between the same two nodes (either way round) are spread apart, `PARALLEL_GAP`
 *   between neighbours: the beziers among them on either side of the straight line, the
 *   detours in lanes of their own, so that none is drawn over another.
 */
export function routeEdges(
  nodes: readonly RouteNode[],
  edges: readonly RouteEdge[],
  lr: boolean,
): Map<string, EdgeRoute> {
  return createEdgeRouter()(nodes, edges, lr)
}

/** What a router did, counted for tests: pairs of nodes routed, box grids built. */
export interface RouterWork {
  pairs: number
  grids: number
}

/** Above this many changed boxes an edit is routed afresh (checking each edge against them costs more). */
const MAX_CHANGED_BOXES = 64

/**
 * `routeEdges` for a view that calls it on every frame of a drag: it keeps the last answer,
 * and when only some node boxes changed it redoes only the edges those boxes can change (an
 * edge of a moved node, or one whose drawn area a moved box leaves or enters), so a drag
 * costs about the edges near the dragged nodes. Nothing moved: the same map comes back. An
 * edit that changes a few nodes or edges (a rename, an added edge) redoes likewise only the
 * pairs of nodes whose edges changed and the edges round the boxes that came, went or moved.
 */
export function createEdgeRouter(work?: RouterWork) {
  let last: RouterState | null = null
  return function route(
    nodeList: readonly RouteNode[],
    edges: readonly RouteEdge[],
    lr: boolean,
  ): Map<string, EdgeRoute> {
    const prev = last
    // A drag moves many boxes at most; an edit's few changes are weighed against a fresh route.
    const limit = prev?.edges === edges ? Infinity : MAX_CHANGED_BOXES
    // The same nodes in the same order (a drag, a resize): only the changed entries are
    // looked at and updated, the node map and the box grid in place, so a drag frame costs
    // one pass of identity checks over the list, not a new map and grid of every node.
    const kept = prev && prev.lr === lr ? keptNodes(prev, nodeList, limit) : null
    let nodes: Map<string, RouteNode>
    let grid: BoxGrid | null = null
    let moved: Rect[] | null
    if (prev && kept) {
      nodes = prev.nodes
      grid = prev.grid
      moved = []
      for (const i of kept) {
        const n = nodeList[i] as RouteNode
        const old = nodes.get(n.id) as RouteNode
        moved.push(old.box, n.box)
        nodes.set(n.id, n)
        grid?.move(i, n.box)
      }
    } else {
      nodes = new Map(nodeList.map((n) => [n.id, n]))
      moved = prev && prev.lr === lr ? changedBoxes(prev.nodes, nodes, limit) : null
    }
    const boxes = () => {
      if (!grid && work) work.grids++
      return (grid ??= new BoxGrid(nodeList))
    }
    const routePair = (...args: Parameters<typeof routeOnePair>) => {
      if (work) work.pairs++
      routeOnePair(...args)
    }
    if (!prev || !moved) {
      const pairs = pairsOf(edges)
      const areas = new Map<string, Rect>()
      const out = new Map<string, EdgeRoute>()
      for (const pair of pairs) routePair(pair, nodes, boxes(), lr, out, areas)
      last = { list: nodeList, nodes, grid, edges, lr, pairs, areas, out }
      return out
    }
    if (prev.edges !== edges) {
      const edited = rerouteEdited(prev, nodes, edges, moved, boxes, lr, routePair)
      last = { ...edited, list: nodeList, grid }
      return last.out
    }
    // Only the pairs a moved box touches; the old map back when none of them changed.
    const redone = new Map<string, EdgeRoute>()
    const again: Pair[] = []
    if (moved.length > 0)
      for (const pair of prev.pairs) {
        if (!pair.edges.some((e) => touches(prev.areas.get(e.id), moved))) continue
        again.push(pair)
        routePair(pair, nodes, boxes(), lr, redone, prev.areas)
      }
    const same = again.every((pair) =>
      pair.edges.every((e) => sameRoute(prev.out.get(e.id), redone.get(e.id))),
    )
    let out = prev.out
    if (!same) {
      out = new Map(prev.out)
      for (const pair of again) for (const e of pair.edges) out.delete(e.id)
      for (const [id, r] of redone) out.set(id, r)
    }
    last = { ...prev, list: nodeList, nodes, grid, out }
    return out
  }
}

/**
 * When `list` holds the same node ids as the last one, in the same order: the places of the
 * nodes whose box or sides changed (a new object with the same box is no change). `null` when
 * the ids differ, or more than `limit` boxes changed.
 */
function keptNodes(prev: RouterState, list: readonly RouteNode[], limit: number): number[] | null {
  const before = prev.list
  if (before.length !== list.length) return null
  const changed: number[] = []
  for (let i = 0; i < list.length; i++) {
    const n = list[i] as RouteNode
    const old = before[i] as RouteNode
    if (n === old) continue
    if (n.id !== old.id) return null
    if (samePlace(old, n)) continue
    changed.push(i)
    if (changed.length * 2 > limit) return null
  }
  return changed
}

type RouterState = {
  /** The nodes as last given, in their order (the grid's box numbers are places in it). */
  list: readonly RouteNode[]
  nodes: Map<string, RouteNode>
  /** The boxes, in buckets: built when a route first needs it, then kept up to date. */
  grid: BoxGrid | null
  edges: readonly RouteEdge[]
  lr: boolean
  pairs: Pair[]
  areas: Map<string, Rect>
  out: Map<string, EdgeRoute>
}

/**
 * After an edit of the edges: a pair whose edges are not exactly as before (ids, ends, order)
 * is routed again, and so is every pair a changed box touches; the others keep their routes.
 */
function rerouteEdited(
  prev: RouterState,
  nodes: Map<string, RouteNode>,
  edges: readonly RouteEdge[],
  moved: readonly Rect[],
  boxes: () => BoxGrid,
  lr: boolean,
  routePair: typeof routeOnePair,
): Omit<RouterState, 'list' | 'grid'> {
  const pairs = pairsOf(edges)
  const before = new Map(prev.pairs.map((p) => [p.key, p]))
  const areas = new Map<string, Rect>()
  const out = new Map<string, EdgeRoute>()
  for (const pair of pairs) {
    const old = before.get(pair.key)
    const kept =
      old !== undefined &&
      samePairEdges(old, pair) &&
      !pair.edges.some((e) => touches(prev.areas.get(e.id), moved))
    if (!kept) {
      routePair(pair, nodes, boxes(), lr, out, areas)
      continue
    }
    for (const e of pair.edges) {
      const area = prev.areas.get(e.id)
      const r = prev.out.get(e.id)
      if (area) areas.set(e.id, area)
      if (r) out.set(e.id, r)
    }
  }
  return { nodes, edges, lr, pairs, areas, out }
}

function samePairEdges(a: Pair, b: Pair): boolean {
  return (
    a.edges.length === b.edges.length &&
    a.edges.every((e, i) => {
      const f = b.edges[i]
      return f !== undefined && e.id === f.id && e.source === f.source && e.target === f.target
    })
  )
}

/** The edges grouped by their two nodes, either way round; self-loops left out. */
function pairsOf(edges: readonly RouteEdge[]): Pair[] {
  const byKey = new Map<string, Pair>()
  for (const e of edges) {
    if (e.source === e.target) continue
    const key = e.source < e.target ? `${e.source}\n${e.target}` : `${e.target}\n${e.source}`
    const pair = byKey.get(key)
    if (pair) pair.edges.push(e)
    else byKey.set(key, { key, edges: [e] })
  }
  return [...byKey.values()]
}

/**
 * The boxes that changed: old and new of a node that moved or changed size, the old of one
 * that went, the new of one that came (a renamed node goes and comes); `null` when so many
 * changed (more than `limit`) that routing afresh is cheaper.
 */
function changedBoxes(
  before: Map<string, RouteNode>,
  after: Map<string, RouteNode>,
  limit: number,
): Rect[] | null {
  const out: Rect[] = []
  for (const [id, n] of after) {
    const old = before.get(id)
    if (!old) out.push(n.box)
    else if (!samePlace(old, n)) out.push(old.box, n.box)
    if (out.length > limit) return null
  }
  if (before.size !== after.size || out.length > 0)
    for (const [id, n] of before) {
      if (!after.has(id)) out.push(n.box)
      if (out.length > limit) return null
    }
  return out
}

/** Whether a node is where it was, as large, with its handles on the same sides. */
function samePlace(a: RouteNode, b: RouteNode): boolean {
  if (a === b) return true
  const [p, q] = [a.box, b.box]
  return p.x === q.x && p.y === q.y && p.w === q.w && p.h === q.h && a.sides === b.sides
}

/** Whether a moved box can change an edge: it is the edge's own node, or in the edge's area. */
function touches(area: Rect | undefined, moved: readonly Rect[]): boolean {
  if (!area) return true
  return moved.some(
    (b) =>
      b.x <= area.x + area.w &&
      b.x + b.w >= area.x &&
      b.y <= area.y + area.h &&
      b.y + b.h >= area.y,
  )
}

/** Routes the edges between one pair of nodes into `out`, and records the area each covers. */
function routeOnePair(
  pair: Pair,
  nodes: Map<string, RouteNode>,
  grid: BoxGrid,
  lr: boolean,
  out: Map<string, EdgeRoute>,
  areas: Map<string, Rect>,
): void {
  type Seen = { e: RouteEdge; s: Pt; t: Pt; curve: Cubic | null }
  const seen: Seen[] = []
  for (const e of pair.edges) {
    const from = nodes.get(e.source)
    const to = nodes.get(e.target)
    if (!from || !to) continue
    const s = handlePoints(from.box, from.sides)[0]
    const t = handlePoints(to.box, to.sides)[1]
    const along = lr ? t.x - s.x : t.y - s.y
    let curve: Cubic | null = null
    if (along >= STUB) {
      const c = bezier(s, handlePositions(from.sides)[0], t, handlePositions(to.sides)[1])
      if (!grid.curveHits(c, [e.source, e.target])) curve = c
    }
    seen.push({ e, s, t, curve })
  }
  // The beziers first, then the detours, whose lanes keep clear of the beziers' middles too.
  const taken: number[] = []
  for (const detour of [false, true]) {
    const group = seen.filter((p) => (p.curve === null) === detour)
    group.forEach(({ e, s, t, curve }, k) => {
      const offset = (k - (group.length - 1) / 2) * PARALLEL_GAP
      const spread = Math.abs(offset) * 1.5
      if (curve) {
        if (offset !== 0) out.set(e.id, { offset })
        areas.set(e.id, around(curve, spread))
        if (group.length < seen.length) {
          const [p0, , , p3] = curve
          const [sPos, tPos] = [positionsOf(nodes, e.source)[0], positionsOf(nodes, e.target)[1]]
          const mid = cubicAt(
            bezier(p0, sPos, p3, tPos, ownOffset(offset, e.source, e.target)),
            0.5,
          )
          taken.push(lr ? mid.y : mid.x)
        }
        return
      }
      const { at, searched } = pickLane(grid, s, t, lr, offset, taken)
      taken.push(at)
      out.set(e.id, { offset, lane: { at, lr } })
      // A lane as near the middle on the other side would do as well: a box leaving that
      // side must be noticed too. A lane that is no lane's best (none was free) depends on
      // every box the search looked at.
      const want = (lr ? s.y + t.y : s.x + t.x) / 2 + offset
      const across =
        searched === null ? [at, 2 * want - at] : [at, want - searched, want + searched]
      const ends = across.flatMap((c) =>
        lr
          ? [s, t, { x: s.x, y: c }, { x: t.x, y: c }]
          : [s, t, { x: c, y: s.y }, { x: c, y: t.y }],
      )
      areas.set(e.id, around(ends, spread))
    })
  }
}

const positionsOf = (nodes: Map<string, RouteNode>, id: string) =>
  handlePositions(nodes.get(id)?.sides ?? 'LR')

/**
 * The area a move can change an edge in: round its points, grown by the clearance, the stubs
 * and `spread` (its offset), so a box moving into it, or out of it, is noticed.
 */
function around(points: readonly Pt[], spread: number): Rect {
  const grow = CLEARANCE + STUB + spread
  const xs = points.map((p) => p.x)
  const ys = points.map((p) => p.y)
  const x = Math.min(...xs) - grow
  const y = Math.min(...ys) - grow
  return { x, y, w: Math.max(...xs) + grow - x, h: Math.max(...ys) + grow - y }
}

/**
 * A lane for a detour from `s` to `t`: the free coordinate across the direction nearest to
 * the middle of the two ends (moved by `offset`), where the lane runs clear of every box and
 * of the lanes `taken` by other detours between the same nodes, and so do the two pieces that
 * join it to the ends. Boxes are fetched from the grid in a window that widens until a lane
 * is found, so a detour costs about the boxes near it, not all of them. When none is free,
 * the nearest candidate, and how far from the middle the search looked (`searched`); when
 * a box covers the end of a stub, the middle at once (no lane could be free).
 */
function pickLane(
  grid: BoxGrid,
  s: Pt,
  t: Pt,
  lr: boolean,
  offset: number,
  taken: readonly number[],
): { at: number; searched: number | null } {
  const f = lr ? (p: Pt) => p : swap
  const S = f(s)
  const T = f(t)
  const a1 = S.x + STUB
  const a2 = T.x - STUB
  const lo = Math.min(a1, a2)
  const hi = Math.max(a1, a2)
  const want = (S.y + T.y) / 2 + offset
  const span = Math.abs(S.y - T.y) / 2 + Math.abs(offset)
  const free = (at: number) =>
    grid.segmentHits(f({ x: a1, y: S.y }), f({ x: a1, y: at }), CLEARANCE - 2) === 0 &&
    grid.segmentHits(f({ x: a2, y: at }), f({ x: a2, y: T.y }), CLEARANCE - 2) === 0
  // A box over either end of the stubs (another node dragged onto this one's side): no lane
  // can be free, whatever the search finds; the middle it is, without a search of every box.
  const [e1, e2] = [f({ x: a1, y: S.y }), f({ x: a2, y: T.y })]
  if (grid.segmentHits(e1, e1, CLEARANCE - 2) > 0 || grid.segmentHits(e2, e2, CLEARANCE - 2) > 0)
    return { at: want, searched: null }
  for (let win = 240; ; win *= 3) {
    const [c0, c1] = [want - span - win - CLEARANCE, want + span + win + CLEARANCE]
    const near = lr ? grid.near(lo, c0, hi, c1, []) : grid.near(c0, lo, c1, hi, [])
    // Where the lane may not run: each box across the band, grown by the clearance.
    const blocked: [number, number][] = near.map((i) => {
      const b = grid.box(i)
      return lr
        ? [b.y - CLEARANCE, b.y + b.h + CLEARANCE]
        : [b.x - CLEARANCE, b.x + b.w + CLEARANCE]
    })
    for (const x of taken) blocked.push([x - PARALLEL_GAP, x + PARALLEL_GAP])
    // The free coordinates nearest `want`: `want` itself, or the ends of merged blocked spans.
    const candidates: number[] = []
    let wantFree = true
    for (const [a, b] of merge(blocked)) {
      if (want > a && want < b) wantFree = false
      candidates.push(a, b)
    }
    if (wantFree) candidates.push(want)
    // Nearest first; of two as near, the one before (above, or to the left): the same answer
    // whatever order the grid gave the boxes in.
    candidates.sort((a, b) => Math.abs(a - want) - Math.abs(b - want) || a - b)
    const reach = span + win
    for (const at of candidates.slice(0, 16)) {
      if (Math.abs(at - want) > reach) break
      if (free(at)) return { at, searched: null }
    }
    if (win > grid.extent) return { at: candidates[0] ?? want, searched: c1 - want }
  }
}

/** Overlapping or touching spans merged, in order. */
function merge(spans: [number, number][]): [number, number][] {
  spans.sort((p, q) => p[0] - q[0])
  const out: [number, number][] = []
  for (const [a, b] of spans) {
    const last = out[out.length - 1]
    if (last && a <= last[1]) last[1] = Math.max(last[1], b)
    else out.push([a, b])
  }
  return out
}

const CELL = 256
// A bucket's key: its column and row, both offset to be positive, in one number.
const cellKey = (cx: number, cy: number) => (cx + 0x8000) * 0x10000 + (cy + 0x8000)

/** Node boxes in square buckets, for "which boxes are near this segment". */
class BoxGrid {
  private readonly cells = new Map<number, number[]>()
  private readonly boxes: Rect[]
  private readonly ids: string[]
  // Each box is visited once per query: the query's number is stamped on it.
  private readonly stamps: Uint32Array
  private query = 0
  // The area the boxes cover, the origin included; recomputed after a box on its edge moved.
  private bounds: [number, number, number, number] | null = null
  constructor(nodes: readonly RouteNode[]) {
    this.boxes = nodes.map((n) => n.box)
    this.ids = nodes.map((n) => n.id)
    this.stamps = new Uint32Array(nodes.length)
    this.boxes.forEach((b, i) => this.bucket(i, b))
  }

  /** Puts box number `i` into the buckets `b` overlaps. */
  private bucket(i: number, b: Rect): void {
    this.eachCell(b.x, b.y, b.x + b.w, b.y + b.h, (key) => {
      const list = this.cells.get(key)
      if (list) list.push(i)
      else this.cells.set(key, [i])
    })
  }

  /** The size of the area the boxes cover, at least. */
  get extent(): number {
    if (!this.bounds) {
      let [x0, y0, x1, y1] = [0, 0, 0, 0]
      for (const b of this.boxes) {
        x0 = Math.min(x0, b.x)
        y0 = Math.min(y0, b.y)
        x1 = Math.max(x1, b.x + b.w)
        y1 = Math.max(y1, b.y + b.h)
      }
      this.bounds = [x0, y0, x1, y1]
    }
    const [x0, y0, x1, y1] = this.bounds
    return Math.max(x1 - x0, y1 - y0)
  }

  /** Box `i` (a place in the node list the grid was built from) is now `box`. */
  move(i: number, box: Rect): void {
    const old = this.boxes[i] as Rect
    this.eachCell(old.x, old.y, old.x + old.w, old.y + old.h, (key) => {
      const list = this.cells.get(key)
      const at = list?.indexOf(i) ?? -1
      if (list && at >= 0) list.splice(at, 1)
    })
    this.boxes[i] = box
    this.bucket(i, box)
    const b = this.bounds
    if (!b) return
    const onEdge = old.x <= b[0] || old.y <= b[1] || old.x + old.w >= b[2] || old.y + old.h >= b[3]
    if (onEdge) this.bounds = null
    else {
      b[0] = Math.min(b[0], box.x)
      b[1] = Math.min(b[1], box.y)
      b[2] = Math.max(b[2], box.x + box.w)
      b[3] = Math.max(b[3], box.y + box.h)
    }
  }

  private eachCell(x0: number, y0: number, x1: number, y1: number, f: (key: number) => void) {
    const cx1 = Math.floor(x1 / CELL)
    const cy1 = Math.floor(y1 / CELL)
    for (let cx = Math.floor(x0 / CELL); cx <= cx1; cx++)
      for (let cy = Math.floor(y0 / CELL); cy <= cy1; cy++) f(cellKey(cx, cy))
  }

  /** The boxes that overlap a rectangle, each once, none of `skip`. */
  near(x0: number, y0: number, x1: number, y1: number, skip: readonly string[]): number[] {
    const q = ++this.query
    const found: number[] = []
    this.eachCell(x0, y0, x1, y1, (key) => {
      for (const i of this.cells.get(key) ?? []) {
        if (this.stamps[i] === q) continue
        this.stamps[i] = q
        const b = this.boxes[i] as Rect
        const overlaps = b.x <= x1 && b.x + b.w >= x0 && b.y <= y1 && b.y + b.h >= y0
        if (overlaps && !skip.includes(this.ids[i] as string)) found.push(i)
      }
    })
    return found
  }

  box(i: number): Rect {
    return this.boxes[i] as Rect
  }

  /** How many boxes, grown by `margin`, the segment p–q crosses. */
  segmentHits(p: Pt, q: Pt, margin: number): number {
    let n = 0
    const near = this.near(
      Math.min(p.x, q.x) - margin,
      Math.min(p.y, q.y) - margin,
      Math.max(p.x, q.x) + margin,
      Math.max(p.y, q.y) + margin,
      [],
    )
    for (const i of near) if (segmentCrossesRect(p, q, this.box(i), margin)) n++
    return n
  }

  /** Whether a cubic crosses a box other than `skip`'s. */
  curveHits(curve: Cubic, skip: readonly string[]): boolean {
    const [a, b, c, d] = curve
    const near = this.near(
      Math.min(a.x, b.x, c.x, d.x),
      Math.min(a.y, b.y, c.y, d.y),
      Math.max(a.x, b.x, c.x, d.x),
      Math.max(a.y, b.y, c.y, d.y),
      skip,
    )
    if (near.length === 0) return false
    let prev = a
    for (let k = 1; k <= SAMPLES; k++) {
      const p = cubicAt(curve, k / SAMPLES)
      for (const i of near) if (segmentCrossesRect(prev, p, this.box(i), 2)) return true
      prev = p
    }
    return false
  }
}
