import type { z } from '../../lib/zod'
import type { GraphIssue } from './issues'

type ZodIssue = z.core.$ZodIssue
type Path = (string | number)[]

/**
 * The schema's problems with a document as GraphIssues whose messages name the value found
 * and what is allowed (`Unknown reducer \`multiply\`; expected one of overwrite, …`), where
 * zod's own say only what was expected. Values are read from the document by path.
 */
export function schemaIssues(doc: unknown, issues: readonly ZodIssue[]): GraphIssue[] {
  return issues.flatMap((i) =>
    describe(doc, i, []).map(({ path, message }): GraphIssue => ({
      code: schemaIssueCode(path),
      severity: 'error',
      message,
      path,
    })),
  )
}

function schemaIssueCode(fullPath: Path): GraphIssue['code'] {
  const path = withinGraph(fullPath)
  const last = path.at(-1)
  if (last === 'reducer' && path[0] === 'state') return 'UNKNOWN_REDUCER'
  if (last === 'kind' && path[0] === 'nodes' && path.length === 3) return 'UNKNOWN_NODE_KIND'
  if (isFieldTypePath(path)) return 'UNKNOWN_FIELD_TYPE'
  return 'SCHEMA'
}

/** The part of a path inside its graph: `subgraphs.team.nodes.0.kind` → `nodes.0.kind`. */
function withinGraph(path: Path): Path {
  let i = 0
  while (path[i] === 'subgraphs' && path.length > i + 2) i += 2
  return path.slice(i)
}

/** `state[i].type`, or a part of it (`.items`, `.type`, …): a field's declared type. */
function isFieldTypePath(path: Path): boolean {
  return path[0] === 'state' && path[2] === 'type'
}

/** What a value at `path` is called in messages, for the closed lists of the format. */
function nameOf(fullPath: Path): string | null {
  const path = withinGraph(fullPath)
  const last = path.at(-1)
  if (path.length === 1 && last === 'superstep') return 'format version'
  if (path[0] === 'state' && path.length === 3) {
    if (last === 'reducer') return 'reducer'
    if (last === 'channel') return 'channel kind'
  }
  if (isFieldTypePath(path) && (last === 'type' || last === 'items')) return 'field type'
  if (path[0] === 'nodes' && path.length === 3 && last === 'kind') return 'node kind'
  if (path[0] === 'nodes' && last === 'provider') return 'model provider'
  return null
}

/** One zod issue as messages at document paths; a union whose one option fits says why inside. */
function describe(doc: unknown, issue: ZodIssue, base: Path): { path: Path; message: string }[] {
  const path = [...base, ...issue.path.filter((p): p is string | number => typeof p !== 'symbol')]
  const value = valueAt(doc, path)
  const at = (message: string) => [{ path, message }]
  switch (issue.code) {
    case 'invalid_value':
      return at(notAllowed(path, value, issue.values))
    case 'invalid_union': {
      // A discriminated union (the model's `provider`): the path ends at the discriminator.
      if (issue.discriminator !== undefined && 'options' in issue && issue.options)
        return at(notAllowed(path, value, issue.options))
      // A name against a union with a closed list of names (a field type): not one of them.
      const names = issue.errors.find(
        ([e, ...rest]) => rest.length === 0 && e?.code === 'invalid_value' && e.path.length === 0,
      )?.[0]
      if (typeof value === 'string' && names?.code === 'invalid_value')
        return at(notAllowed(path, value, names.values))
      // The options whose type fits the value fail inside it: say where, if only one does.
      const inside = issue.errors.filter((errs) => errs.every((e) => e.path.length > 0))
      if (inside.length === 1 && inside[0]) return inside[0].flatMap((e) => describe(doc, e, path))
      const expected = issue.errors.flatMap((errs) => errs.flatMap(expectation))
      return at(
        expected.length > 0
          ? `Expected ${orList([...new Set(expected)])}; got ${typed(value)}.`
          : `${issue.message}; got ${typed(value)}.`,
      )
    }
    case 'invalid_type':
      return at(
        value === undefined
          ? `Missing${typeof path.at(-1) === 'string' ? ` \`${String(path.at(-1))}\`` : ''}; expected ${expectedType(issue.expected)}.`
          : `Expected ${expectedType(issue.expected)}; got ${typed(value)}.`,
      )
    case 'too_small': {
      const n = Number(issue.minimum)
      const unit = issue.origin === 'string' ? 'character' : issue.origin === 'array' ? 'item' : ''
      return at(
        unit
          ? `Expected at least ${n} ${unit}${n === 1 ? '' : 's'}; got ${typed(value)}.`
          : `${issue.message}; got ${typed(value)}.`,
      )
    }
    default:
      return at(`${issue.message}; got ${typed(value)}.`)
  }
}

/** `Unknown reducer \`multiply\`; expected one of overwrite, append, …`. */
function notAllowed(path: Path, value: unknown, allowed: readonly unknown[]): string {
  const name = nameOf(path)
  const list =
    allowed.length === 1
      ? shownAllowed(allowed[0])
      : `one of ${allowed.map(shownAllowed).join(', ')}`
  if (value === undefined) return `Missing ${name ?? 'value'}; expected ${list}.`
  const what =
    name === null
      ? 'Invalid value'
      : name === 'format version'
        ? 'Unsupported format version'
        : `Unknown ${name}`
  return `${what} ${shown(value)}; expected ${list}.`
}

/** What one option of a union wanted, from its issue at the union's own level. */
function expectation(e: ZodIssue): string[] {
  if (e.path.length > 0) return []
  if (e.code === 'invalid_type') return [expectedType(e.expected)]
  if (e.code === 'invalid_value') return e.values.map(shownAllowed)
  return []
}

function expectedType(expected: string): string {
  return expected === 'record' ? 'object' : expected
}

function orList(items: string[]): string {
  return items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`
}

function shownAllowed(v: unknown): string {
  return typeof v === 'string' ? v : String(v)
}

const PLAIN = /^[\x21-\x5f\x61-\x7e]+(?: [\x21-\x5f\x61-\x7e]+)*$/
const MAX_SHOWN = 40

/**
 * A value as it appears in a message: a plain ASCII string as is, anything else as JSON with
 * every character outside printable ASCII escaped (so no control or bidi character reaches a
 * terminal), in backticks, cut at 40 characters.
 */
function shown(v: unknown): string {
  if (v === undefined) return 'nothing'
  let text: string
  if (typeof v === 'string' && PLAIN.test(v)) text = v
  else {
    const json = jsonText(v)
    if (json === undefined) return `a ${typeof v}`
    text = json.replace(
      /[^\x20-\x7e]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    )
  }
  if (text.length > MAX_SHOWN) text = `${text.slice(0, MAX_SHOWN - 1)}…`
  return `\`${text.replace(/`/g, "'")}\``
}

/** JSON text of a value, or undefined for what JSON cannot write (a function, a cycle). */
function jsonText(v: unknown): string | undefined {
  try {
    return JSON.stringify(v) as string | undefined
  } catch {
    return undefined
  }
}

/** A value with its JSON type, where the text alone would not tell: string `x`, number `5`. */
function typed(v: unknown): string {
  if (v === '') return 'an empty string'
  if (v === null || typeof v === 'boolean' || v === undefined) return shown(v)
  return `${Array.isArray(v) ? 'array' : typeof v} ${shown(v)}`
}

/** The value at `path` in a JSON document, or undefined. */
function valueAt(doc: unknown, path: Path): unknown {
  let v = doc
  for (const p of path) {
    if (typeof v !== 'object' || v === null || !Object.hasOwn(v, p)) return undefined
    v = (v as Record<string | number, unknown>)[p]
  }
  return v
}
