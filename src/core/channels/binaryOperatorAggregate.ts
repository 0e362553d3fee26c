import { EMPTY, InvalidUpdateError, type Channel } from './base'
import type { Reducer } from '../reducers/named'

/**
 * Folds every write through a reducer. With no default, the first write is stored as is
 * (the reducer is not called), exactly as LangGraph.js does.
 */
export class BinaryOperatorAggregate implements Channel {
  readonly kind = 'BinaryOperatorAggregate'
  private value: unknown

  constructor(
    private readonly reducer: Reducer,
    private readonly initial?: () => unknown,
  ) {
    this.value = initial ? initial() : undefined
  }

  update(values: readonly unknown[]): boolean {
    if (values.length === 0) return false
    this.value = foldWrites(this.reducer, this.value, values, (message) => {
      throw new InvalidUpdateError(message)
    })
    return true
  }
  get(): unknown {
    return this.value === undefined ? EMPTY : this.value
  }
  isAvailable(): boolean {
    return this.value !== undefined
  }
  checkpoint(): unknown {
    return this.get()
  }
  fromCheckpoint(value: unknown): BinaryOperatorAggregate {
    const c = new BinaryOperatorAggregate(this.reducer, this.initial)
    if (value !== EMPTY) c.value = value
    return c
  }
  consume(): boolean {
    return false
  }
  finish(): boolean {
    return false
  }
}

/**
 * One super-step's writes folded into a reducer field, as LangGraph's BinaryOperatorAggregate
 * does: with no current value (`undefined`) the first write is taken as is; an Overwrite
 * replaces the value and drops the step's later writes; a second Overwrite is an error. An
 * Overwrite is either wire form LangGraph.js 1.7.3 reads (`_getOverwriteValue`):
 * `{ __overwrite__: v }`, or `{ type: '__overwrite__', value: v }` (another runtime's).
 * Self-contained (no outer references): the sandbox embeds its source.
 */
export function foldWrites(
  reducer: (a: unknown, b: unknown) => unknown,
  current: unknown,
  values: readonly unknown[],
  fail: (message: string) => never,
): unknown {
  const overwriteOf = (v: unknown): [unknown] | null => {
    if (typeof v !== 'object' || v === null) return null
    const o = v as Record<string, unknown>
    if ('__overwrite__' in o) return [o.__overwrite__]
    return o.type === '__overwrite__' && 'value' in o ? [o.value] : null
  }
  let value = current
  let rest = values
  if (value === undefined && values.length > 0) {
    const first = overwriteOf(values[0])
    value = first ? first[0] : values[0]
    rest = values.slice(1)
  }
  let overwritten = false
  for (const v of rest) {
    const o = overwriteOf(v)
    if (o) {
      if (overwritten) fail('Can receive only one Overwrite value per step.')
      value = o[0]
      overwritten = true
    } else if (!overwritten) value = reducer(value, v)
  }
  return value
}
