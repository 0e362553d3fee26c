import { fail, fieldNameProblem, ok } from './editCommon'
import type { EditResult } from './editTypes'
import type { FieldSpec, GraphSpec } from './schema'

/** The code a custom reducer gets when none is given: the newer write wins. */
export const DEFAULT_REDUCER_CODE = '(a, b) => b'

const unknownField = (doc: GraphSpec, name: string) =>
  fail(doc, `There is no state field \`${name}\`.`)

function withReducerCode(f: FieldSpec): FieldSpec {
  return f.reducer === 'custom' && f.code === undefined ? { ...f, code: DEFAULT_REDUCER_CODE } : f
}

/** Appends a state field (a custom reducer without code gets `(a, b) => b`). */
export function addField(doc: GraphSpec, field: FieldSpec): EditResult {
  const problem = fieldNameProblem(doc, field.name)
  if (problem) return fail(doc, problem)
  if (field.reducer !== undefined && field.channel !== undefined)
    return fail(doc, `State field \`${field.name}\` cannot have both a reducer and a channel.`)
  return ok({ ...doc, state: [...doc.state, withReducerCode({ ...field })] })
}

/**
 * Changes a field in place (a new `name` keeps its position). Setting `reducer` removes
 * `channel` and setting `channel` removes `reducer`; a key given as `undefined` is removed
 * (`{ reducer: undefined }` makes the field a LastValue). A custom reducer without code gets
 * `(a, b) => b`. Node code that reads or writes the old name is not rewritten.
 */
export function updateField(doc: GraphSpec, name: string, change: Partial<FieldSpec>): EditResult {
  const index = doc.state.findIndex((f) => f.name === name)
  const field = doc.state[index]
  if (!field) return unknownField(doc, name)
  if (change.reducer !== undefined && change.channel !== undefined)
    return fail(doc, `State field \`${name}\` cannot have both a reducer and a channel.`)
  const next: Record<string, unknown> = { ...field, ...change }
  for (const [k, v] of Object.entries(change)) if (v === undefined) delete next[k]
  if (change.reducer !== undefined) delete next.channel
  if (change.channel !== undefined) delete next.reducer
  if (typeof next.name !== 'string') return fail(doc, `State field \`${name}\` needs a name.`)
  if (next.name !== name) {
    const problem = fieldNameProblem(doc, next.name, name)
    if (problem) return fail(doc, problem)
  }
  const updated = withReducerCode(next as FieldSpec)
  if (sameFields(field, updated)) return ok(doc)
  return ok({ ...doc, state: doc.state.map((f, i) => (i === index ? updated : f)) })
}

function sameFields(a: FieldSpec, b: FieldSpec): boolean {
  const ka = Object.keys(a) as (keyof FieldSpec)[]
  const kb = Object.keys(b)
  return ka.length === kb.length && ka.every((k) => k in b && a[k] === b[k])
}

/** Removes a state field. Node code that writes it is not touched (those writes are ignored). */
export function deleteField(doc: GraphSpec, name: string): EditResult {
  if (!doc.state.some((f) => f.name === name)) return unknownField(doc, name)
  return ok({ ...doc, state: doc.state.filter((f) => f.name !== name) })
}
