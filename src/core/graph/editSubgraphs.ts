import { readCode } from './codeFacts'
import { END, START } from './constants'
import { fail, freeName, label, nodeNameProblem, ok, tidy } from './editCommon'
import type { EditResult, XY } from './editTypes'
import type { BranchSpec, EdgeSpec, GraphSpec, NodeSpec, SubgraphSpec } from './schema'

/** Why `name` cannot name a new subgraph of `doc` (null when it can). */
export function subgraphNameProblem(doc: GraphSpec, name: string): string | null {
  if (name.trim() === '') return 'A subgraph needs a name.'
  if (Object.hasOwn(doc.subgraphs ?? {}, name))
    return `A subgraph named \`${name}\` already exists.`
  return null
}

/** A subgraph name no subgraph or node of `doc` has yet: `group`, `group_2`, … */
export function freeSubgraphName(doc: GraphSpec, base = 'group'): string {
  return freeName(
    base,
    (n) => !Object.hasOwn(doc.subgraphs ?? {}, n) && nodeNameProblem(doc, n) === null,
  )
}

/**
 * Adds a subgraph to the document's `subgraphs` and a graph node that runs it (LangGraph's
 * `addNode(id, compiledSubgraph)`), named after it when that name is free.
 */
export function addSubgraph(
  doc: GraphSpec,
  name: string,
  graph: SubgraphSpec,
  position?: XY,
): EditResult {
  const problem = subgraphNameProblem(doc, name)
  if (problem) return fail(doc, problem)
  const id = freeName(name, (x) => nodeNameProblem(doc, x) === null)
  const node: NodeSpec = { id, kind: 'graph', graph: name, ...(position && { position }) }
  return ok({
    ...doc,
    subgraphs: { ...doc.subgraphs, [name]: graph },
    nodes: [...doc.nodes, node],
  })
}

/** A document's graph, as a subgraph: without the format version (and its name kept as a note). */
export function asSubgraph(doc: GraphSpec, note?: string): SubgraphSpec {
  const { superstep: _version, name: _name, ...rest } = doc
  return note ? { ...rest, description: note } : rest
}

/**
 * Turns the nodes `ids` into a subgraph `name`, run by one graph node in their place:
 * - the edges and routers among them move into the subgraph, as do their breakpoints;
 * - the edges that led into them lead to the graph node, and the subgraph starts where they
 *   led: there must be one such node (two would start at once inside, one after another out);
 * - the edges that left them leave the graph node, and inside lead to END: they must all go
 *   to the same places (after the subgraph, every one of them runs);
 * - the subgraph's state is the graph's (each field with its reducer): the parent's state goes
 *   in, and the subgraph's values come back through the parent's reducers, as in LangGraph.
 * A router or a join that crosses the selection's border, or a `Command` goto out of it, is
 * refused with what to do instead.
 */
export function groupIntoSubgraph(
  doc: GraphSpec,
  ids: readonly string[],
  name: string,
): EditResult {
  const inside = new Set(ids)
  if (inside.size === 0) return fail(doc, 'Select the nodes to group first.')
  for (const id of inside)
    if (!doc.nodes.some((n) => n.id === id)) return fail(doc, `There is no node ${label(id)}.`)
  const problem = subgraphNameProblem(doc, name)
  if (problem) return fail(doc, problem)
  const isIn = (id: string) => inside.has(id)
  const nodeId = groupNodeId(doc, ids, name)

  const innerEdges: EdgeSpec[] = []
  const outerEdges: EdgeSpec[] = []
  const entries = new Set<string>()
  const exitsFrom = new Set<string>()
  const exitTargets = new Set<string>()
  for (const e of doc.edges) {
    const froms = Array.isArray(e.from) ? e.from : [e.from]
    const fromIn = froms.map(isIn)
    if (Array.isArray(e.from) && fromIn.some(Boolean) && !fromIn.every(Boolean))
      return fail(
        doc,
        `The join into ${label(e.to)} waits for nodes inside and outside the selection: select all of ${e.from.map(label).join(', ')}, or none.`,
      )
    const fromInside = fromIn.every(Boolean)
    if (fromInside && isIn(e.to)) innerEdges.push(e)
    else if (fromInside) {
      for (const f of froms) exitsFrom.add(f)
      exitTargets.add(e.to)
    } else if (isIn(e.to)) {
      entries.add(e.to)
      outerEdges.push({ ...e, to: nodeId })
    } else outerEdges.push(e)
  }
  const innerBranches: BranchSpec[] = []
  const outerBranches: BranchSpec[] = []
  for (const b of doc.branches ?? []) {
    const targets = branchTargets(b)
    if (isIn(b.from)) {
      const may = targets ?? [...readCode(b.router).strings]
      if ((targets === null && may.length === 0) || may.some((t) => !isIn(t) && t !== END))
        return fail(
          doc,
          `The router of ${label(b.from)} may lead outside the selection: select the nodes it leads to as well, or leave ${label(b.from)} out.`,
        )
      innerBranches.push(b)
      continue
    }
    // A router without a path map returns names: one it may return from inside is refused.
    const into = (targets ?? [...readCode(b.router).strings]).filter(isIn)
    if (targets === null && into.length)
      return fail(
        doc,
        `The router of ${label(b.from)} has no path map and may return ${into.map(label).join(', ')}: give it a path map first, or leave those nodes out.`,
      )
    for (const t of into) entries.add(t)
    outerBranches.push(into.length ? retarget(b, isIn, nodeId) : b)
  }
  if (entries.size > 1)
    return fail(
      doc,
      `The selection is entered at ${[...entries].map(label).join(' and ')}: a subgraph starts at one node. Select a part with one way in.`,
    )
  if (exitTargets.size > 1)
    return fail(
      doc,
      `The selection is left towards ${[...exitTargets].map(label).join(' and ')}: after a subgraph, every one of them would run. Select a part with one way out.`,
    )
  for (const n of doc.nodes)
    if (isIn(n.id) && n.ends?.some((t) => !isIn(t) && t !== END))
      return fail(
        doc,
        `${label(n.id)} may go (Command goto) to a node outside the selection; a subgraph's node hands off to its parent only with Command.PARENT. Select that node too, or leave ${label(n.id)} out.`,
      )
  // An unconnected part starts at its first node.
  const entry = [...entries][0] ?? ids[0]
  const inner = doc.nodes.filter((n) => isIn(n.id))
  const exits = [...exitsFrom]
  const sub: SubgraphSpec = {
    state: doc.state,
    nodes: inner,
    edges: [
      ...(entry ? [{ from: START, to: entry }] : []),
      ...innerEdges,
      ...exits.map((from) => ({ from, to: END })),
    ],
    ...(innerBranches.length && { branches: innerBranches }),
    ...breakpoints(doc, isIn),
  }
  const at = inner[0]?.position
  const node: NodeSpec = { id: nodeId, kind: 'graph', graph: name, ...(at && { position: at }) }
  const out = [...exitTargets][0]
  const edges = dedupe([...outerEdges, ...(out ? [{ from: nodeId, to: out }] : [])])
  const keep = (list: string[] | undefined) =>
    tidy(
      list,
      list?.filter((n) => !isIn(n)),
    )
  const next: GraphSpec = {
    ...doc,
    nodes: [...doc.nodes.filter((n) => !isIn(n.id)), node],
    edges,
    branches: tidy(doc.branches, outerBranches),
    interruptBefore: keep(doc.interruptBefore),
    interruptAfter: keep(doc.interruptAfter),
    subgraphs: { ...doc.subgraphs, [name]: sub },
  }
  for (const k of ['branches', 'interruptBefore', 'interruptAfter'] as const)
    if (next[k] === undefined) delete next[k]
  return ok(next)
}

/** The id of the graph node that `groupIntoSubgraph(doc, ids, name)` puts in their place. */
export function groupNodeId(doc: GraphSpec, ids: readonly string[], name: string): string {
  const rest = { ...doc, nodes: doc.nodes.filter((n) => !ids.includes(n.id)) }
  return freeName(name, (x) => nodeNameProblem(rest, x) === null)
}

/** Where a router may lead, or null when it has no path map (it may return any node). */
function branchTargets(b: BranchSpec): string[] | null {
  if (!b.paths) return null
  return Array.isArray(b.paths) ? b.paths : Object.values(b.paths)
}

/** The router with its routes into the selection sent to the graph node instead. */
function retarget(b: BranchSpec, isIn: (id: string) => boolean, nodeId: string): BranchSpec {
  const paths = b.paths
  if (!paths) return b
  if (Array.isArray(paths))
    return { ...b, paths: [...new Set(paths.map((t) => (isIn(t) ? nodeId : t)))] }
  return {
    ...b,
    paths: Object.fromEntries(Object.entries(paths).map(([k, t]) => [k, isIn(t) ? nodeId : t])),
  }
}

/** The selection's breakpoints, for the subgraph. */
function breakpoints(
  doc: GraphSpec,
  isIn: (id: string) => boolean,
): Pick<SubgraphSpec, 'interruptBefore' | 'interruptAfter'> {
  const before = doc.interruptBefore?.filter(isIn) ?? []
  const after = doc.interruptAfter?.filter(isIn) ?? []
  return {
    ...(before.length && { interruptBefore: before }),
    ...(after.length && { interruptAfter: after }),
  }
}

/** Fixed edges without repeats (several edges into the selection become one into its node). */
function dedupe(edges: EdgeSpec[]): EdgeSpec[] {
  const seen = new Set<string>()
  return edges.filter((e) => {
    const key = JSON.stringify([e.from, e.to])
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}
