import type {
  ChannelVersions,
  Checkpoint,
  CheckpointAddress,
  CheckpointConfig,
  CheckpointMetadata,
  CheckpointSaver,
  CheckpointTuple,
  ListOptions,
} from '../core/checkpoint/types'
import { profiled } from './stepProfile'

/** A write attempted by a run that was already abandoned. Never reaches the page. */
export class RunAbandonedError extends Error {
  override readonly name = 'RunAbandonedError'
}

/**
 * A run's view of the saver that can be closed: after `close()` resolves, every write the
 * run had started has settled and no further write is accepted. This is how a stopped run,
 * whose super-step may still be running in the sandbox, is kept from adding checkpoints.
 */
export class GatedSaver implements CheckpointSaver {
  private closed = false
  private readonly writing = new Set<Promise<unknown>>()
  /** The versions each checkpoint put here gave its channels, until taken (`takeChanged`). */
  private readonly changed = new Map<string, ChannelVersions>()

  /**
   * `onWrites` hears which checkpoint each `putWrites` stores against (the step's parent);
   * `commit` commits what `inner` holds in memory (a saver that commits in batches).
   */
  constructor(
    private readonly inner: CheckpointSaver,
    private readonly onWrites?: (checkpointId: string) => void,
    private readonly commit?: () => Promise<void>,
  ) {}

  /**
   * Commits every checkpoint the run has put (before it reports a pause or its end); rejects
   * with a commit's failure. Also after `close()`: a stopped run keeps what it computed.
   */
  async flush(): Promise<void> {
    await Promise.allSettled([...this.writing])
    await profiled('saver.flush', async () => this.commit?.())
  }

  /** Incremental when the saver it gates is (the run's puts then pass on what changed). */
  get incremental(): boolean {
    return this.inner.incremental === true
  }

  put(
    config: CheckpointConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
    changedSeen?: ReadonlySet<string>,
  ): Promise<CheckpointAddress> {
    if (!this.closed) this.changed.set(checkpoint.id, newVersions)
    return this.track(() =>
      profiled('saver.put', () =>
        this.inner.put(config, checkpoint, metadata, newVersions, changedSeen),
      ),
    )
  }

  putWrites(config: CheckpointAddress, writes: [string, unknown][], taskId: string): Promise<void> {
    if (!this.closed) this.onWrites?.(config.checkpointId)
    return this.track(() =>
      profiled('saver.putWrites', () => this.inner.putWrites(config, writes, taskId)),
    )
  }

  getTuple(config: CheckpointConfig): Promise<CheckpointTuple | undefined> {
    return profiled('saver.getTuple', () => this.inner.getTuple(config))
  }

  list(config: CheckpointConfig, options?: ListOptions): AsyncIterable<CheckpointTuple> {
    return this.inner.list(config, options)
  }

  deleteThread(threadId: string): Promise<void> {
    return this.track(() => this.inner.deleteThread(threadId))
  }

  /**
   * The channels checkpoint `checkpointId` gave a new version (what its put was told), once:
   * a `checkpoint_saved` event carries these rather than every channel's version.
   */
  takeChanged(checkpointId: string): ChannelVersions | undefined {
    const v = this.changed.get(checkpointId)
    this.changed.delete(checkpointId)
    return v
  }

  /** Refuses further writes and waits for those in progress. */
  async close(): Promise<void> {
    this.closed = true
    await Promise.allSettled([...this.writing])
  }

  private track<T>(write: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new RunAbandonedError('The run was abandoned.'))
    const p = write()
    this.writing.add(p)
    const done = () => this.writing.delete(p)
    p.then(done, done)
    return p
  }
}
