import type { GraphSpec } from '../core/graph/schema'
import type { DocumentActions, DocumentSliceState, SliceContext } from './appTypes'
import { EMPTY_SELECTION, editDocument, parseDocument } from './documents'

/** The document part of a graph just opened (before its entry is known): nothing. */
export const INITIAL_DOCUMENT: DocumentSliceState = {
  doc: null,
  spec: null,
  issues: [],
  selection: EMPTY_SELECTION,
  editError: null,
  saveState: 'saved',
  fieldFocus: null,
  input: '{}',
  level: [],
}

/**
 * What every view reads of a document, worked out once per change of it: the spec as the
 * format reads it (null when it does not match) and the validator's problems.
 */
export function deriveDocument(doc: unknown): Pick<DocumentSliceState, 'spec' | 'issues'> {
  const parsed = parseDocument(doc)
  const spec: GraphSpec | null = parsed.ok ? parsed.spec : (parsed.wellFormed ?? null)
  return { spec, issues: parsed.issues }
}

/** The undo history of the document (zundo's temporal store). */
export interface DocumentHistory {
  undo(): void
  redo(): void
}

/** Editing the open document: edits (validated, undoable), the selection, the run input. */
export function createDocumentSlice(
  ctx: SliceContext,
  history: () => DocumentHistory,
): DocumentActions {
  const { set, get } = ctx
  return {
    edit(e) {
      const r = editDocument(get().doc, e, get().level)
      if (r.error) return set({ editError: r.error })
      if (r.doc !== get().doc) set({ doc: r.doc, editError: null })
      else if (get().editError) set({ editError: null })
      // A renamed node stays selected under its new name.
      const { selection } = get()
      if (e.type === 'renameNode' && selection.nodes.includes(e.from)) {
        const nodes = selection.nodes.map((n) => (n === e.from ? e.to : n))
        set({ selection: { ...selection, nodes } })
      }
    },

    openLevel(path) {
      const { level } = get()
      if (path.length === level.length && path.every((p, i) => p === level[i])) return
      set({ level: path, selection: EMPTY_SELECTION, fieldFocus: null, editError: null })
    },

    setSelection(selection) {
      set({ selection, fieldFocus: null })
    },

    focusField(index) {
      const seq = (get().fieldFocus?.seq ?? 0) + 1
      set({ selection: EMPTY_SELECTION, fieldFocus: { index, seq } })
    },

    undo() {
      history().undo()
    },

    redo() {
      history().redo()
    },

    setInput(text) {
      const { current } = get()
      if (!current) return set({ input: text })
      const list = get().graphs.map((g) => (g.id === current.id ? { ...g, input: text } : g))
      set({ input: text, current: { ...current, input: text }, graphs: list })
      ctx.deps.graphs
        .saveInput(current.id, text)
        .catch((e: unknown) => set({ message: `Saving the input failed: ${(e as Error).message}` }))
    },
  }
}
