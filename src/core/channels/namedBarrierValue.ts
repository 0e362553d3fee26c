import { EMPTY, InvalidUpdateError, type Channel } from './base'

/** A join's barrier: available once every named source has written, reset when consumed. */
export class NamedBarrierValue implements Channel {
  readonly kind: 'NamedBarrierValue' | 'NamedBarrierValueAfterFinish' = 'NamedBarrierValue'
  protected seen = new Set<string>()

  constructor(readonly names: ReadonlySet<string>) {}

  update(values: readonly unknown[]): boolean {
    let updated = false
    for (const v of values) {
      if (typeof v !== 'string' || !this.names.has(v)) {
        throw new InvalidUpdateError(`Value ${JSON.stringify(v)} not in names {}`)
      }
      if (!this.seen.has(v)) {
        this.seen.add(v)
        updated = true
      }
    }
    return updated
  }
  protected isComplete(): boolean {
    return this.seen.size === this.names.size
  }
  get(): unknown {
    return this.isAvailable() ? undefined : EMPTY
  }
  isAvailable(): boolean {
    return this.isComplete()
  }
  checkpoint(): unknown {
    return [...this.seen]
  }
  fromCheckpoint(value: unknown): NamedBarrierValue {
    const c = new NamedBarrierValue(this.names)
    if (value !== EMPTY) c.seen = new Set(value as string[])
    return c
  }
  consume(): boolean {
    if (!this.isComplete()) return false
    this.seen = new Set()
    return true
  }
  finish(): boolean {
    return false
  }
}

/** The barrier of a join into a deferred node: fires only when the graph would stop. */
export class NamedBarrierValueAfterFinish extends NamedBarrierValue {
  override readonly kind = 'NamedBarrierValueAfterFinish'
  private finished = false

  override isAvailable(): boolean {
    return this.finished && this.isComplete()
  }
  override checkpoint(): unknown {
    return [[...this.seen], this.finished]
  }
  override fromCheckpoint(value: unknown): NamedBarrierValueAfterFinish {
    const c = new NamedBarrierValueAfterFinish(this.names)
    if (value !== EMPTY) {
      const [seen, finished] = value as [string[], boolean]
      c.seen = new Set(seen)
      c.finished = finished
    }
    return c
  }
  override consume(): boolean {
    if (!this.finished || !this.isComplete()) return false
    this.seen = new Set()
    this.finished = false
    return true
  }
  override finish(): boolean {
    if (this.finished || !this.isComplete()) return false
    this.finished = true
    return true
  }
}
