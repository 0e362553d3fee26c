import { EMPTY, InvalidUpdateError, type Channel } from './base'

/** Holds a value for exactly one super-step: cleared by the next step that writes nothing. */
export class EphemeralValue implements Channel {
  readonly kind = 'EphemeralValue'
  private slot: [unknown] | [] = []

  constructor(readonly guard = true) {}

  update(values: readonly unknown[]): boolean {
    if (values.length === 0) {
      const had = this.slot.length > 0
      this.slot = []
      return had
    }
    if (values.length !== 1 && this.guard) {
      throw new InvalidUpdateError('EphemeralValue can only receive one value per step.')
    }
    this.slot = [values[values.length - 1]]
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
  fromCheckpoint(value: unknown): EphemeralValue {
    const c = new EphemeralValue(this.guard)
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
