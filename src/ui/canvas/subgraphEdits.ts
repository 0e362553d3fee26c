import type { GraphEdit, XY } from '../../core/graph/edits'
import { graphTools } from '../../store/graphTools'
import type { GraphSpec, SubgraphSpec } from '../../core/graph/schema'

/**
 * "Add subgraph": a new subgraph with the graph's state and one node, or a copy of a library
 * graph (its description notes where it came from), each with a graph node that runs it.
 * Null when the library graph does not read as a graph document.
 */
export function addSubgraphEdit(
  doc: GraphSpec,
  from: { name: string; doc: unknown } | null,
  position: XY,
): GraphEdit | null {
  const { asSubgraph, freeSubgraphName, parseGraph } = graphTools()
  if (!from) {
    const graph: SubgraphSpec = {
      state: doc.state,
      nodes: [{ id: 'step', code: '(state) => ({})', position: { x: 0, y: 0 } }],
      edges: [
        { from: '__start__', to: 'step' },
        { from: 'step', to: '__end__' },
      ],
    }
    return { type: 'addSubgraph', name: freeSubgraphName(doc, 'subgraph'), graph, position }
  }
  const parsed = parseGraph(from.doc)
  const spec = parsed.ok ? parsed.spec : parsed.wellFormed
  if (!spec) return null
  const day = new Date().toISOString().slice(0, 10)
  const note = `Copied from the library graph "${from.name}" on ${day}.${spec.description ? ` ${spec.description}` : ''}`
  const name = freeSubgraphName(doc, safeName(from.name))
  return { type: 'addSubgraph', name, graph: asSubgraph(spec, note), position }
}

/** A graph's name as a subgraph (and graph node) name: no spaces, `|` or `:`. */
function safeName(name: string): string {
  return name.trim().replace(/[\s|:]+/g, '_') || 'subgraph'
}
