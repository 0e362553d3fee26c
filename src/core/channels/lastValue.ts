import { EMPTY, InvalidUpdateError, type Channel } from './base'

/** Stores the last value written; two writes in one super-step are an error. */
export class LastValue implements Channel {
  readonly kind = 'LastValue'
  private slot: [unknown] | [] = []

  update(values: readonly unknown[]): boolean {
    if (values.length === 0) return false
    if (values.length !== 1) {
      throw new InvalidUpdateError(
        'LastValue can only receive one value per step.',
        'INVALID_CONCURRENT_GRAPH_UPDATE',
      )
    }
    this.slot = [values[0]]
    return true
  }
  get(): unknown {
    return this.slot.length ? this.slot[0] : EMPTY
  }
  isAvailable(): boolean {
    return this.slot.length !== 0
  }
  checkpoint(): unknown {
    return this.get()
  }
  fromCheckpoint(value: unknown): LastValue {
    const c = new LastValue()
    if (value !== EMPTY) c.slot = [value]
    return c
  }
  consume(): boolean {
    return false
  }
  finish(): boolean {
    return false
  }
}

/** A `branch:to:` channel of a deferred node: available only once the graph would stop. */
export class LastValueAfterFinish implements Channel {
  readonly kind = 'LastValueAfterFinish'
  private slot: [unknown] | [] = []
  private finished = false

  update(values: readonly unknown[]): boolean {
    if (values.length === 0) return false
    this.finished = false
    this.slot = [values[values.length - 1]]
    return true
  }
  get(): unknown {
    return this.slot.length && this.finished ? this.slot[0] : EMPTY
  }
  isAvailable(): boolean {
    return this.slot.length !== 0 && this.finished
  }
  checkpoint(): unknown {
    return this.slot.length ? [this.slot[0], this.finished] : EMPTY
  }
  fromCheckpoint(value: unknown): LastValueAfterFinish {
    const c = new LastValueAfterFinish()
    if (value !== EMPTY) {
      const [v, finished] = value as [unknown, boolean]
      c.slot = [v]
      c.finished = finished
    }
    return c
  }
  consume(): boolean {
    if (!this.finished) return false
    this.finished = false
    this.slot = []
    return true
  }
  finish(): boolean {
    if (this.finished || this.slot.length === 0) return false
    this.finished = true
    return true
  }
}
