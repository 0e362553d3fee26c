import dagre from '@dagrejs/dagre'
import type { GraphEdit, XY } from '../../core/graph/edits'
import type { GraphSpec } from '../../core/graph/schema'
import { branchTargets } from '../../core/graph/wiring'
import { END_ID, NODE_H, NODE_W, START_ID, snap, type Direction } from './flowTypes'

/**
 * Above this many nodes the layout falls back to `rankLayout`: dagre takes seconds on a
 * 1,000-node graph and blocks the main thread (NOTES.md); elkjs in a worker is the plan for
 * big graphs.
 */
export const DAGRE_MAX_NODES = 150

const RANK_SEP = 90
const NODE_SEP = 40

/** The `[from, to]` pairs a layout should respect: edges, join sources, branch paths, `ends`. */
export function layoutLinks(doc: GraphSpec): [string, string][] {
  const links: [string, string][] = []
  for (const e of doc.edges) for (const s of [e.from].flat()) links.push([s, e.to])
  for (const b of doc.branches ?? [])
    for (const [, t] of branchTargets(b.paths)) links.push([b.from, t])
  for (const n of doc.nodes) for (const t of n.ends ?? []) links.push([n.id, t])
  return links
}

/**
 * Top-left positions, snapped to the grid, for every document node id and for START and
 * END: dagre for small graphs, `rankLayout` above `DAGRE_MAX_NODES`.
 */
export function layoutPositions(doc: GraphSpec, direction: Direction): Map<string, XY> {
  const ids = [START_ID, ...new Set(doc.nodes.map((n) => n.id)), END_ID]
  const known = new Set(ids)
  const links = layoutLinks(doc).filter(([a, b]) => known.has(a) && known.has(b) && a !== b)
  return ids.length - 2 > DAGRE_MAX_NODES
    ? rankLayout(ids, links, direction)
    : dagreLayout(ids, links, direction)
}

function dagreLayout(ids: string[], links: [string, string][], direction: Direction) {
  const g = new dagre.graphlib.Graph()
  g.setGraph({ rankdir: direction, ranksep: RANK_SEP, nodesep: NODE_SEP })
  g.setDefaultEdgeLabel(() => ({}))
  for (const id of ids) g.setNode(id, { width: NODE_W, height: NODE_H })
  for (const [a, b] of links) g.setEdge(a, b)
  dagre.layout(g)
  const out = new Map<string, XY>()
  for (const id of ids) {
    const n = g.node(id) as { x: number; y: number }
    out.set(id, { x: snap(n.x - NODE_W / 2), y: snap(n.y - NODE_H / 2) })
  }
  return out
}

/**
 * A cheap layered layout: rank = shortest distance from START (unreached nodes after the
 * deepest rank, END last), nodes of a rank stacked in document order. Linear time.
 */
export function rankLayout(
  ids: string[],
  links: [string, string][],
  direction: Direction,
): Map<string, XY> {
  const next = new Map<string, string[]>()
  for (const [a, b] of links) next.set(a, [...(next.get(a) ?? []), b])
  const rank = new Map<string, number>([[START_ID, 0]])
  const queue = [START_ID]
  for (let i = 0; i < queue.length; i++) {
    const id = queue[i] as string
    for (const t of next.get(id) ?? []) {
      if (rank.has(t) || t === END_ID) continue
      rank.set(t, (rank.get(id) ?? 0) + 1)
      queue.push(t)
    }
  }
  const deepest = Math.max(0, ...rank.values())
  for (const id of ids) if (!rank.has(id) && id !== END_ID) rank.set(id, deepest + 1)
  rank.set(END_ID, Math.max(...rank.values()) + 1)
  const filled = new Map<number, number>()
  const out = new Map<string, XY>()
  for (const id of ids) {
    const r = rank.get(id) ?? 0
    const k = filled.get(r) ?? 0
    filled.set(r, k + 1)
    const along = r * ((direction === 'LR' ? NODE_W : NODE_H) + RANK_SEP)
    const across = k * ((direction === 'LR' ? NODE_H : NODE_W) + NODE_SEP)
    out.set(id, direction === 'LR' ? { x: along, y: across } : { x: across, y: along })
  }
  return out
}

/** "Auto layout": every document node moved, as one `moveNodes` edit. */
export function autoLayoutEdit(doc: GraphSpec, direction: Direction): GraphEdit {
  const positions = layoutPositions(doc, direction)
  const moves: { id: string; position: XY }[] = []
  for (const id of new Set(doc.nodes.map((n) => n.id))) {
    const position = positions.get(id)
    if (position) moves.push({ id, position })
  }
  return { type: 'moveNodes', moves }
}
