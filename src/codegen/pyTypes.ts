/**
 * The declared types of state fields as Python annotations for the `State` TypedDict
 * (`str`, `list[str]`, `list[AnyMessage]`), so that LangGraph Studio shows the schema.
 */
import type { TypeDesc } from '../core/graph/fieldTypes'
import { use, type PyModule } from './pyModule'

/** A type as a Python annotation, recording the imports it needs. */
export function pyType(m: PyModule, t: TypeDesc): string {
  switch (t.kind) {
    case 'any':
      use(m, 'typing', 'Any')
      return 'Any'
    case 'string':
      return 'str'
    case 'number':
      return 'float'
    case 'integer':
      return 'int'
    case 'boolean':
      return 'bool'
    case 'object':
      use(m, 'typing', 'Any')
      return 'dict[str, Any]'
    case 'messages':
      use(m, 'langchain_core.messages', 'AnyMessage')
      return 'list[AnyMessage]'
    case 'array':
      return `list[${pyType(m, t.items)}]`
  }
}

/**
 * Whether calling the Python type gives the default itself (`str()` is "", `list[str]()` is
 * []), so that a reducer field can be annotated with the bare type. `float()` is 0.0, which
 * JSON writes otherwise than JavaScript's 0: a number never is.
 */
export function isPyZero(t: TypeDesc, d: unknown): boolean {
  switch (t.kind) {
    case 'string':
      return d === ''
    case 'integer':
      return typeof d === 'number' && Object.is(d, 0)
    case 'boolean':
      return d === false
    case 'array':
    case 'messages':
      return Array.isArray(d) && d.length === 0
    case 'object':
      return typeof d === 'object' && d !== null && !Array.isArray(d) && Object.keys(d).length === 0
    default:
      return false
  }
}
