/**
 * The graphs of a document as the exports write them: the root graph and every subgraph
 * definition (at any depth), each a level of its own with the scope its nodes see, ordered
 * so that a subgraph comes before every graph that uses it (as a node or from node code).
 * Shared by the TypeScript and the Python export.
 */
import { nodeKind } from '../core/graph/nodeKinds'
import type { GraphSpec, SubgraphSpec } from '../core/graph/schema'
import {
  lookupSubgraph,
  scopeOf,
  subgraphDocument,
  subgraphsCalledBy,
  type SubgraphScope,
} from '../core/graph/subgraphScope'

/** One subgraph definition: its document, its key, and the scope its own nodes see. */
export interface SubgraphLevel {
  /** The definition itself (its identity names it: two definitions may share a key). */
  def: SubgraphSpec
  /** Its key in the `subgraphs` that defines it. */
  name: string
  /** The definition as a graph document (`name` its key unless it has one). */
  spec: GraphSpec
  /** What its nodes see: its own `subgraphs`, then the enclosing scopes'. */
  scope: SubgraphScope
}

/**
 * Every subgraph definition of a document, each once, dependencies first: a definition
 * comes after every definition its graph nodes and its node code (`subgraphs.<name>`) use.
 * Definitions nothing uses are kept (in declaration order).
 */
export function subgraphLevels(root: GraphSpec): SubgraphLevel[] {
  const declared: SubgraphLevel[] = []
  const declare = (graph: Pick<GraphSpec, 'subgraphs'>, scope: SubgraphScope) => {
    for (const [name, def] of Object.entries(graph.subgraphs ?? {})) {
      const level = { def, name, spec: subgraphDocument(name, def), scope: scopeOf(def, scope) }
      declared.push(level)
      declare(def, level.scope)
    }
  }
  declare(root, scopeOf(root, undefined))
  const byDef = new Map(declared.map((l) => [l.def, l]))
  const ordered: SubgraphLevel[] = []
  const visiting = new Set<SubgraphSpec>()
  const visit = (level: SubgraphLevel) => {
    if (ordered.includes(level) || visiting.has(level.def)) return // a cycle is a validation error
    visiting.add(level.def)
    for (const used of usedBy(level.spec, level.scope)) {
      const dep = byDef.get(used)
      if (dep) visit(dep)
    }
    visiting.delete(level.def)
    ordered.push(level)
  }
  for (const level of declared) visit(level)
  return ordered
}

/** The definitions a graph's nodes use: graph nodes' subgraphs, then those code calls. */
export function usedBy(graph: GraphSpec, scope: SubgraphScope): SubgraphSpec[] {
  const out: SubgraphSpec[] = []
  const add = (name: string) => {
    const hit = lookupSubgraph(scope, name)
    if (hit && !out.includes(hit.spec)) out.push(hit.spec)
  }
  for (const n of graph.nodes) if (nodeKind(n) === 'graph') add(n.graph ?? '')
  for (const n of graph.nodes) for (const name of codeCalls(n)) add(name)
  return out
}

/** The subgraph names a code node's code calls (`subgraphs.<name>`); none for other kinds. */
export function codeCalls(node: GraphSpec['nodes'][number]): string[] {
  return nodeKind(node) === 'code' ? subgraphsCalledBy(node.code ?? '') : []
}

/** The subgraph a name resolves to from a scope (undefined: a validation error). */
export function resolveSubgraph(scope: SubgraphScope, name: string): SubgraphSpec | undefined {
  return lookupSubgraph(scope, name)?.spec
}

/** The root graph with every level's nodes, branches, edges and fields: what the module imports. */
export function flattenLevels(root: GraphSpec, levels: readonly SubgraphLevel[]): GraphSpec {
  const all = [root, ...levels.map((l) => l.spec)]
  return {
    ...root,
    state: all.flatMap((g) => g.state),
    nodes: all.flatMap((g) => g.nodes),
    edges: all.flatMap((g) => g.edges),
    branches: all.flatMap((g) => g.branches ?? []),
  }
}
