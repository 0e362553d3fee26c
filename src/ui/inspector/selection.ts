import type { GraphIssue } from '../../core/graph/issues'
import type { GraphSpec, NodeSpec } from '../../core/graph/schema'

/** What the canvas has selected: node ids, and edge ids `e:<edgeIndex>` / `b:<branch>:<key>`. */
export interface Selection {
  nodes: string[]
  edges: string[]
}

/** A parsed edge id: a plain edge (or join) by index, or a branch, possibly one path of it. */
export type EdgeRef =
  { kind: 'edge'; index: number } | { kind: 'branch'; index: number; key?: string }

/** Parses `e:3`, `b:0` and `b:0:again` (the key may itself contain `:`); null otherwise. */
export function parseEdgeId(id: string): EdgeRef | null {
  const m = /^([eb]):(\d+)(?::([\s\S]*))?$/.exec(id)
  if (!m) return null
  const index = Number(m[2])
  if (m[1] === 'e') return m[3] === undefined ? { kind: 'edge', index } : null
  return m[3] === undefined ? { kind: 'branch', index } : { kind: 'branch', index, key: m[3] }
}

/** What the inspector shows for a selection. */
export type InspectorTarget =
  | { kind: 'node'; node: NodeSpec; index: number }
  | { kind: 'branch'; index: number; key?: string }
  | { kind: 'schema'; note?: string }

/**
 * One selected node: that node. Otherwise a selected branch or branch path: that branch.
 * Anything else (nothing, several nodes, a plain edge): the state schema, with a note.
 */
export function inspectorTarget(doc: GraphSpec, selection: Selection): InspectorTarget {
  if (selection.nodes.length === 1) {
    const index = doc.nodes.findIndex((n) => n.id === selection.nodes[0])
    const node = doc.nodes[index]
    if (node) return { kind: 'node', node, index }
  }
  if (selection.nodes.length > 1) {
    return { kind: 'schema', note: `${selection.nodes.length} nodes selected.` }
  }
  const refs = selection.edges.map(parseEdgeId)
  const branch = refs.find((r) => r?.kind === 'branch')
  if (branch && doc.branches?.[branch.index]) return branch
  const edge = refs.find((r) => r?.kind === 'edge')
  if (edge) {
    const e = doc.edges[edge.index]
    if (e) {
      const from = Array.isArray(e.from) ? e.from.join(' + ') : e.from
      return { kind: 'schema', note: `Edge ${from} → ${e.to}: a fixed edge has nothing to edit.` }
    }
  }
  return { kind: 'schema' }
}

/** The issues at `path` or below it (e.g. `['nodes', 2]`), plus those naming `nodeId`. */
export function issuesAt(
  issues: readonly GraphIssue[],
  path: readonly (string | number)[],
  nodeId?: string,
): GraphIssue[] {
  return issues.filter(
    (i) => (nodeId !== undefined && i.nodeId === nodeId) || path.every((p, k) => i.path[k] === p),
  )
}

/** Code problems of `issues` that carry a position, as editor markers. */
export function codeMarkers(issues: readonly GraphIssue[], key: string) {
  return issues
    .filter((i) => i.line !== undefined && i.path.at(-1) === key)
    .map((i) => ({
      message: i.message,
      line: i.line ?? 1,
      column: i.column ?? 1,
      severity: i.severity,
    }))
}
