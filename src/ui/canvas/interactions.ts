import type { GraphEdit, XY } from '../../core/graph/edits'
import type { BranchSpec, EdgeSpec, GraphSpec, NodeSpec } from '../../core/graph/schema'
import {
  END_ID,
  START_ID,
  parseEdgeId,
  parseJoinNodeId,
  snap,
  type CanvasSelection,
} from './flowTypes'

/** The document node id a flow node id stands for (`dup:<i>` included); else `null`. */
export function docNodeId(doc: GraphSpec, flowId: string): string | null {
  const dup = /^dup:(\d+)$/.exec(flowId)
  if (dup) return doc.nodes[Number(dup[1])]?.id ?? null
  return doc.nodes.some((n) => n.id === flowId) ? flowId : null
}

/** Applies React Flow's `select` changes to a list of ids, keeping the order of the rest. */
export function applySelectChanges(
  ids: readonly string[],
  changes: readonly { type: string; id?: string; selected?: boolean }[],
): string[] {
  const out = [...ids]
  for (const c of changes) {
    if (c.type !== 'select' || c.id === undefined) continue
    const at = out.indexOf(c.id)
    if (c.selected && at < 0) out.push(c.id)
    if (!c.selected && at >= 0) out.splice(at, 1)
  }
  return out
}

/** A drag's end as one `moveNodes` edit (document nodes only, moved ones only), or `null`. */
export function moveEdit(
  doc: GraphSpec,
  dragged: readonly { id: string; position: XY }[],
): GraphEdit | null {
  const moves: { id: string; position: XY }[] = []
  for (const d of dragged) {
    const id = docNodeId(doc, d.id)
    const node = doc.nodes.find((n) => n.id === id)
    if (id === null || !node) continue
    const position = { x: d.position.x, y: d.position.y }
    if (node.position?.x === position.x && node.position.y === position.y) continue
    moves.push({ id, position })
  }
  return moves.length ? { type: 'moveNodes', moves } : null
}

/** A drawn connection as `addEdge` (from a node with a branch too: a plain edge), or `null`. */
export function connectEdit(doc: GraphSpec, source: string, target: string): GraphEdit | null {
  const from = source === START_ID ? START_ID : docNodeId(doc, source)
  const to = target === END_ID ? END_ID : docNodeId(doc, target)
  if (from === null || to === null) return null
  return { type: 'addEdge', from, to }
}

/** Whether a connection may be drawn: out of START or a node, into END or a node. */
export function canConnect(doc: GraphSpec, source: string, target: string): boolean {
  return connectEdit(doc, source, target) !== null
}

/** The selected nodes that can be sources of a join (document nodes, in selection order). */
export function joinSources(doc: GraphSpec, selection: CanvasSelection): string[] {
  const ids = selection.nodes.flatMap((id) => docNodeId(doc, id) ?? [])
  return [...new Set(ids)]
}

/** Where a join of `sources` may go: the other nodes, then END. */
export function joinTargets(doc: GraphSpec, sources: readonly string[]): string[] {
  const ids = [...new Set(doc.nodes.map((n) => n.id))].filter((id) => !sources.includes(id))
  return [...ids, END_ID]
}

/**
 * Delete/Backspace: the edits that remove the selection. Edge and branch edits come first
 * (their indexes refer to the current document) in descending index order, so an edit never
 * shifts the index of one still to come; `deleteNodes` comes last. A join goes as a whole
 * (its marker or any of its edges); a branch without `paths` goes as `deleteBranch`; an
 * `ends` edge becomes `setNodeEnds` without that target.
 */
export function deletionEdits(doc: GraphSpec, selection: CanvasSelection): GraphEdit[] {
  const edgeIndexes = new Set<number>()
  const branchPaths = new Map<number, Set<string>>()
  const wholeBranches = new Set<number>()
  const endsRemoved = new Map<string, Set<string>>()
  for (const id of selection.nodes) {
    const join = parseJoinNodeId(id)
    if (join !== null && doc.edges[join]) edgeIndexes.add(join)
  }
  for (const id of selection.edges) {
    const e = parseEdgeId(id)
    if (!e) continue
    if (e.kind === 'fixed' || e.kind === 'join') {
      if (doc.edges[e.index]) edgeIndexes.add(e.index)
    } else if (e.kind === 'path') {
      if (doc.branches?.[e.index])
        branchPaths.set(e.index, (branchPaths.get(e.index) ?? new Set()).add(e.key))
    } else if (e.kind === 'any') {
      if (doc.branches?.[e.index]) wholeBranches.add(e.index)
    } else {
      const node = docNodeId(doc, e.node)
      if (node !== null) endsRemoved.set(node, (endsRemoved.get(node) ?? new Set()).add(e.target))
    }
  }
  const edits: GraphEdit[] = []
  const branchIndexes = [...new Set([...branchPaths.keys(), ...wholeBranches])].sort(
    (a, b) => b - a,
  )
  for (const index of branchIndexes) {
    if (wholeBranches.has(index)) edits.push({ type: 'deleteBranch', index })
    else
      for (const key of branchPaths.get(index) ?? [])
        edits.push({ type: 'deleteBranchPath', index, key })
  }
  for (const [id, targets] of endsRemoved) {
    const ends = doc.nodes.find((n) => n.id === id)?.ends ?? []
    edits.push({ type: 'setNodeEnds', id, ends: ends.filter((t) => !targets.has(t)) })
  }
  if (edgeIndexes.size)
    edits.push({ type: 'deleteEdges', indexes: [...edgeIndexes].sort((a, b) => b - a) })
  const ids = [...new Set(selection.nodes.flatMap((id) => docNodeId(doc, id) ?? []))]
  if (ids.length) edits.push({ type: 'deleteNodes', ids })
  return edits
}

/** What Ctrl/Cmd+C keeps: the selected nodes and the edges and branches among them. */
export interface CanvasClipboard {
  nodes: NodeSpec[]
  edges: EdgeSpec[]
  branches: BranchSpec[]
}

/**
 * Copies the selected document nodes, the edges whose ends are all selected (joins
 * included) and the branches leaving a selected node (with all their paths); `null` when
 * no document node is selected.
 */
export function copySelection(doc: GraphSpec, selection: CanvasSelection): CanvasClipboard | null {
  const ids = new Set(selection.nodes.flatMap((id) => docNodeId(doc, id) ?? []))
  if (ids.size === 0) return null
  const inside = (id: string) => ids.has(id)
  return structuredClone({
    nodes: doc.nodes.filter((n) => ids.has(n.id)),
    edges: doc.edges.filter((e) => [e.from].flat().every(inside) && inside(e.to)),
    branches: (doc.branches ?? []).filter((b) => ids.has(b.from)),
  })
}

/** Ctrl/Cmd+V: the clipboard as one `paste` edit, 40 px right and down. */
export function pasteEdit(clip: CanvasClipboard): GraphEdit {
  return { type: 'paste', ...structuredClone(clip), offset: { x: 40, y: 40 } }
}

/** A node id not yet used by a node or a field: `node_1`, `node_2`, ... */
export function freshNodeId(doc: GraphSpec, base = 'node'): string {
  const used = new Set([...doc.nodes.map((n) => n.id), ...doc.state.map((f) => f.name)])
  let i = 1
  while (used.has(`${base}_${i}`)) i++
  return `${base}_${i}`
}

/** `addNode` at a flow position (snapped to the grid) with a fresh id. */
export function addNodeEdit(
  doc: GraphSpec,
  at: XY,
): Extract<GraphEdit, { type: 'addNode' }> & { id: string } {
  return { type: 'addNode', id: freshNodeId(doc), position: { x: snap(at.x), y: snap(at.y) } }
}

/**
 * Why `to` cannot be the new name of node `from`, in the validator's words, or `null`. The
 * parent validates the edit again; this only stops obvious mistakes at the input.
 */
export function nodeNameError(doc: GraphSpec, from: string, to: string): string | null {
  if (to === from) return null
  if (to === '') return 'A node id cannot be empty.'
  if (to === START_ID || to === END_ID) return `Node \`${to}\` is reserved.`
  for (const ch of ['|', ':']) {
    if (to.includes(ch)) return `"${ch}" is a reserved character and is not allowed in node names.`
  }
  if (doc.nodes.some((n) => n.id === to)) return `Node \`${to}\` already present.`
  if (doc.state.some((f) => f.name === to)) return `\`${to}\` is a state field (a channel).`
  return null
}

/** Deleting the selection as ONE edit (a batch when it takes several), so one undo restores it; null when nothing deletable is selected. */
export function deletionEdit(doc: GraphSpec, selection: CanvasSelection): GraphEdit | null {
  const edits = deletionEdits(doc, selection)
  if (edits.length === 0) return null
  return edits.length === 1 ? (edits[0] as GraphEdit) : { type: 'batch', edits }
}
