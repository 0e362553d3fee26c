import { START } from '../graph/constants'
import {
  describeValue,
  fieldTypeOf,
  typeLabel,
  writeMatchesType,
  type TypeDesc,
} from '../graph/fieldTypes'
import type { FieldSpec, GraphSpec } from '../graph/schema'

/** The typed fields of a document, by name (a field without a type is not in it). */
const typedFields = new WeakMap<GraphSpec, ReadonlyMap<string, [FieldSpec, TypeDesc]>>()

function typedFieldsOf(spec: GraphSpec): ReadonlyMap<string, [FieldSpec, TypeDesc]> {
  let map = typedFields.get(spec)
  if (!map) {
    const typed = new Map<string, [FieldSpec, TypeDesc]>()
    for (const f of spec.state) {
      const t = fieldTypeOf(f)
      if (t.kind !== 'any') typed.set(f.name, [f, t])
    }
    typedFields.set(spec, (map = typed))
  }
  return map
}

/**
 * Why a write to a typed field does not fit its type through its reducer, or null when it
 * does (or the field has no type). Only ever a warning (`VALUE_TYPE_MISMATCH`): the write is
 * applied as is, as LangGraph applies it.
 */
export function writeTypeProblem(
  spec: GraphSpec,
  node: string,
  field: string,
  value: unknown,
): string | null {
  const typed = typedFieldsOf(spec).get(field)
  if (!typed || writeMatchesType(typed[0], typed[1], value)) return null
  const who = node === START ? 'The input' : `Node \`${node}\``
  return `${who} wrote ${describeValue(value)} to \`${field}\`, which is typed ${typeLabel(typed[1])}.`
}
