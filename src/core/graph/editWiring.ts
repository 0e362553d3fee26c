import { END, START } from './constants'
import { fail, isSource, isTarget, label, ok, patch, tidy } from './editCommon'
import type { EditResult } from './editTypes'
import type { BranchSpec, GraphSpec } from './schema'

/** A new branch routes to END through `done` unless told otherwise: it validates and runs. */
export const DEFAULT_BRANCH_KEY = 'done'

/** Why no edge may start at `from` (null when one may). */
function sourceProblem(doc: GraphSpec, from: string): string | null {
  if (from === END) return 'END cannot be the start of an edge.'
  return isSource(doc, from) ? null : `There is no node \`${from}\` to start an edge at.`
}

/** Why no edge may end at `to` (null when one may). */
function targetProblem(doc: GraphSpec, to: string): string | null {
  if (to === START) return 'START cannot be the end of an edge.'
  return isTarget(doc, to) ? null : `There is no node \`${to}\` to end an edge at.`
}

/** A plain edge; adding one that is already drawn changes nothing. */
export function addEdge(doc: GraphSpec, from: string, to: string): EditResult {
  const problem = sourceProblem(doc, from) ?? targetProblem(doc, to)
  if (problem) return fail(doc, problem)
  if (doc.edges.some((e) => e.from === from && e.to === to)) return ok(doc)
  return ok({ ...doc, edges: [...doc.edges, { from, to }] })
}

/** A join (`to` runs once every source has run); the same sources and target again is a no-op. */
export function addJoin(doc: GraphSpec, from: string[], to: string): EditResult {
  const sources = [...new Set(from)]
  if (sources.length < 2)
    return fail(doc, `A join waits for at least two nodes; got ${sources.length}.`)
  for (const s of sources) {
    if (s === START || s === END)
      return fail(doc, `A join waits for nodes; ${label(s)} cannot be one of them.`)
    if (!isSource(doc, s)) return fail(doc, `There is no node \`${s}\` for the join to wait for.`)
  }
  const problem = targetProblem(doc, to)
  if (problem) return fail(doc, problem)
  const set = new Set(sources)
  const exists = doc.edges.some(
    (e) =>
      Array.isArray(e.from) &&
      e.to === to &&
      e.from.length === set.size &&
      e.from.every((s) => set.has(s)),
  )
  if (exists) return ok(doc)
  return ok({ ...doc, edges: [...doc.edges, { from: sources, to }] })
}

/** Removes edges and joins by their index in `edges`. */
export function deleteEdges(doc: GraphSpec, indexes: number[]): EditResult {
  const bad = indexes.find((i) => !Number.isInteger(i) || i < 0 || i >= doc.edges.length)
  if (bad !== undefined) return fail(doc, `There is no edge at index ${bad}.`)
  if (indexes.length === 0) return ok(doc)
  const drop = new Set(indexes)
  return ok({ ...doc, edges: doc.edges.filter((_, i) => !drop.has(i)) })
}

/** A single-quoted JavaScript string literal. */
const quote = (s: string) =>
  `'${JSON.stringify(s).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`

/**
 * A conditional edge. Without router and paths it is `(state) => 'done'` with
 * `{ done: END }`; with paths only, the router returns the first key; with a router only,
 * there is no path map (the router returns node names).
 */
export function addBranch(
  doc: GraphSpec,
  from: string,
  router?: string,
  paths?: Record<string, string>,
): EditResult {
  const problem = sourceProblem(doc, from)
  if (problem) return fail(doc, `Conditional edge: ${problem}`)
  for (const [key, to] of Object.entries(paths ?? {})) {
    const p = targetProblem(doc, to)
    if (p) return fail(doc, `Conditional edge, path \`${key}\`: ${p}`)
  }
  let branch: BranchSpec
  if (paths === undefined) {
    branch =
      router === undefined
        ? {
            from,
            router: `(state) => ${quote(DEFAULT_BRANCH_KEY)}`,
            paths: { [DEFAULT_BRANCH_KEY]: END },
          }
        : { from, router }
  } else {
    const [first] = Object.keys(paths)
    const fallback = first === undefined ? '(state) => []' : `(state) => ${quote(first)}`
    branch = { from, router: router ?? fallback, paths: { ...paths } }
  }
  return ok({ ...doc, branches: [...(doc.branches ?? []), branch] })
}

/** Applies `f` to the branch at `index`, or refuses when there is none. */
function withBranch(
  doc: GraphSpec,
  index: number,
  f: (b: BranchSpec) => BranchSpec | string,
): EditResult {
  const branches = doc.branches ?? []
  const b = branches[index]
  if (!b) return fail(doc, `There is no conditional edge at index ${index}.`)
  const next = f(b)
  if (typeof next === 'string') return fail(doc, next)
  if (next === b) return ok(doc)
  return ok({ ...doc, branches: branches.map((x, i) => (i === index ? next : x)) })
}

/** Replaces a branch's router (code that does not parse is allowed: validation reports it). */
export function setBranchRouter(doc: GraphSpec, index: number, router: string): EditResult {
  return withBranch(doc, index, (b) => patch(b, { router }))
}

/**
 * Points route `key` at `to`. A list-form path map becomes an object map (`{ name: name }`
 * for each listed node) first; a branch without a path map gets one with just this key.
 */
export function setBranchPath(doc: GraphSpec, index: number, key: string, to: string): EditResult {
  const problem = key === '' ? 'A path needs a name.' : targetProblem(doc, to)
  return withBranch(doc, index, (b) => {
    if (problem) return `Conditional edge from ${label(b.from)}: ${problem}`
    if (Array.isArray(b.paths)) {
      if (key === to && b.paths.includes(key)) return b
      const map = Object.fromEntries(b.paths.map((p) => [p, p]))
      return { ...b, paths: { ...map, [key]: to } }
    }
    if (b.paths?.[key] === to) return b
    return { ...b, paths: { ...b.paths, [key]: to } }
  })
}

/**
 * Removes route `key` (a listed node, for a list-form map). Removing the last one leaves an
 * empty map, which `checkDesign` reports as EMPTY_PATH_MAP; removing `paths` instead would
 * silently mean "the router may name any node".
 */
export function deleteBranchPath(doc: GraphSpec, index: number, key: string): EditResult {
  return withBranch(doc, index, (b) => {
    const where = `Conditional edge from ${label(b.from)}`
    if (b.paths === undefined) return `${where} has no path map.`
    if (Array.isArray(b.paths)) {
      if (!b.paths.includes(key)) return `${where} has no path \`${key}\`.`
      return { ...b, paths: b.paths.filter((p) => p !== key) }
    }
    if (!Object.hasOwn(b.paths, key)) return `${where} has no path \`${key}\`.`
    const { [key]: _gone, ...rest } = b.paths
    return { ...b, paths: rest }
  })
}

/** Removes the branch at `index`; removing the last one removes `branches`. */
export function deleteBranch(doc: GraphSpec, index: number): EditResult {
  const branches = doc.branches ?? []
  if (!branches[index]) return fail(doc, `There is no conditional edge at index ${index}.`)
  const rest = branches.filter((_, i) => i !== index)
  return ok(patch(doc, { branches: tidy(doc.branches, rest) }))
}
