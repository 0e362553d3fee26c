/**
 * A CheckpointSaver that fails on purpose, for fault tests of the runtime: it wraps another
 * saver and throws `Error('injected fault')` on chosen calls of `put`/`putWrites`, before the
 * wrapped saver sees them (so a faulted call stores nothing). Reads always delegate.
 */
import { seededRandom } from '../../lib/random'
import type {
  ChannelVersions,
  Checkpoint,
  CheckpointAddress,
  CheckpointConfig,
  CheckpointMetadata,
  CheckpointSaver,
  CheckpointTuple,
  ListOptions,
} from './types'

export type FaultyMethod = 'put' | 'putWrites'

/**
 * Which calls fail. Calls are numbered from 1, counting only the `methods` (default both) in
 * the order they are made. Either a fixed list (`failOn: [3, 7]`), or each call failing with
 * probability `rate` from a PRNG seeded with `seed` (same seed, same calls).
 */
export type FaultPlan =
  | { failOn: readonly number[]; methods?: readonly FaultyMethod[] }
  | { rate: number; seed: number; methods?: readonly FaultyMethod[] }

/** One injected fault: which counted call it was. */
export interface InjectedFault {
  call: number
  method: FaultyMethod
}

/** The error a faulted call rejects with; match by `code`. */
export class InjectedFaultError extends Error {
  override readonly name = 'InjectedFaultError'
  readonly code = 'INJECTED_FAULT'
  readonly fault: InjectedFault
  constructor(fault: InjectedFault) {
    super('injected fault')
    this.fault = fault
  }
}

export class FaultySaver implements CheckpointSaver {
  readonly inner: CheckpointSaver
  /** Counted calls so far. */
  calls = 0
  /** The faults injected so far, oldest first. */
  readonly faults: InjectedFault[] = []
  private readonly methods: ReadonlySet<FaultyMethod>
  private readonly shouldFail: (call: number) => boolean

  /**
   * Wraps `inner`, failing the calls `plan` picks.
   * @example new FaultySaver(new MemorySaver(), { failOn: [3] }) // the third write fails
   */
  constructor(inner: CheckpointSaver, plan: FaultPlan) {
    this.inner = inner
    this.methods = new Set(plan.methods ?? ['put', 'putWrites'])
    if ('failOn' in plan) {
      const failOn = new Set(plan.failOn)
      this.shouldFail = (call) => failOn.has(call)
    } else {
      const next = seededRandom(plan.seed)
      this.shouldFail = () => next() < plan.rate
    }
  }

  async put(
    config: CheckpointConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
  ): Promise<CheckpointAddress> {
    this.maybeFail('put')
    return this.inner.put(config, checkpoint, metadata, newVersions)
  }

  async putWrites(
    config: CheckpointAddress,
    writes: [string, unknown][],
    taskId: string,
  ): Promise<void> {
    this.maybeFail('putWrites')
    return this.inner.putWrites(config, writes, taskId)
  }

  getTuple(config: CheckpointConfig): Promise<CheckpointTuple | undefined> {
    return this.inner.getTuple(config)
  }

  list(config: CheckpointConfig, options?: ListOptions): AsyncIterable<CheckpointTuple> {
    return this.inner.list(config, options)
  }

  deleteThread(threadId: string): Promise<void> {
    return this.inner.deleteThread(threadId)
  }

  private maybeFail(method: FaultyMethod): void {
    if (!this.methods.has(method)) return
    const call = ++this.calls
    if (!this.shouldFail(call)) return
    const fault = { call, method }
    this.faults.push(fault)
    throw new InjectedFaultError(fault)
  }
}
