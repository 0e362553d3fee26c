import { filterSame, mapSame, patch, tidy } from './editCommon'
import type { BranchSpec, EdgeSpec, GraphSpec } from './schema'

/**
 * What becomes of each name a document mentions: the same name, a new one, or null when
 * the node goes away. START, END and `*` must map to themselves unless they are to go.
 */
export type RefMap = (id: string) => string | null

const notNull = <T>(x: T | null): x is T => x !== null
const edgeKey = (from: string, to: string) => JSON.stringify([from, to])

/**
 * Edges with their ends renamed or removed. A join keeps its remaining sources; left with
 * one it becomes a plain edge (dropped when that edge already exists), with none it goes.
 */
export function rewireEdges(edges: EdgeSpec[], map: RefMap): EdgeSpec[] {
  const plain = new Set<string>()
  for (const e of edges) {
    if (Array.isArray(e.from)) continue
    const from = map(e.from)
    const to = map(e.to)
    if (from !== null && to !== null) plain.add(edgeKey(from, to))
  }
  let changed = false
  const out: EdgeSpec[] = []
  for (const e of edges) {
    const next = rewireEdge(e, map, plain)
    if (next !== e) changed = true
    if (next) out.push(next)
  }
  return changed ? out : edges
}

function rewireEdge(e: EdgeSpec, map: RefMap, plain: Set<string>): EdgeSpec | null {
  const to = map(e.to)
  if (to === null) return null
  if (!Array.isArray(e.from)) {
    const from = map(e.from)
    if (from === null) return null
    return from === e.from && to === e.to ? e : { ...e, from, to }
  }
  const sources = e.from.map(map).filter(notNull)
  const [only] = sources
  if (only === undefined) return null
  if (sources.length === 1) {
    if (plain.has(edgeKey(only, to))) return null
    plain.add(edgeKey(only, to))
    return { ...e, from: only, to }
  }
  const same = to === e.to && sources.length === e.from.length
  return same && sources.every((s, i) => s === e.from[i]) ? e : { ...e, from: sources, to }
}

/**
 * A path map with its targets renamed or removed. A renamed entry of a list-form map turns
 * the list into an object map from the old name to the new one, so the router, whose code
 * still returns the old name, keeps routing to the same node.
 */
export function rewirePaths(paths: BranchSpec['paths'], map: RefMap): BranchSpec['paths'] {
  if (paths === undefined) return undefined
  if (Array.isArray(paths)) {
    const renamed = paths.some((p) => {
      const m = map(p)
      return m !== null && m !== p
    })
    if (!renamed) return filterSame(paths, (p) => map(p) !== null)
    const entries: [string, string][] = []
    for (const p of paths) {
      const target = map(p)
      if (target !== null) entries.push([p, target])
    }
    return Object.fromEntries(entries)
  }
  let changed = false
  const entries: [string, string][] = []
  for (const [key, target] of Object.entries(paths)) {
    const next = map(target)
    if (next !== target) changed = true
    if (next !== null) entries.push([key, next])
  }
  return changed ? Object.fromEntries(entries) : paths
}

/** Branches renamed or removed with their source, their path targets renamed or removed. */
export function rewireBranches(branches: BranchSpec[], map: RefMap): BranchSpec[] {
  const kept = filterSame(branches, (b) => map(b.from) !== null)
  return mapSame(kept, (b) => {
    const from = map(b.from) ?? b.from
    const paths = rewirePaths(b.paths, map)
    return from === b.from && paths === b.paths ? b : { ...b, from, paths }
  })
}

/** A list of names with each renamed, removed names dropped; the same list when unchanged. */
export function rewireList(list: string[], map: RefMap): string[] {
  const next = list.map(map)
  return next.every((x, i) => x === list[i]) ? list : next.filter(notNull)
}

/**
 * Every reference to a node outside the node list renamed or removed: edges (both ends and
 * join sources), branches (source and path targets), other nodes' `ends`, breakpoints.
 * Arrays an edit empties are removed. Code strings are left alone.
 */
export function rewireRefs(doc: GraphSpec, map: RefMap): GraphSpec {
  const branches = doc.branches && rewireBranches(doc.branches, map)
  const nodes = mapSame(doc.nodes, (n) => {
    if (!n.ends) return n
    return patch(n, { ends: tidy(n.ends, rewireList(n.ends, map)) })
  })
  const before = doc.interruptBefore && rewireList(doc.interruptBefore, map)
  const after = doc.interruptAfter && rewireList(doc.interruptAfter, map)
  return patch(doc, {
    nodes,
    edges: rewireEdges(doc.edges, map),
    branches: tidy(doc.branches, branches),
    interruptBefore: tidy(doc.interruptBefore, before),
    interruptAfter: tidy(doc.interruptAfter, after),
  })
}
