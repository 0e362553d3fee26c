import type { TypeDesc } from '../core/graph/fieldTypes'
import { BOOL, DICT, INT, LIST, NUM, STR } from './jsKinds'

/**
 * The kinds (jsKinds) a declared type lets the translator assume for a field's value, or
 * null for no type. A typed field settles what `+`, `.concat()` or a template placeholder
 * do with it; a value that breaks its type is the user's, warned about when Superstep runs
 * (VALUE_TYPE_MISMATCH), and may then behave otherwise in Python.
 */
export function declaredKinds(t: TypeDesc): number | null {
  switch (t.kind) {
    case 'any':
      return null
    case 'string':
      return STR
    case 'number':
      return NUM
    case 'integer':
      return INT
    case 'boolean':
      return BOOL
    case 'object':
      return DICT
    case 'array':
    case 'messages':
      return LIST
  }
}
