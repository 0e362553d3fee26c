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
    let rest = values
    if (this.value === undefined) {
      const first = values[0]
      this.value = isOverwrite(first) ? first.__overwrite__ : first
      rest = values.slice(1)
    }
    // An Overwrite replaces the value, bypassing the reducer, and later writes of the same
    // step are dropped (LangGraph's `Overwrite` / `{ __overwrite__: v }`).
    let overwritten = false
    for (const v of rest) {
      if (isOverwrite(v)) {
        if (overwritten)
          throw new InvalidUpdateError('Can receive only one Overwrite value per step.')
        this.value = v.__overwrite__
        overwritten = true
      } else if (!overwritten) this.value = this.reducer(this.value, v)
    }
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

/** The JSON form of LangGraph's `Overwrite(value)`. */
export function isOverwrite(v: unknown): v is { __overwrite__: unknown } {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && '__overwrite__' in v
}
