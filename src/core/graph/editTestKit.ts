/** Tests only: applying edits that must succeed, or must be refused. */
import { applyEdit, type GraphEdit } from './edits'
import type { GraphSpec } from './schema'

/** Applies an edit that must succeed and returns the new document. */
export function edit(d: GraphSpec, e: GraphEdit): GraphSpec {
  const r = applyEdit(d, e)
  if (!r.ok) throw new Error(`refused: ${r.error}`)
  return r.doc
}

/** Applies an edit that must be refused, with the same document back; returns the message. */
export function refused(d: GraphSpec, e: GraphEdit): string {
  const r = applyEdit(d, e)
  if (r.ok) throw new Error(`expected ${e.type} to be refused`)
  if (r.doc !== d) throw new Error(`a refused ${e.type} changed the document`)
  return r.error
}
