/**
 * Reading subgraphs' checkpoints: which compiled graph a namespace's checkpoints belong to,
 * and where a pending interrupt was raised.
 */
import type { CheckpointTuple } from '../checkpoint/types'
import type { CompiledGraph } from '../compile/compileGraph'
import { subgraphsCalledBy } from '../graph/subgraphScope'
import { INTERRUPT } from '../graph/constants'
import { nodeKind } from '../graph/nodeKinds'
import type { NodeSpec } from '../graph/schema'
import { nsNodes } from './namespace'

/**
 * The subgraph a node runs: a graph node's `graph`; for a code node, the one subgraph its
 * code calls (undefined when it calls several: its namespaces cannot tell them apart).
 */
export function subgraphNameOf(node: NodeSpec): string | undefined {
  if (nodeKind(node) === 'graph') return node.graph
  const called = subgraphsCalledBy(node.code ?? '')
  return called.length === 1 ? called[0] : undefined
}

/** The compiled graph whose checkpoints a namespace holds (`''`: `root` itself). */
export function graphAtNamespace(root: CompiledGraph, ns: string): CompiledGraph | undefined {
  let graph: CompiledGraph | undefined = root
  for (const id of nsNodes(ns)) {
    const node: NodeSpec | undefined = graph.spec.nodes.find((n) => n.id === id)
    const name: string | undefined = node && subgraphNameOf(node)
    graph = name === undefined ? undefined : graph.subgraph(name)
    if (!graph) return undefined
  }
  return graph
}

/** Like {@link graphAtNamespace}, but an unknown namespace is an error that names it. */
export function requireGraphAtNamespace(root: CompiledGraph, ns: string): CompiledGraph {
  const graph = graphAtNamespace(root, ns)
  if (!graph) {
    throw new Error(
      `No subgraph of \`${root.spec.name}\` has checkpoint namespace "${ns}" (node path ${JSON.stringify(nsNodes(ns))}): a code node that calls several subgraphs cannot be addressed by namespace.`,
    )
  }
  return graph
}

/**
 * Where each pending interrupt was raised, as node ids from the root down (`[]`: a node of
 * the root graph): the deepest namespace whose checkpoint holds the interrupt's id among its
 * pending writes (a subgraph's interrupt is also its parent task's, with the same id).
 */
export function interruptNamespaces(
  ids: readonly string[],
  tuples: readonly CheckpointTuple[],
): string[][] {
  return ids.map((id) => {
    let best: string[] = []
    for (const t of tuples) {
      const ns = nsNodes(t.config.checkpointNs ?? '')
      if (ns.length <= best.length) continue
      const holds = t.pendingWrites.some(
        ([, ch, v]) =>
          ch === INTERRUPT && Array.isArray(v) && v.some((i) => (i as { id?: unknown }).id === id),
      )
      if (holds) best = ns
    }
    return best
  })
}
