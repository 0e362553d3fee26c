import type { BranchSpec, GraphSpec } from './schema'
import type { GraphIssue } from './issues'
import { END, START } from './constants'

/** Checks edges, branches, `ends`, interrupts and reachability against the node list. */
export function checkWiring(spec: GraphSpec): GraphIssue[] {
  const nodes = new Set(spec.nodes.map((n) => n.id))
  const issues: GraphIssue[] = []
  const err = (i: Omit<GraphIssue, 'severity'>) => issues.push({ ...i, severity: 'error' })
  const isSource = (id: string) => id === START || nodes.has(id)
  const isTarget = (id: string) => id === END || nodes.has(id)

  const seenEdges = new Set<string>()
  spec.edges.forEach((e, i) => {
    const sources = Array.isArray(e.from) ? e.from : [e.from]
    const label = `${Array.isArray(e.from) ? `[${e.from.join(', ')}]` : e.from} → ${e.to}`
    sources.forEach((s, j) => {
      if (!isSource(s) || (Array.isArray(e.from) && s === START)) {
        err({
          code: 'UNKNOWN_EDGE_SOURCE',
          path: Array.isArray(e.from) ? ['edges', i, 'from', j] : ['edges', i, 'from'],
          message:
            s === END
              ? `Edge ${label}: END cannot be the start of an edge.`
              : `Edge ${label} starts at unknown node \`${s}\`.`,
        })
      }
    })
    if (!isTarget(e.to)) {
      err({
        code: 'UNKNOWN_EDGE_TARGET',
        path: ['edges', i, 'to'],
        message:
          e.to === START
            ? `Edge ${label}: START cannot be the end of an edge.`
            : `Found edge ending at unknown node \`${e.to}\`.`,
      })
    }
    const key = JSON.stringify([e.from, e.to])
    if (seenEdges.has(key)) {
      issues.push({
        code: 'DUPLICATE_EDGE',
        severity: 'warning',
        path: ['edges', i],
        message: `Edge ${label} is drawn twice.`,
      })
    }
    seenEdges.add(key)
  })

  spec.branches?.forEach((b, i) => {
    if (!isSource(b.from)) {
      err({
        code: 'UNKNOWN_BRANCH_SOURCE',
        path: ['branches', i, 'from'],
        message: `Conditional edge starts at unknown node \`${b.from}\`.`,
        nodeId: b.from,
      })
    }
    branchTargets(b.paths).forEach(([key, target], j) => {
      if (!isTarget(target)) {
        err({
          code: 'UNKNOWN_BRANCH_TARGET',
          path: ['branches', i, 'paths', Array.isArray(b.paths) ? j : key],
          message: `Conditional edge from \`${b.from}\`: path \`${key}\` goes to unknown node \`${target}\`.`,
          nodeId: b.from,
        })
      }
    })
  })

  spec.nodes.forEach((n, i) => {
    n.ends?.forEach((t, j) => {
      if (!isTarget(t)) {
        err({
          code: 'UNKNOWN_ENDS_TARGET',
          path: ['nodes', i, 'ends', j],
          nodeId: n.id,
          message: `Node \`${n.id}\` lists unknown node \`${t}\` in \`ends\`.`,
        })
      }
    })
  })

  for (const key of ['interruptBefore', 'interruptAfter'] as const) {
    spec[key]?.forEach((id, j) => {
      if (id !== '*' && !nodes.has(id)) {
        err({
          code: 'UNKNOWN_INTERRUPT_NODE',
          path: [key, j],
          message: `Interrupt node \`${id}\` is not present.`,
        })
      }
    })
  }

  issues.push(...checkReachability(spec))
  return issues
}

/** `[key, target]` pairs of a path map (a list maps each name to itself). */
export function branchTargets(paths: BranchSpec['paths']): [string, string][] {
  if (!paths) return []
  if (Array.isArray(paths)) return paths.map((p) => [p, p])
  return Object.entries(paths)
}

/**
 * LangGraph.js refuses a node that no edge, branch or `ends` targets (UnreachableNodeError;
 * a branch without a path map targets every node). A node that is targeted but cannot be
 * reached from START compiles there, so it is only a warning here.
 */
function checkReachability(spec: GraphSpec): GraphIssue[] {
  const targeted = new Set<string>()
  const next = new Map<string, Set<string>>()
  const link = (from: string, to: string) => {
    targeted.add(to)
    let s = next.get(from)
    if (!s) next.set(from, (s = new Set()))
    s.add(to)
  }
  const allNodes = spec.nodes.map((n) => n.id)
  for (const e of spec.edges) for (const s of [e.from].flat()) link(s, e.to)
  for (const b of spec.branches ?? []) {
    const targets = b.paths ? branchTargets(b.paths).map(([, t]) => t) : allNodes
    for (const t of targets) link(b.from, t)
  }
  for (const n of spec.nodes) for (const t of n.ends ?? []) link(n.id, t)

  const issues: GraphIssue[] = []
  const reached = new Set<string>([START])
  const queue = [START]
  for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
    for (const t of next.get(id) ?? []) {
      if (!reached.has(t)) {
        reached.add(t)
        queue.push(t)
      }
    }
  }
  spec.nodes.forEach((n, i) => {
    if (!targeted.has(n.id)) {
      issues.push({
        code: 'UNREACHABLE_NODE',
        severity: 'error',
        path: ['nodes', i],
        nodeId: n.id,
        message: `Node \`${n.id}\` is not reachable.`,
      })
    } else if (!reached.has(n.id)) {
      issues.push({
        code: 'NOT_REACHABLE_FROM_START',
        severity: 'warning',
        path: ['nodes', i],
        nodeId: n.id,
        message: `Node \`${n.id}\` can never run: no path leads to it from START.`,
      })
    }
  })
  return issues
}
