import { EMPTY, type Channel } from './base'
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
    let i = 0
    if (this.value === undefined) {
      this.value = values[0]
      i = 1
    }
    for (; i < values.length; i++) this.value = this.reducer(this.value, values[i])
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
