import type { EdgeRoute, HandleSides } from './edgeGeometry'
import { createEdgeRouter, type RouteEdge, type RouteNode } from './edgeRouter'
import { MARKER, NODE_H, NODE_W, type Direction, type FlowEdge, type FlowNode } from './flowTypes'

/** A marker's size before it is measured ("any node", a missing node: a pill). */
const PILL = { width: 96, height: 28 }

/** A node's size as drawn: measured, else declared, else the default box. */
export function sizeOf(n: FlowNode): { width: number; height: number } {
  const measured = n.measured
  if (measured?.width && measured.height) return { width: measured.width, height: measured.height }
  if (n.initialWidth && n.initialHeight) return { width: n.initialWidth, height: n.initialHeight }
  if (n.type === 'marker') return n.data.kind === 'join' ? { width: MARKER, height: MARKER } : PILL
  return { width: NODE_W, height: NODE_H }
}

function sidesOf(n: FlowNode, direction: Direction): HandleSides {
  if (n.type !== 'marker') return direction
  // Markers have their handles on the left and right (a join's both at its centre).
  return n.data.kind === 'join' ? 'centre' : 'LR'
}

/**
 * How the edges that are not a plain bezier are drawn (see `routeEdges`: spread apart, or a
 * detour), from the nodes as drawn: positions during a drag and measured sizes included. One
 * router per canvas: it keeps its last answer, so a drag redoes only the edges near the move.
 */
export function createFlowRouter() {
  const route = createEdgeRouter()
  let lastEdges: readonly FlowEdge[] | null = null
  let routeEdgesIn: RouteEdge[] = []
  return (
    nodes: readonly FlowNode[],
    edges: readonly FlowEdge[],
    direction: Direction,
  ): Map<string, EdgeRoute> => {
    if (edges !== lastEdges) {
      lastEdges = edges
      routeEdgesIn = edges.map((e) => ({ id: e.id, source: e.source, target: e.target }))
    }
    const routeNodes: RouteNode[] = nodes.map((n) => {
      const { width, height } = sizeOf(n)
      return {
        id: n.id,
        box: { x: n.position.x, y: n.position.y, w: width, h: height },
        sides: sidesOf(n, direction),
      }
    })
    return route(routeNodes, routeEdgesIn, direction === 'LR')
  }
}
