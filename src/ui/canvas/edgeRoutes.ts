import type { EdgeRoute, HandleSides } from './edgeGeometry'
import { createEdgeRouter, type RouteEdge, type RouteNode } from './edgeRouter'
import type { Direction, FlowEdge, FlowNode } from './flowTypes'
import { sizeOf } from './nodeSize'

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
  let lastNodes: readonly FlowNode[] = []
  let lastRouted: readonly RouteNode[] = []
  let lastDirection: Direction | null = null
  return (
    nodes: readonly FlowNode[],
    edges: readonly FlowEdge[],
    direction: Direction,
  ): Map<string, EdgeRoute> => {
    if (edges !== lastEdges) {
      lastEdges = edges
      routeEdgesIn = edges.map((e) => ({ id: e.id, source: e.source, target: e.target }))
    }
    // A node object as before, at the same place and in the same direction, is the same
    // router node: a drag frame makes new objects for the dragged nodes only.
    const reuse = direction === lastDirection ? lastNodes : []
    const routeNodes: RouteNode[] = nodes.map((n, i) => {
      if (reuse[i] === n) return lastRouted[i] as RouteNode
      const { width, height } = sizeOf(n)
      return {
        id: n.id,
        box: { x: n.position.x, y: n.position.y, w: width, h: height },
        sides: sidesOf(n, direction),
      }
    })
    lastNodes = nodes
    lastRouted = routeNodes
    lastDirection = direction
    return route(routeNodes, routeEdgesIn, direction === 'LR')
  }
}
