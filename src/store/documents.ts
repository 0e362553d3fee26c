import type { GraphEdit } from '../core/graph/edits'
import { applyEdit } from '../core/graph/edits'
import type { GraphIssue } from '../core/graph/issues'
import { parseGraph } from '../core/graph/validate'

/** What the canvas has selected: node ids and edge ids (`e:3`, `b:1:again`, …). */
export interface Selection {
  nodes: string[]
  edges: string[]
}

export const EMPTY_SELECTION: Selection = { nodes: [], edges: [] }

/** The editing state of the open document. */
export interface DocumentState {
  /** The open graph document, the one truth every panel edits (undo tracks it). */
  doc: unknown
  selection: Selection
  /** Why the last edit was refused, if it was. */
  editError: string | null
  /** Where autosave stands. */
  saveState: 'saved' | 'saving' | 'failed'
}

/**
 * Applies an edit to a document. Documents that do not parse (an import with problems)
 * cannot be edited: the caller shows their problems instead.
 */
export function editDocument(
  doc: unknown,
  edit: GraphEdit,
): { doc: unknown; error: string | null } {
  const parsed = parseGraph(doc)
  if (
    !parsed.ok &&
    parsed.issues.some((i) => i.code === 'SCHEMA' || i.code === 'UNKNOWN_REDUCER')
  ) {
    return { doc, error: 'The document does not match the graph format; fix its problems first.' }
  }
  const spec = parsed.ok ? parsed.spec : (doc as Parameters<typeof applyEdit>[0])
  const r = applyEdit(spec, edit)
  return r.ok ? { doc: r.doc === spec ? doc : r.doc, error: null } : { doc, error: r.error }
}

/** The problems of a document, as the problems list and the canvas badges show them. */
export function issuesOf(doc: unknown): GraphIssue[] {
  return parseGraph(doc).issues
}

/** A file name for exporting a graph: its name, made safe. */
export function exportFileName(name: string): string {
  const base = name
    .trim()
    .replace(/[^\w.-]+/g, '-')
    .replace(/^-+|-+$/g, '')
  return `${base || 'graph'}.superstep.json`
}

/** The exported text of a document: stable, pretty JSON with a trailing newline. */
export function exportText(doc: unknown): string {
  return `${JSON.stringify(doc, null, 2)}\n`
}
