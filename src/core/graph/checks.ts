import { readCode, type CodeFacts } from './codeFacts'
import { checkConcurrentWrites, type DocFacts } from './concurrentWrites'
import { END, START } from './constants'
import type { GraphIssue } from './issues'
import type { GraphSpec } from './schema'
import { branchTargets } from './wiring'
import { routerCode, standInCode } from './nodeKinds'

export { usesInterrupt } from './codeFacts'

/**
 * Design checks for the editor, all warnings: what LangGraph.js accepts but that will
 * probably not do what was meant. NO_WAY_OUT and NO_PATH_TO_END (runs that can only loop,
 * nodes that look forgotten), EMPTY_PATH_MAP, CONCURRENT_WRITE_RISK. Code is parsed, never
 * run; code that does not parse contributes nothing. Never throws on a valid-schema document
 * whatever its other errors.
 */
export function checkDesign(spec: GraphSpec): GraphIssue[] {
  const nodes = new Map<string, CodeFacts>()
  for (const n of spec.nodes) if (!nodes.has(n.id)) nodes.set(n.id, readCode(standInCode(n, spec)))
  const routers = (spec.branches ?? []).map((b) => readCode(routerCode(b)))
  const facts: DocFacts = { nodes, routers }
  return [
    ...checkWaysOut(spec, facts),
    ...checkEmptyPaths(spec),
    ...checkConcurrentWrites(spec, facts),
  ]
}

/** Where a run may go after a node, and whether it must go somewhere. */
interface Step {
  next: Set<string>
  /** Some edge or route always starts another node: the run cannot end right after it. */
  forced: boolean
}

/**
 * The flow of a document, as far as its wiring and code tell. A plain edge to a node always
 * fires; a conditional edge always starts a node unless it may go to END, has no path map
 * (unknown names are ignored) or may return a list (which may be empty); joins and `ends`
 * never force anything.
 */
function flowOf(spec: GraphSpec, facts: DocFacts): Map<string, Step> {
  const flow = new Map<string, Step>()
  const at = (id: string) => {
    let s = flow.get(id)
    if (!s) flow.set(id, (s = { next: new Set(), forced: false }))
    return s
  }
  at(START)
  for (const n of spec.nodes) at(n.id)
  for (const e of spec.edges) {
    if (Array.isArray(e.from)) for (const s of e.from) at(s).next.add(e.to)
    else {
      at(e.from).next.add(e.to)
      if (e.to !== END) at(e.from).forced = true
    }
  }
  spec.branches?.forEach((b, i) => {
    const router = facts.routers[i]
    const named = b.paths ? branchTargets(b.paths).map(([, t]) => t) : [...(router?.strings ?? [])]
    const step = at(b.from)
    for (const t of [...named, ...(router?.sends.keys() ?? [])]) step.next.add(t)
    const mayStop = !b.paths || named.length === 0 || named.includes(END) || router?.mayReturnList
    if (!mayStop) step.forced = true
  })
  for (const n of spec.nodes) for (const t of n.ends ?? []) at(n.id).next.add(t)
  return flow
}

/** The ids from which some path leads to a place where the run may end. */
function canFinish(flow: Map<string, Step>): Set<string> {
  const preds = new Map<string, string[]>()
  for (const [id, s] of flow) for (const t of s.next) preds.set(t, [...(preds.get(t) ?? []), id])
  const done = new Set([...flow].filter(([, s]) => !s.forced).map(([id]) => id))
  const queue = [...done]
  for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
    for (const p of preds.get(id) ?? []) {
      if (!done.has(p)) {
        done.add(p)
        queue.push(p)
      }
    }
  }
  return done
}

/** The ids reachable from `from` (itself included) that are in `among`. */
function reachable(flow: Map<string, Step>, from: string, among: (id: string) => boolean) {
  const seen = new Set([from])
  const queue = [from]
  for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
    for (const t of flow.get(id)?.next ?? []) {
      if (!seen.has(t) && among(t)) {
        seen.add(t)
        queue.push(t)
      }
    }
  }
  return [...seen]
}

const names = (ids: string[]) => {
  const shown = ids.slice(0, 4).map((id) => `\`${id}\``)
  return ids.length > 4 ? `${shown.join(', ')}…` : shown.join(', ')
}

function checkWaysOut(spec: GraphSpec, facts: DocFacts): GraphIssue[] {
  const flow = flowOf(spec, facts)
  const finishing = canFinish(flow)
  const issues: GraphIssue[] = []
  const warn = (i: Omit<GraphIssue, 'severity'>) => issues.push({ ...i, severity: 'warning' })
  const start = flow.get(START)
  if (!start || start.next.size === 0) {
    warn({
      code: 'NO_PATH_TO_END',
      path: [],
      message: 'Nothing leaves START: add an edge from START to the node that runs first.',
    })
  } else if (!finishing.has(START)) {
    warn({
      code: 'NO_PATH_TO_END',
      path: [],
      message:
        'No path leads from START to END: every run loops until LangGraph stops it at the recursion limit (GRAPH_RECURSION_LIMIT).',
    })
  }
  // Only ends the canvas draws: edges, path maps and `ends` (not a router's own END).
  const endsExplicitly =
    spec.edges.some((e) => e.to === END) ||
    (spec.branches ?? []).some((b) => branchTargets(b.paths).some(([, t]) => t === END)) ||
    spec.nodes.some((n) => n.ends?.includes(END))
  spec.nodes.forEach((n, i) => {
    const step = flow.get(n.id)
    if (!step) return
    const leaves = step.next.size > 0 || spec.branches?.some((b) => b.from === n.id)
    const base = { code: 'NO_WAY_OUT' as const, path: ['nodes', i], nodeId: n.id }
    if (!leaves && endsExplicitly) {
      warn({
        ...base,
        message: `Node \`${n.id}\` has no way out: no edge, conditional edge or \`ends\` leaves it. LangGraph ends the run after it as if it went to END, but the other ends of this graph are drawn; connect \`${n.id}\` to END if that is what you mean.`,
      })
    } else if (!finishing.has(n.id)) {
      const loop = reachable(flow, n.id, (id) => flow.has(id) && !finishing.has(id))
      warn({
        ...base,
        message: `Once \`${n.id}\` runs, the run can never finish: every way on leads around ${names(loop)} with no way to END, so LangGraph stops it at the recursion limit (GRAPH_RECURSION_LIMIT).`,
      })
    }
  })
  return issues
}

/** EMPTY_PATH_MAP: a conditional edge whose path map names no node at all. */
function checkEmptyPaths(spec: GraphSpec): GraphIssue[] {
  const issues: GraphIssue[] = []
  spec.branches?.forEach((b, i) => {
    if (!b.paths || branchTargets(b.paths).length > 0) return
    issues.push({
      code: 'EMPTY_PATH_MAP',
      severity: 'warning',
      path: ['branches', i, 'paths'],
      nodeId: b.from,
      message: `The conditional edge from ${b.from === START ? 'START' : `\`${b.from}\``} has an empty path map: any route its router returns fails the run. Add a path, or delete the conditional edge.`,
    })
  })
  return issues
}
