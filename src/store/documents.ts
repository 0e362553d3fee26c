import type { GraphEdit } from '../core/graph/edits'
import type { GraphIssue } from '../core/graph/issues'
import { levelOf, setLevel, type Level } from '../core/graph/levels'
import type { GraphSpec } from '../core/graph/schema'
import type { ParseResult } from '../core/graph/validate'
import { graphTools } from './graphTools'

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

/** The last documents parsed, by identity (documents are never mutated: an edit makes a new one). */
const parses = new WeakMap<object, ParseResult>()

/**
 * `parseGraph`, once per document object: the store derives a document's spec and problems
 * when it becomes the document, and the next edit starts from that same parse (on a
 * 2,000-node graph a parse takes tens of milliseconds). Callers treat the result as read-only.
 * The spec keeps the items (nodes, fields, edges, branches) of earlier parses that were
 * parsed from the same objects, so an edit of one node leaves every other node's object as
 * it was, and the views that compare by identity redo only that node.
 */
export function parseDocument(doc: unknown): ParseResult {
  const { parseGraph } = graphTools()
  if (typeof doc !== 'object' || doc === null) return parseGraph(doc)
  let parsed = parses.get(doc)
  if (!parsed) parses.set(doc, (parsed = withSharedItems(doc, parseGraph(doc))))
  return parsed
}

/**
 * Parsed items by the object each was parsed from, and by themselves (an edit builds the next
 * document from the parsed spec, so its unchanged items are earlier outputs). Parsing is
 * deterministic and documents are never mutated, so an item parsed from the same object is
 * equal to the one parsed before: that one is kept.
 */
const parsedItems = {
  state: new WeakMap<object, object>(),
  nodes: new WeakMap<object, object>(),
  edges: new WeakMap<object, object>(),
  branches: new WeakMap<object, object>(),
}

/** Parsed lists likewise (an undo brings back a list that was parsed before). */
const parsedLists = {
  state: new WeakMap<object, object[]>(),
  nodes: new WeakMap<object, object[]>(),
  edges: new WeakMap<object, object[]>(),
  branches: new WeakMap<object, object[]>(),
}

const ITEM_LISTS = ['state', 'nodes', 'edges', 'branches'] as const

function withSharedItems(doc: object, parsed: ParseResult): ParseResult {
  const spec = parsed.ok ? parsed.spec : parsed.wellFormed
  if (!spec) return parsed
  const raw = doc as Record<string, unknown>
  let shared: GraphSpec | null = null
  for (const key of ITEM_LISTS) {
    const items = spec[key] as object[] | undefined
    const from = raw[key]
    if (!items || !Array.isArray(from) || from.length !== items.length) continue
    const knownList = parsedLists[key].get(from)
    if (knownList) {
      if (knownList !== items) shared = { ...(shared ?? spec), [key]: knownList }
      continue
    }
    const cache = parsedItems[key]
    let changed = false
    const out = items.map((item, i) => {
      const input: unknown = from[i]
      if (typeof input !== 'object' || input === null) return item
      const known = cache.get(input)
      if (known) {
        if (known !== item) changed = true
        return known
      }
      cache.set(input, item)
      cache.set(item, item)
      return item
    })
    const list = changed ? out : items
    parsedLists[key].set(from, list)
    parsedLists[key].set(list, list)
    if (changed) shared = { ...(shared ?? spec), [key]: out }
  }
  if (!shared) return parsed
  return parsed.ok ? { ...parsed, spec: shared } : { ...parsed, wellFormed: shared }
}

/**
 * Applies an edit to a document. Documents that do not parse (an import with problems)
 * cannot be edited: the caller shows their problems instead.
 */
export function editDocument(
  doc: unknown,
  edit: GraphEdit,
  level: readonly string[] = [],
): { doc: unknown; error: string | null } {
  const parsed = parseDocument(doc)
  if (
    !parsed.ok &&
    parsed.issues.some((i) => i.code === 'SCHEMA' || i.code === 'UNKNOWN_REDUCER')
  ) {
    return { doc, error: 'The document does not match the graph format; fix its problems first.' }
  }
  const { applyEdit } = graphTools()
  const spec = parsed.ok ? parsed.spec : (doc as Parameters<typeof applyEdit>[0])
  if (level.length === 0) {
    const r = applyEdit(spec, edit)
    return r.ok ? { doc: r.doc === spec ? doc : r.doc, error: null } : { doc, error: r.error }
  }
  // A subgraph is edited as a document of its own, then written back where it is.
  const at = levelOf(spec, level)
  if (!at) return { doc, error: `The subgraph ${level.join(' › ')} is not in the document.` }
  const r = applyEdit(at.spec, edit)
  if (!r.ok) return { doc, error: r.error }
  return { doc: r.doc === at.spec ? doc : setLevel(spec, level, r.doc), error: null }
}

/** The open level of a document's spec (the root when the path no longer resolves). */
export function openLevelOf(spec: GraphSpec | null, level: readonly string[]): Level | null {
  if (!spec) return null
  let byPath = levels.get(spec)
  if (!byPath) levels.set(spec, (byPath = new Map()))
  const key = level.join('\u0000')
  let found = byPath.get(key)
  if (found === undefined) byPath.set(key, (found = levelOf(spec, level)))
  return found ?? openLevelOf(spec, [])
}

/** Levels by spec and path: a subgraph handed to the canvas keeps its identity between renders. */
const levels = new WeakMap<GraphSpec, Map<string, Level | null>>()

/** The problems of a document, as the problems list and the canvas badges show them. */
export function issuesOf(doc: unknown): GraphIssue[] {
  return parseDocument(doc).issues
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
