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
    // A held list may have been read (get() hands it out): it is replaced, not emptied.
    if (!this.accumulate && this.values.length > 0) {
      updated = true
      this.values = []
    }
    // The writes flattened one level (as `values.flat()`, without the copy).
    const out = this.values
    const length = out.length
    for (let j = 0; j < values.length; j++) {
      if (!(j in values)) continue
      const v = values[j]
      if (!Array.isArray(v)) out.push(v)
      else for (let i = 0; i < v.length; i++) if (i in v) out.push(v[i])
    }
    return updated || out.length > length
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
