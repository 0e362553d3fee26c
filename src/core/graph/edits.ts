import { assertNever } from '../../lib/assertNever'
import { fail, ok, patch } from './editCommon'
import { addField, deleteField, updateField } from './editFields'
import { addSubgraph, groupIntoSubgraph } from './editSubgraphs'
import {
  addNode,
  deleteNodes,
  moveNodes,
  paste,
  renameNode,
  setBreakpoint,
  setNodeCode,
  setNodeEnds,
  setNodeKind,
} from './editNodes'
import {
  addBranch,
  addEdge,
  addJoin,
  deleteBranch,
  deleteBranchPath,
  deleteEdges,
  setBranchPath,
  setBranchRouter,
} from './editWiring'
import type { EditResult, GraphEdit } from './editTypes'
import type { GraphSpec } from './schema'

export type { EditResult, GraphEdit, XY } from './editTypes'

/**
 * Applies one edit. Pure: `doc` is never mutated, and when the edit changes nothing the
 * result holds `doc` itself, so React and the undo history see no change. An edit that
 * would make the document inconsistent or names something that is not there is refused
 * with `ok: false`, the unchanged `doc` and a message for the user. Edits that only make
 * the document incomplete (a new node nothing leads to yet, code that does not parse, an
 * emptied path map) are applied; validation reports what is left to do.
 *
 * References are kept in step (renaming or deleting a node updates edges, branches, `ends`
 * and breakpoints), but code strings are never rewritten: see `renameNode`.
 */
export function applyEdit(doc: GraphSpec, edit: GraphEdit): EditResult {
  switch (edit.type) {
    case 'batch':
      return applyEdits(doc, edit.edits)
    case 'setName':
      return ok(patch(doc, { name: edit.name }))
    case 'addNode':
      return addNode(doc, edit.id, edit.code, edit.position)
    case 'renameNode':
      return renameNode(doc, edit.from, edit.to)
    case 'deleteNodes':
      return deleteNodes(doc, edit.ids)
    case 'moveNodes':
      return moveNodes(doc, edit.moves)
    case 'setNodeCode':
      return setNodeCode(doc, edit.id, edit.code)
    case 'setNodeEnds':
      return setNodeEnds(doc, edit.id, edit.ends)
    case 'setNodeKind':
      return setNodeKind(doc, edit.id, edit.kind, edit.settings)
    case 'addEdge':
      return addEdge(doc, edit.from, edit.to)
    case 'addJoin':
      return addJoin(doc, edit.from, edit.to)
    case 'deleteEdges':
      return deleteEdges(doc, edit.indexes)
    case 'addBranch':
      return addBranch(doc, edit.from, edit.router, edit.paths)
    case 'setBranchRouter':
      return setBranchRouter(doc, edit.index, edit.router)
    case 'setBranchPath':
      return setBranchPath(doc, edit.index, edit.key, edit.to)
    case 'deleteBranchPath':
      return deleteBranchPath(doc, edit.index, edit.key)
    case 'deleteBranch':
      return deleteBranch(doc, edit.index)
    case 'addField':
      return addField(doc, edit.field)
    case 'updateField':
      return updateField(doc, edit.name, edit.patch)
    case 'deleteField':
      return deleteField(doc, edit.name)
    case 'setBreakpoint':
      return setBreakpoint(doc, edit.node, edit.when, edit.on)
    case 'paste':
      return paste(doc, edit.nodes, edit.edges, edit.branches, edit.offset)
    case 'addSubgraph':
      return addSubgraph(doc, edit.name, edit.graph, edit.position)
    case 'groupIntoSubgraph':
      return groupIntoSubgraph(doc, edit.ids, edit.name)
    default:
      return assertNever(edit, 'graph edit')
  }
}

/**
 * Applies edits in order, all or nothing: the first refused edit refuses the whole batch
 * (the message says which one) and the original `doc` comes back. A batch that changes
 * nothing returns `doc` itself.
 */
export function applyEdits(doc: GraphSpec, edits: readonly GraphEdit[]): EditResult {
  let current = doc
  for (const [i, edit] of edits.entries()) {
    const result = applyEdit(current, edit)
    if (!result.ok) {
      const which = edits.length > 1 ? `Edit ${i + 1} of ${edits.length} (${edit.type}): ` : ''
      return fail(doc, `${which}${result.error}`)
    }
    current = result.doc
  }
  return ok(current)
}
