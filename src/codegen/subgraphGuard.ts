import { nodeKind } from '../core/graph/nodeKinds'
import type { GraphSpec, NodeSpec } from '../core/graph/schema'

/**
 * Raised by the exports for a document with subgraphs: they are not exported yet, and an
 * export that left them out would run differently from the page.
 */
export class SubgraphsNotExportedError extends Error {
  override name = 'SubgraphsNotExportedError'
  readonly code = 'SUBGRAPHS_NOT_EXPORTED'
}

/** Whether a document uses subgraphs (a `subgraphs` map or a graph node). */
export function usesSubgraphs(graph: GraphSpec): boolean {
  return (
    Object.keys(graph.subgraphs ?? {}).length > 0 ||
    graph.nodes.some((n) => nodeKind(n) === 'graph')
  )
}

/** Throws {@link SubgraphsNotExportedError} when the document uses subgraphs. */
export function refuseSubgraphs(graph: GraphSpec, target: 'TypeScript' | 'Python'): void {
  if (!usesSubgraphs(graph)) return
  throw new SubgraphsNotExportedError(
    `Graph \`${graph.name}\` uses subgraphs, which the ${target} export does not write yet; export a graph without subgraphs, or run this one in the page or with \`superstep run\`.`,
  )
}

/** For the kind tables: a graph node never reaches them, since the export refuses first. */
export function graphNodeNotExported(node: NodeSpec): never {
  throw new SubgraphsNotExportedError(
    `Node \`${node.id}\` runs a subgraph, which the exports do not write yet.`,
  )
}
