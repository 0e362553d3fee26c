import dagre from '@dagrejs/dagre'
import type { XY } from '../../core/graph/edits'
import { LAYOUT_SPACING } from './flowTypes'
import { NODE_H, NODE_W, snap, type Direction } from './flowTypes'

/**
 * dagre's layered layout, snapped to the grid: a chunk of its own (about 15 kB gzip), loaded
 * by layout.ts when a graph first needs it (a node without a position, or "Auto layout").
 */
export function dagreLayout(
  ids: readonly string[],
  links: readonly [string, string][],
  direction: Direction,
): Map<string, XY> {
  const g = new dagre.graphlib.Graph()
  g.setGraph({ rankdir: direction, ranksep: LAYOUT_SPACING.rank, nodesep: LAYOUT_SPACING.node })
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
