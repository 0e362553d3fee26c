import { cloneJson } from '../lib/cloneJson'
import {
  NULL_TASK_ID,
  SPECIAL_WRITE_CHANNELS,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointAddress,
  type CheckpointConfig,
  type CheckpointMetadata,
  type CheckpointSaver,
  type CheckpointTuple,
  type PendingWrite,
} from './checkpoint/types'

/**
 * The saver of a report written as the run goes (`superstep run`): it hands each checkpoint
 * to `onPut` the moment it is saved and keeps only the newest one and that one's pending
 * writes, so a 20,000-step run holds one checkpoint, not its whole history (the history
 * kept alive was most of the garbage collector's work in a fresh process).
 *
 * It serves one thread's root graph run forward from an empty thread: every checkpoint's
 * parent is the newest, and writes go to the newest. Anything else (a fork, an update, a
 * subgraph's namespace, a write without a task, which would change a checkpoint already
 * handed on) is a bug of its caller and throws. Reads other than the newest find nothing.
 */
export class ReportSaver implements CheckpointSaver {
  readonly incremental = true
  private threadId: string | undefined
  private newest: { id: string; ts: string; metadata: CheckpointMetadata } | undefined
  private parentId: string | undefined
  /** The newest checkpoint's whole state, updated in place by each put. */
  private versions: ChannelVersions = {}
  private seen: Record<string, ChannelVersions> = {}
  private values: Record<string, unknown> = {}
  private writes: PendingWrite[] = []
  /** The position in `writes` of each write's key, but for the first `unkeyed` writes. */
  private readonly writeAt = new Map<string, number>()
  private unkeyed = 0

  /**
   * `onPut` gets the checkpoint just saved, whole (its pending writes are still to come). The
   * tuple shares the saver's objects, which the next put changes: read it during the call,
   * never change it.
   */
  constructor(private readonly onPut: (tuple: Readonly<CheckpointTuple>) => void) {}

  async put(
    config: CheckpointConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
    changedSeen?: ReadonlySet<string>,
  ): Promise<CheckpointAddress> {
    return this.putSync(config, checkpoint, metadata, newVersions, changedSeen)
  }

  async putWrites(
    config: CheckpointAddress,
    writes: [string, unknown][],
    taskId: string,
  ): Promise<void> {
    this.putWritesSync(config, writes, taskId)
  }

  putSync(
    config: CheckpointConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
    changedSeen?: ReadonlySet<string>,
  ): CheckpointAddress {
    this.check(config, 'a checkpoint')
    if (config.checkpointId !== this.newest?.id)
      throw new Error(`ReportSaver: checkpoint ${checkpoint.id}'s parent is not the newest.`)
    const first = this.newest === undefined
    // As MemorySaver stores: the channels with a new version (all, at the first) take the
    // checkpoint's values, copied; the others keep the parent's.
    const changed = first ? Object.keys(checkpoint.channel_versions) : Object.keys(newVersions)
    const channelValues = checkpoint.channel_values
    for (const ch of changed) {
      if (ch in channelValues) this.values[ch] = cloneJson(channelValues[ch])
      else delete this.values[ch]
    }
    if (!first && changedSeen) {
      // Only what changed: the caller goes on mutating the checkpoint's own objects.
      for (const ch of changed) this.versions[ch] = newVersions[ch] as number
      for (const name of changedSeen) {
        const entry = checkpoint.versions_seen[name]
        if (entry) this.seen[name] = entry
      }
    } else {
      this.versions = { ...checkpoint.channel_versions }
      this.seen = { ...checkpoint.versions_seen }
    }
    this.threadId = config.threadId
    this.parentId = config.checkpointId
    this.newest = { id: checkpoint.id, ts: checkpoint.ts, metadata }
    this.writes = []
    this.writeAt.clear()
    this.unkeyed = 0
    this.onPut(this.tuple())
    return { threadId: config.threadId, checkpointId: checkpoint.id }
  }

  putWritesSync(config: CheckpointAddress, writes: [string, unknown][], taskId: string): void {
    this.check(config, 'writes')
    if (config.checkpointId !== this.newest?.id)
      throw new Error(`ReportSaver: writes to checkpoint ${config.checkpointId}, not the newest.`)
    if (taskId === NULL_TASK_ID)
      throw new Error('ReportSaver: a write without a task would change a reported checkpoint.')
    if (this.writes.length === 0 && !writes.some(isSpecial)) {
      // The common case, a checkpoint's first writes, all plain: none can collide, and their
      // keys are made only if more writes come.
      for (const w of writes) this.writes.push([taskId, w[0], cloneJson(w[1])])
      this.unkeyed = writes.length
      return
    }
    for (let i = 0; i < this.unkeyed; i++)
      this.writeAt.set(`${(this.writes[i] as PendingWrite)[0]}\u0000${i}`, i)
    this.unkeyed = 0
    // LangGraph's rules (see CheckpointSaver.putWrites): a special channel's write is keyed
    // by (task, channel) and replaces the one before; any other by (task, index in the call),
    // and the first stays.
    for (let i = 0; i < writes.length; i++) {
      const [ch, v] = writes[i] as [string, unknown]
      const special = SPECIAL_WRITE_CHANNELS.has(ch)
      const key = `${taskId}\u0000${special ? ch : i}`
      const at = this.writeAt.get(key)
      const write: PendingWrite = [taskId, ch, cloneJson(v)]
      if (at === undefined) {
        this.writeAt.set(key, this.writes.length)
        this.writes.push(write)
      } else if (special) this.writes[at] = write
    }
  }

  /** The newest checkpoint (copied), when `config` addresses it. */
  async getTuple(config: CheckpointConfig): Promise<CheckpointTuple | undefined> {
    if (!this.addresses(config)) return undefined
    const t = this.tuple()
    return {
      ...t,
      checkpoint: {
        ...t.checkpoint,
        channel_values: cloneJson(t.checkpoint.channel_values),
        channel_versions: { ...t.checkpoint.channel_versions },
        versions_seen: { ...t.checkpoint.versions_seen },
      },
      metadata: { ...t.metadata, parents: { ...t.metadata.parents } },
      pendingWrites: t.pendingWrites.map((w): PendingWrite => [w[0], w[1], cloneJson(w[2])]),
    }
  }

  /** Only the newest checkpoint: the older ones were handed on and dropped. */
  async *list(config: CheckpointConfig): AsyncIterable<CheckpointTuple> {
    const t = await this.getTuple({ threadId: config.threadId, checkpointNs: config.checkpointNs })
    if (t) yield t
  }

  async deleteThread(threadId: string): Promise<void> {
    if (threadId !== this.threadId) return
    this.threadId = this.newest = this.parentId = undefined
    this.versions = {}
    this.seen = {}
    this.values = {}
    this.writes = []
    this.writeAt.clear()
    this.unkeyed = 0
  }

  private addresses(config: CheckpointConfig): boolean {
    return (
      this.newest !== undefined &&
      config.threadId === this.threadId &&
      !config.checkpointNs &&
      (config.checkpointId === undefined || config.checkpointId === this.newest.id)
    )
  }

  private check(config: CheckpointConfig, what: string): void {
    if (config.checkpointNs)
      throw new Error(`ReportSaver: ${what} in namespace ${config.checkpointNs}.`)
    if (this.threadId !== undefined && config.threadId !== this.threadId)
      throw new Error(`ReportSaver: ${what} on a second thread, ${config.threadId}.`)
  }

  /** The newest checkpoint as a tuple sharing the saver's objects. */
  private tuple(): CheckpointTuple {
    const newest = this.newest as NonNullable<ReportSaver['newest']>
    const threadId = this.threadId as string
    return {
      config: { threadId, checkpointId: newest.id },
      checkpoint: {
        v: 1,
        id: newest.id,
        ts: newest.ts,
        channel_values: this.values,
        channel_versions: this.versions,
        versions_seen: this.seen,
      },
      metadata: newest.metadata,
      parentConfig: this.parentId ? { threadId, checkpointId: this.parentId } : undefined,
      pendingWrites: this.writes,
    }
  }
}

const isSpecial = (w: [string, unknown]): boolean => SPECIAL_WRITE_CHANNELS.has(w[0])
