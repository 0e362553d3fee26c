import { EMPTY, type Channel } from './base'

/**
 * A pub/sub channel: a step's writes (lists flattened one level) are collected; without
 * `accumulate` the values last only until the next step's writes arrive.
 */
export class Topic implements Channel {
  readonly kind = 'Topic'
  private values: unknown[] = []

  constructor(readonly accumulate = false) {}

  update(values: readonly unknown[]): boolean {
    let updated = false
    if (!this.accumulate) {
      updated = this.values.length > 0
      this.values = []
    }
    const flat = values.flat()
    if (flat.length > 0) {
      updated = true
      this.values.push(...flat)
    }
    return updated
  }
  get(): unknown {
    return this.values.length ? this.values : EMPTY
  }
  isAvailable(): boolean {
    return this.values.length !== 0
  }
  checkpoint(): unknown {
    return [...this.values]
  }
  fromCheckpoint(value: unknown): Topic {
    const c = new Topic(this.accumulate)
    if (value !== EMPTY) c.values = [...(value as unknown[])]
    return c
  }
  consume(): boolean {
    return false
  }
  finish(): boolean {
    return false
  }
}
