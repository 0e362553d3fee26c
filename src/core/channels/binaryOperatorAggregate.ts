import { EMPTY, InvalidUpdateError, type Channel } from './base'
import { append, type Reducer } from '../reducers/named'

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
    /** A checkpointed value to start from instead of the default (EMPTY: the default). */
    restored: unknown = EMPTY,
  ) {
    // A restored value replaces the default, so the default is not even copied.
    this.value = restored !== EMPTY ? restored : initial ? initial() : undefined
  }

  update(values: readonly unknown[]): boolean {
    if (values.length === 0) return false
    if (this.value !== undefined && !values.some(isOverwrite)) {
      if (this.reducer === append && values.length > 1) {
        this.value = appendAll(this.value, values)
        return true
      }
      // The common case, without foldWrites' per-call closures: every write goes through.
      let value: unknown = this.value
      for (const v of values) value = this.reducer(value, v)
      this.value = value
      return true
    }
    this.value = foldWrites(this.reducer, this.value, values, failUpdate)
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
    return new BinaryOperatorAggregate(this.reducer, this.initial, value)
  }
  consume(): boolean {
    return false
  }
  finish(): boolean {
    return false
  }
}

/**
 * `append` folded over a step's writes in one pass: the list appending them one by one would
 * give (each write a list, or one item; `undefined` none), without a copy per write.
 */
function appendAll(current: unknown, values: readonly unknown[]): unknown[] {
  const out = Array.isArray(current) ? [...(current as unknown[])] : [current]
  for (const v of values) {
    if (Array.isArray(v)) for (const item of v as unknown[]) out.push(item)
    else if (v !== undefined) out.push(v)
  }
  return out
}

function failUpdate(message: string): never {
  throw new InvalidUpdateError(message)
}

/** Whether a write is an Overwrite (either wire form foldWrites reads). */
function isOverwrite(v: unknown): boolean {
  if (typeof v !== 'object' || v === null) return false
  const o = v as Record<string, unknown>
  return '__overwrite__' in o || (o.type === '__overwrite__' && 'value' in o)
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
