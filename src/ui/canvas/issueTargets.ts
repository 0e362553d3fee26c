import type { GraphIssue } from '../../core/graph/issues'
import type { GraphSpec } from '../../core/graph/schema'
import { branchTargets } from '../../core/graph/wiring'
import {
  END_ID,
  START_ID,
  anyEdgeId,
  endsEdgeId,
  fixedEdgeId,
  joinInEdgeId,
  joinOutEdgeId,
  pathEdgeId,
  type IssueBadge,
} from './flowTypes'

/** A canvas element: a node or an edge, by its flow id (see `flowTypes.ts`). */
export type CanvasElement = { kind: 'node' | 'edge'; id: string }

/** What a click on a problem shows: its canvas element, or the row of a state field. */
export type IssueCulprit = CanvasElement | { kind: 'field'; index: number }

/**
 * The canvas element an issue stands on: the edge its `path` names (`edges[i]`, a branch
 * path, an `ends` entry), else the node its path or `nodeId` names. `nodeFlowIds[i]` is the
 * flow id of `doc.nodes[i]`. `undefined` when nothing on the canvas matches (a breakpoint on a
 * missing node, say): the problems list still shows it.
 */
export function issueTargetId(
  doc: GraphSpec,
  issue: GraphIssue,
  nodeFlowIds: readonly string[],
): string | undefined {
  return issueElement(doc, issue, nodeFlowIds)?.id
}

/** `issueTargetId`, telling a node from an edge. */
export function issueElement(
  doc: GraphSpec,
  issue: GraphIssue,
  nodeFlowIds: readonly string[],
): CanvasElement | undefined {
  const node = (id: string | undefined): CanvasElement | undefined =>
    id === undefined ? undefined : { kind: 'node', id }
  const edge = (id: string): CanvasElement => ({ kind: 'edge', id })
  const [p0, p1, p2, p3] = issue.path
  if (p0 === 'nodes' && typeof p1 === 'number') {
    const spec = doc.nodes[p1]
    const flowId = nodeFlowIds[p1]
    if (!spec || flowId === undefined) return undefined
    const target = p2 === 'ends' && typeof p3 === 'number' ? spec.ends?.[p3] : undefined
    return target !== undefined ? edge(endsEdgeId(flowId, target)) : node(flowId)
  }
  if (p0 === 'edges' && typeof p1 === 'number') {
    const e = doc.edges[p1]
    if (!e) return undefined
    if (!Array.isArray(e.from)) return edge(fixedEdgeId(p1))
    const source = p2 === 'from' && typeof p3 === 'number' ? e.from[p3] : undefined
    return edge(source !== undefined ? joinInEdgeId(p1, source) : joinOutEdgeId(p1))
  }
  if (p0 === 'branches' && typeof p1 === 'number') {
    const branch = doc.branches?.[p1]
    if (branch && p2 === 'paths' && p3 !== undefined) {
      const key = Array.isArray(branch.paths) ? branch.paths[Number(p3)] : String(p3)
      if (key !== undefined) return edge(pathEdgeId(p1, key))
    }
    if (branch && !branch.paths && p2 !== 'router' && p2 !== 'from') return edge(anyEdgeId(p1))
  }
  if (issue.nodeId === undefined) return undefined
  const i = doc.nodes.findIndex((n) => n.id === issue.nodeId)
  return i >= 0 ? node(nodeFlowIds[i]) : undefined
}

/**
 * What a click on `issue` in the problems list shows: a state field's row for a problem at
 * `state[i]` (or naming a field), else its canvas element (`issueElement`), else for a
 * conditional edge whose source is not a node, that branch's first path. `undefined` when
 * there is nothing to show (a document-wide problem, an interrupt on a missing node).
 */
export function issueCulprit(
  doc: GraphSpec,
  issue: GraphIssue,
  nodeFlowIds: readonly string[],
): IssueCulprit | undefined {
  const [p0, p1] = issue.path
  if (p0 === 'state' && typeof p1 === 'number' && doc.state[p1]) return { kind: 'field', index: p1 }
  const element = issueElement(doc, issue, nodeFlowIds)
  if (element) return element
  if (p0 === 'branches' && typeof p1 === 'number') {
    const branch = doc.branches?.[p1]
    const first = branch && branchTargets(branch.paths)[0]
    if (branch && !branch.paths) return { kind: 'edge', id: anyEdgeId(p1) }
    if (first) return { kind: 'edge', id: pathEdgeId(p1, first[0]) }
  }
  const field = issue.field === undefined ? -1 : doc.state.findIndex((f) => f.name === issue.field)
  return field >= 0 ? { kind: 'field', index: field } : undefined
}

/**
 * The flow id of each of `doc.nodes`: its id, or `dup:<i>` for an id seen before (or START
 * or END). The rule `toFlow` draws with; `issueTargets.test.ts` holds the two together.
 */
export function docNodeFlowIds(doc: GraphSpec): string[] {
  const taken = new Set([START_ID, END_ID])
  return doc.nodes.map((n, i) => {
    const id = taken.has(n.id) ? `dup:${i}` : n.id
    taken.add(id)
    return id
  })
}

/** Badges by element id: counts of errors and warnings, and the messages as a tooltip. */
export function issueBadges(
  doc: GraphSpec,
  issues: readonly GraphIssue[],
  nodeFlowIds: readonly string[],
): Map<string, IssueBadge> {
  const byId = new Map<string, IssueBadge>()
  for (const issue of issues) {
    const id = issueTargetId(doc, issue, nodeFlowIds)
    if (id === undefined) continue
    const badge = byId.get(id) ?? { errors: 0, warnings: 0, title: '' }
    const line = `${issue.severity === 'error' ? 'Error' : 'Warning'}: ${issue.message}`
    byId.set(id, {
      errors: badge.errors + (issue.severity === 'error' ? 1 : 0),
      warnings: badge.warnings + (issue.severity === 'warning' ? 1 : 0),
      title: badge.title ? `${badge.title}\n${line}` : line,
    })
  }
  return byId
}

/** "2 errors, 1 warning". */
export function describeBadge(badge: IssueBadge): string {
  const part = (n: number, word: string) => (n ? [`${n} ${word}${n === 1 ? '' : 's'}`] : [])
  return [...part(badge.errors, 'error'), ...part(badge.warnings, 'warning')].join(', ')
}
