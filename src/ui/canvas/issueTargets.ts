import type { GraphIssue } from '../../core/graph/issues'
import type { GraphSpec } from '../../core/graph/schema'
import {
  anyEdgeId,
  endsEdgeId,
  fixedEdgeId,
  joinInEdgeId,
  joinOutEdgeId,
  pathEdgeId,
  type IssueBadge,
} from './flowTypes'

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
  const [p0, p1, p2, p3] = issue.path
  if (p0 === 'nodes' && typeof p1 === 'number') {
    const node = doc.nodes[p1]
    const flowId = nodeFlowIds[p1]
    if (!node || flowId === undefined) return undefined
    const target = p2 === 'ends' && typeof p3 === 'number' ? node.ends?.[p3] : undefined
    return target !== undefined ? endsEdgeId(flowId, target) : flowId
  }
  if (p0 === 'edges' && typeof p1 === 'number') {
    const edge = doc.edges[p1]
    if (!edge) return undefined
    if (!Array.isArray(edge.from)) return fixedEdgeId(p1)
    const source = p2 === 'from' && typeof p3 === 'number' ? edge.from[p3] : undefined
    return source !== undefined ? joinInEdgeId(p1, source) : joinOutEdgeId(p1)
  }
  if (p0 === 'branches' && typeof p1 === 'number') {
    const branch = doc.branches?.[p1]
    if (branch && p2 === 'paths' && p3 !== undefined) {
      const key = Array.isArray(branch.paths) ? branch.paths[Number(p3)] : String(p3)
      if (key !== undefined) return pathEdgeId(p1, key)
    }
    if (branch && !branch.paths && p2 !== 'router' && p2 !== 'from') return anyEdgeId(p1)
  }
  if (issue.nodeId === undefined) return undefined
  const i = doc.nodes.findIndex((n) => n.id === issue.nodeId)
  return i >= 0 ? nodeFlowIds[i] : undefined
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
