import type { FieldSpec } from '../graph/schema'
import { createAddMessages } from './addMessages'
import { NAMED_REDUCERS, type Reducer } from './named'

export type { Reducer } from './named'
export { NAMED_REDUCERS } from './named'
export { createAddMessages, toMessage, type Message } from './addMessages'

/**
 * The reducer of a field, or null for fields that are not BinaryOperatorAggregate channels.
 * `evaluate` turns custom reducer code into a function.
 */
export function reducerFor(
  field: FieldSpec,
  newId: () => string,
  evaluate: (code: string) => Reducer,
): Reducer | null {
  if (field.channel) return null
  switch (field.reducer) {
    case undefined:
    case 'overwrite':
      return null
    case 'add_messages':
      return createAddMessages(newId)
    case 'custom':
      return evaluate(field.code ?? '')
    default:
      return NAMED_REDUCERS[field.reducer]
  }
}
