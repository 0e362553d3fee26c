/**
 * Subgraph names and where they resolve: a name used by a graph node or by node code
 * (`subgraphs.<name>`) is looked up in the `subgraphs` of the graph that uses it, then in
 * those of the graphs around it, up to the document's top level.
 */
import type { GraphSpec, SubgraphSpec } from './schema'

/** One level of subgraph definitions and the levels around it. */
export interface SubgraphScope {
  specs: Readonly<Record<string, SubgraphSpec>>
  parent: SubgraphScope | undefined
}

/** The scope a graph's own nodes see: its `subgraphs`, then the enclosing scope's. */
export function scopeOf(
  graph: Pick<GraphSpec, 'subgraphs'>,
  parent: SubgraphScope | undefined,
): SubgraphScope {
  return { specs: graph.subgraphs ?? {}, parent }
}

/** The subgraph `name` resolves to, and the scope that defines it (its own nodes see that scope and its `subgraphs`). */
export function lookupSubgraph(
  scope: SubgraphScope | undefined,
  name: string,
): { spec: SubgraphSpec; scope: SubgraphScope } | undefined {
  for (let s = scope; s; s = s.parent) {
    if (Object.hasOwn(s.specs, name)) return { spec: s.specs[name] as SubgraphSpec, scope: s }
  }
  return undefined
}

/** Every name visible from a scope, nearest first, each once. */
export function namesInScope(scope: SubgraphScope | undefined): string[] {
  const names = new Set<string>()
  for (let s = scope; s; s = s.parent) for (const n of Object.keys(s.specs)) names.add(n)
  return [...names]
}

/** A subgraph as a graph document of its own (named by its key unless it has a name). */
export function subgraphDocument(name: string, spec: SubgraphSpec): GraphSpec {
  return { ...spec, superstep: 1, name: spec.name ?? name } as GraphSpec
}

/** The subgraph names node code refers to as `subgraphs.<name>` (or `subgraphs["name"]`). */
export function subgraphsCalledBy(code: string): string[] {
  const names = new Set<string>()
  for (const m of code.matchAll(
    /\bsubgraphs\s*(?:\.\s*([A-Za-z_$][\w$]*)|\[\s*(['"])(.*?)\2\s*\])/g,
  )) {
    const name = m[1] ?? m[3]
    if (name !== undefined) names.add(name)
  }
  return [...names]
}
