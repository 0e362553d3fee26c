/**
 * A tool's `parameters` (an object JSON Schema) as rows a form edits, and back: one row per
 * property (name, its schema, required). Keys the form does not edit (a property's `enum`,
 * the object's `additionalProperties`, …) ride along untouched, so a form edit changes only
 * what it shows.
 */
import type { FieldType, FieldTypeName } from '../../core/graph/schema'

type Json = Record<string, unknown>

/** One parameter of a tool. */
export interface ParamRow {
  name: string
  /** The property's schema as written: type, description and any other keys. */
  schema: Json
  required: boolean
}

/** A tool's parameters as rows, and the object schema's other keys. */
export interface ParamForm {
  rows: ParamRow[]
  /** The object schema's keys besides `type`, `properties` and `required`. */
  rest: Json
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * The rows of a parameters schema; none for no schema. Null when the schema is not a plain
 * object schema the form can show (not `"type": "object"`, properties that are not schemas,
 * `required` that is not a list of names): the JSON view edits it then.
 */
export function paramForm(parameters: Json | undefined): ParamForm | null {
  if (parameters === undefined) return { rows: [], rest: {} }
  const { type, properties = {}, required = [], ...rest } = parameters
  if (type !== 'object' || !isObject(properties)) return null
  if (!Array.isArray(required) || !required.every((r) => typeof r === 'string')) return null
  const entries = Object.entries(properties)
  if (!entries.every(([, s]) => isObject(s))) return null
  return {
    rows: entries.map(([name, schema]) => ({
      name,
      schema: schema as Json,
      required: required.includes(name),
    })),
    rest,
  }
}

/** The parameters schema of a form: `type`, `properties`, `required` (when any), the rest. */
export function parametersOf(form: ParamForm): Json {
  const required = form.rows.filter((r) => r.required).map((r) => r.name)
  return {
    type: 'object',
    properties: Object.fromEntries(form.rows.map((r) => [r.name, r.schema])),
    ...(required.length > 0 && { required }),
    ...form.rest,
  }
}

const NAMES: readonly string[] = ['string', 'number', 'integer', 'boolean', 'object', 'array']

/**
 * A property schema's type as a state field's type (what TypeSelect edits): no `type` is
 * `undefined` (any); null when the form cannot show it (`"null"`, a list of types, an item
 * schema it cannot show).
 */
export function schemaFieldType(schema: Json): FieldType | undefined | null {
  const { type, items } = schema
  if (type === undefined) return items === undefined ? undefined : null
  if (typeof type !== 'string' || !NAMES.includes(type)) return null
  if (type !== 'array' || items === undefined) return type as FieldTypeName
  if (!isObject(items)) return null
  const inner = schemaFieldType(items)
  if (inner === null) return null
  return inner === undefined ? 'array' : { type: 'array', items: inner }
}

/**
 * The JSON Schema of a field type: `{}` for any; messages (not a JSON Schema type) as a
 * list of objects.
 */
export function fieldTypeSchema(t: FieldType | undefined): Json {
  if (t === undefined) return {}
  const name = typeof t === 'string' ? t : t.type
  if (name === 'any') return {}
  if (name === 'messages') return { type: 'array', items: { type: 'object' } }
  if (name !== 'array') return { type: name }
  const items = typeof t === 'string' ? undefined : t.items
  return items === undefined ? { type: 'array' } : { type: 'array', items: fieldTypeSchema(items) }
}

/** A property schema with another type: `type` and `items` replaced, the rest kept. */
export function withType(schema: Json, t: FieldType | undefined): Json {
  const { type: _type, items: _items, ...rest } = schema
  return { ...fieldTypeSchema(t), ...rest }
}

/** A property schema with another description (empty: none). */
export function withDescription(schema: Json, text: string): Json {
  const { description: _d, ...rest } = schema
  return text === '' ? rest : { ...rest, description: text }
}

/** Why a parameter name cannot be used, or null. */
export function paramNameProblem(name: string, others: readonly string[]): string | null {
  if (name.trim() === '') return 'A parameter needs a name.'
  if (others.includes(name)) return `Another parameter is named ${name}.`
  return null
}

/** Why a tool name cannot be used, or null. */
export function toolNameProblem(name: string, others: readonly string[]): string | null {
  if (name.trim() === '') return 'A tool needs a name.'
  if (others.includes(name)) return `Another tool is named ${name}.`
  return null
}

/** The first free name of `base`, `base_2`, `base_3`… */
export function freshName(base: string, taken: readonly string[]): string {
  if (!taken.includes(base)) return base
  for (let i = 2; ; i++) if (!taken.includes(`${base}_${i}`)) return `${base}_${i}`
}

/** A property name in a TypeScript type; never `*\/`, which would end the editor's JSDoc. */
function propertyKey(name: string): string {
  if (/^[A-Za-z_$][\w$]*$/.test(name)) return name
  return JSON.stringify(name).replace(/\*\//g, '*\\u002f')
}

function tsTypeOf(schema: Json): string {
  const t = schemaFieldType(schema)
  if (t === null || t === undefined) return 'unknown'
  const name = typeof t === 'string' ? t : t.type
  switch (name) {
    case 'string':
    case 'number':
    case 'boolean':
      return name
    case 'integer':
      return 'number'
    case 'object':
      return 'Record<string, unknown>'
    case 'array': {
      const item = isObject(schema.items) ? tsTypeOf(schema.items) : 'unknown'
      return /^[\w[\]]+$/.test(item) ? `${item}[]` : `(${item})[]`
    }
    default:
      return 'unknown'
  }
}

/**
 * The TypeScript type of a tool's arguments, for the code editor's completion:
 * `{ city: string; days?: number }`; `Record<string, unknown>` when the form cannot read the
 * schema.
 */
export function argsTypeOf(parameters: Json | undefined): string {
  const form = paramForm(parameters)
  if (!form) return 'Record<string, unknown>'
  if (form.rows.length === 0) return '{}'
  const members = form.rows.map(
    (r) => `${propertyKey(r.name)}${r.required ? '' : '?'}: ${tsTypeOf(r.schema)}`,
  )
  return `{ ${members.join('; ')} }`
}
