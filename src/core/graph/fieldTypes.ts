/**
 * Typed state fields: what a declared type (`"type": "string"`, `{ "type": "array", "items":
 * "number" }`, …) means for a value, for a write through the field's reducer, and in words.
 * Types are checks only: nothing here changes a value, so a run with types is a run without.
 */
import type { FieldSpec, FieldType, FieldTypeName } from './schema'

/** A declared type, resolved: a list always knows its item type (`any` when not given). */
export type TypeDesc =
  { kind: Exclude<FieldTypeName, 'array'> } | { kind: 'array'; items: TypeDesc }

const ANY: TypeDesc = { kind: 'any' }

/** The resolved type of a document type; no type is `any`. */
export function describeType(t: FieldType | undefined): TypeDesc {
  if (t === undefined) return ANY
  const name = typeof t === 'string' ? t : t.type
  if (name !== 'array') return { kind: name }
  const items = typeof t === 'string' ? undefined : t.items
  return { kind: 'array', items: describeType(items) }
}

/** The resolved type of a field. */
export function fieldTypeOf(field: Pick<FieldSpec, 'type'>): TypeDesc {
  return describeType(field.type)
}

/**
 * The document form of a type, the shortest that says it: a name, `{ "type": "array",
 * "items": … }` for a list of something other than any, and `undefined` for any (no key).
 */
export function typeToDocument(t: TypeDesc): FieldType | undefined {
  if (t.kind === 'any') return undefined
  if (t.kind !== 'array') return t.kind
  const items = typeToDocument(t.items)
  return items === undefined ? 'array' : { type: 'array', items }
}

/** A type in words: `string`, `list of integer`, `list of list of any`. */
export function typeLabel(t: TypeDesc): string {
  return t.kind === 'array' ? `list of ${typeLabel(t.items)}` : t.kind
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/** A message as stored or written: an object with a `type` or a `role`. */
function isMessageObject(v: unknown): boolean {
  return isObject(v) && (typeof v.type === 'string' || typeof v.role === 'string')
}

/** Whether a value is of a type. */
export function matchesType(value: unknown, t: TypeDesc): boolean {
  switch (t.kind) {
    case 'any':
      return true
    case 'string':
      return typeof value === 'string'
    case 'number':
      return typeof value === 'number'
    case 'integer':
      return Number.isInteger(value)
    case 'boolean':
      return typeof value === 'boolean'
    case 'object':
      return isObject(value)
    case 'messages':
      return Array.isArray(value) && value.every(isMessageObject)
    case 'array':
      return Array.isArray(value) && value.every((v) => matchesType(v, t.items))
  }
}

/** What add_messages takes as one message: a string, `[role, content]`, or a message object. */
function isMessageLike(v: unknown): boolean {
  if (typeof v === 'string' || isMessageObject(v)) return true
  return Array.isArray(v) && v.length === 2 && v.every((x) => typeof x === 'string')
}

/**
 * Whether one write fits a typed field, through its reducer: `add_messages` takes one
 * message or a list of them, `append`, `union` and a topic take one item or a list of items,
 * a custom reducer takes whatever its code does (never flagged); anything else takes a value
 * of the type.
 */
export function writeMatchesType(field: FieldSpec, t: TypeDesc, value: unknown): boolean {
  if (t.kind === 'any' || (field.reducer === 'custom' && !field.channel)) return true
  if (matchesType(value, t)) return true
  if (field.reducer === 'add_messages' && !field.channel && t.kind === 'messages') {
    return isMessageLike(value) || (Array.isArray(value) && value.every(isMessageLike))
  }
  const takesItems =
    field.channel === 'topic' ||
    (!field.channel && (field.reducer === 'append' || field.reducer === 'union'))
  return takesItems && t.kind === 'array' && matchesType(value, t.items)
}

const MAX_SHOWN = 40

/**
 * A value with its JSON type for a message: `number \`5\``, `an empty string`, `null`. The
 * text is JSON with every character outside printable ASCII escaped, cut at 40 characters.
 */
export function describeValue(v: unknown): string {
  if (v === undefined) return 'undefined'
  if (v === '') return 'an empty string'
  let text: string | undefined
  try {
    text = JSON.stringify(v) as string | undefined
  } catch {
    text = undefined
  }
  const kind = Array.isArray(v) ? 'list' : v === null ? '' : isObject(v) ? 'object' : typeof v
  if (text === undefined) return `a ${typeof v}`
  text = text.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
  if (text.length > MAX_SHOWN) text = `${text.slice(0, MAX_SHOWN - 1)}…`
  const shown = `\`${text.replace(/`/g, "'")}\``
  return kind === '' ? shown : `${kind} ${shown}`
}
