/**
 * The declared types of state fields as TypeScript, for the Annotations of the emitted
 * module (`Annotation<string>()`, `Annotation<string[], string | string[]>({ … })`), so that
 * LangGraph Studio and the user's own code see the schema.
 */
import { fieldTypeOf, matchesType, type TypeDesc } from '../core/graph/fieldTypes'
import type { FieldSpec } from '../core/graph/schema'

/** The type-only imports a typed field may need: `BaseMessage`, and LangGraph's `Messages`. */
export const MESSAGE_TYPE_IMPORTS = {
  BaseMessage: '@langchain/core/messages',
  Messages: '@langchain/langgraph',
} as const

export type TypeImport = keyof typeof MESSAGE_TYPE_IMPORTS

/** A type as TypeScript; `name` gives the local name of a type import. */
export function tsType(t: TypeDesc, name: (n: TypeImport) => string): string {
  switch (t.kind) {
    case 'any':
      return 'unknown'
    case 'string':
      return 'string'
    case 'number':
    case 'integer':
      return 'number'
    case 'boolean':
      return 'boolean'
    case 'object':
      return 'Record<string, unknown>'
    case 'messages':
      return `${name('BaseMessage')}[]`
    case 'array':
      return `${tsType(t.items, name)}[]`
  }
}

/**
 * Whether the field is written with type arguments: it declares a type, and its default (if
 * the export writes one) is of that type as TypeScript reads a literal. A messages default
 * with messages in it is plain objects, not `BaseMessage`s, so such a field stays untyped.
 */
export function isTypedInExport(f: FieldSpec, writesDefault: boolean): boolean {
  const t = fieldTypeOf(f)
  if (t.kind === 'any') return false
  if (!writesDefault || !('default' in f)) return true
  if (!matchesType(f.default, t)) return false
  return !mentionsMessages(t) || (Array.isArray(f.default) && f.default.length === 0)
}

/** Whether a type has messages in it (needs `BaseMessage`). */
export function mentionsMessages(t: TypeDesc): boolean {
  return t.kind === 'messages' || (t.kind === 'array' && mentionsMessages(t.items))
}

/**
 * `<Value>` or `<Value, Update>` for an Annotation: what a write may be, through the reducer,
 * when it is more than the value: one item or a list for `append` and `union`, LangGraph's
 * `Messages` (one message-like or a list) for `add_messages`.
 */
export function annotationTypeArgs(
  f: FieldSpec,
  t: TypeDesc,
  name: (n: TypeImport) => string,
): string {
  const value = tsType(t, name)
  if (f.reducer === 'add_messages' && t.kind === 'messages')
    return `<${value}, ${name('Messages')}>`
  if ((f.reducer === 'append' || f.reducer === 'union') && t.kind === 'array') {
    const item = tsType(t.items, name)
    return `<${value}, ${item} | ${item}[]>`
  }
  return `<${value}>`
}

/** The type imports the typed fields of a document need. */
export function typeImportsOf(fields: readonly FieldSpec[]): TypeImport[] {
  const out = new Set<TypeImport>()
  for (const f of fields) {
    const t = fieldTypeOf(f)
    if (!isTypedInExport(f, writesDefault(f))) continue
    if (mentionsMessages(t)) out.add('BaseMessage')
    if (!f.channel && f.reducer === 'add_messages' && t.kind === 'messages') out.add('Messages')
  }
  return [...out]
}

/** Whether the export writes the field's default (reducer fields only, as LangGraph.js). */
export function writesDefault(f: FieldSpec): boolean {
  return 'default' in f && f.channel === undefined && !!f.reducer && f.reducer !== 'overwrite'
}
