import type { GraphIssue } from './issues'
import type { GraphSpec, SubgraphSpec } from './schema'
import {
  lookupSubgraph,
  namesInScope,
  scopeOf,
  subgraphDocument,
  type SubgraphScope,
} from './subgraphScope'

/**
 * The graphs of one document, as the canvas opens them: the root, and each subgraph reached
 * through the graph nodes that run it. A level is edited with the same edits as the root: it
 * is handed out as a document of its own (`spec`) and written back where it came from
 * (`setLevel`), so undo, autosave and validation see one document.
 */
export interface Level {
  /** Subgraph names from the root down; `[]` is the root. */
  path: string[]
  /** The level's graph as a document: a subgraph gets the root's `superstep` and its name. */
  spec: GraphSpec
  /** Where it sits in the document's JSON: `[]`, `["subgraphs", "team"]`, … */
  at: string[]
}

type Graph = SubgraphSpec | GraphSpec

/** Each level of `path`, from the root down, with where its subgraph was found. */
interface Chain {
  graphs: Graph[]
  /** For each level below the root: the index in `graphs` of the graph whose `subgraphs` holds it. */
  owners: number[]
  at: string[][]
  /** The scope the last level's own nodes see. */
  scope: SubgraphScope
}

function walk(doc: GraphSpec, path: readonly string[]): Chain | null {
  const graphs: Graph[] = [doc]
  const owners: number[] = []
  const at: string[][] = [[]]
  const scopes = [scopeOf(doc, undefined)]
  for (const name of path) {
    // Resolved as the runtime resolves it (subgraphScope.ts): in the subgraphs the level's
    // nodes see, nearest first.
    const found = lookupSubgraph(scopes.at(-1), name)
    if (!found) return null
    const owner = scopes.indexOf(found.scope)
    graphs.push(found.spec)
    owners.push(owner)
    at.push([...(at[owner] ?? []), 'subgraphs', name])
    scopes.push(scopeOf(found.spec, found.scope))
  }
  return { graphs, owners, at, scope: scopes.at(-1) as SubgraphScope }
}

/** The level at `path`, or null when a name on it does not resolve. */
export function levelOf(doc: GraphSpec, path: readonly string[]): Level | null {
  if (path.length === 0) return { path: [], spec: doc, at: [] }
  const chain = walk(doc, path)
  const sub = chain?.graphs.at(-1) as SubgraphSpec | undefined
  if (!chain || !sub) return null
  return {
    path: [...path],
    spec: subgraphDocument(path[path.length - 1] as string, sub),
    at: chain.at.at(-1) ?? [],
  }
}

/** The document with the level at `path` replaced by `next` (as `levelOf` handed it out, edited). */
export function setLevel(doc: GraphSpec, path: readonly string[], next: GraphSpec): GraphSpec {
  if (path.length === 0) return next
  const chain = walk(doc, path)
  if (!chain) return doc
  const graphs = [...chain.graphs]
  const put = (level: number, value: Graph): GraphSpec => {
    if (level === 0) return value as GraphSpec
    const owner = chain.owners[level - 1] as number
    const name = path[level - 1] as string
    const holder = graphs[owner] as Graph
    graphs[owner] = { ...holder, subgraphs: { ...holder.subgraphs, [name]: value as SubgraphSpec } }
    return put(owner, graphs[owner] as Graph)
  }
  const old = chain.graphs.at(-1) as SubgraphSpec
  if (next === levelOf(doc, path)?.spec) return doc
  const { superstep: _version, name, ...rest } = next as GraphSpec & SubgraphSpec
  const sub: SubgraphSpec = old.name !== undefined ? { ...rest, name } : rest
  return put(path.length, sub)
}

/**
 * The problems of one level, their paths made relative to it (so the canvas places them as it
 * does the root's); the problems of levels inside it are left out.
 */
export function issuesAt(issues: readonly GraphIssue[], at: readonly string[]): GraphIssue[] {
  if (at.length === 0) return issues.filter((i) => i.path[0] !== 'subgraphs')
  return issues.flatMap((i) => {
    if (i.path.length < at.length || at.some((p, k) => i.path[k] !== p)) return []
    const rest = i.path.slice(at.length)
    return rest[0] === 'subgraphs' ? [] : [{ ...i, path: rest }]
  })
}

/** The level a problem is on, as a path of subgraph names (the root's problems: `[]`). */
export function levelOfIssue(issue: GraphIssue): string[] {
  const path: string[] = []
  for (let k = 0; issue.path[k] === 'subgraphs' && typeof issue.path[k + 1] === 'string'; k += 2)
    path.push(issue.path[k + 1] as string)
  return path
}

/** The subgraph names a graph node at this level may run, nearest first, without repeats. */
export function subgraphNamesAt(doc: GraphSpec, path: readonly string[]): string[] {
  const chain = walk(doc, path)
  return chain ? namesInScope(chain.scope) : []
}

/**
 * The level (subgraph names) a run's namespace is on, from the graph node ids along it
 * (`nsNodes`): null when a node is not a graph node of the level it is on.
 */
export function levelPathOfNodes(doc: GraphSpec, nodeIds: readonly string[]): string[] | null {
  const path: string[] = []
  for (const id of nodeIds) {
    const level = levelOf(doc, path)
    const node = level?.spec.nodes.find((n) => n.id === id)
    if (!node || node.kind !== 'graph' || !node.graph) return null
    path.push(node.graph)
  }
  return levelOf(doc, path) ? path : null
}
