import { cloneJson } from '../../lib/cloneJson'
import type {
  ChannelVersions,
  Checkpoint,
  CheckpointAddress,
  CheckpointConfig,
  CheckpointMetadata,
  CheckpointSaver,
  CheckpointTuple,
  ListOptions,
  PendingWrite,
} from './types'
import { SPECIAL_WRITE_CHANNELS } from './types'

interface StoredCheckpoint {
  id: string
  ts: string
  parentId: string | undefined
  channel_versions: ChannelVersions
  versions_seen: Record<string, ChannelVersions>
  metadata: CheckpointMetadata
  writes: PendingWrite[]
  /** Write key (see writeKey) → position in `writes`; created on the first putWrites. */
  writeIndex: Map<string, number> | undefined
  /** For each versioned channel, the checkpoint whose put stored its value. */
  owner: Record<string, string>
}

/** A channel version whose value is empty (e.g. a cleared ephemeral channel). */
const EMPTY_BLOB = Symbol('empty-blob')

interface ThreadStore {
  /** The namespace (`''`: the root graph). */
  ns: string
  /** Oldest first. */
  checkpoints: StoredCheckpoint[]
  byId: Map<string, StoredCheckpoint>
  /** `checkpointId\0channel` → value: each channel version is stored once, by the checkpoint
   * that introduced it (ids, not version numbers, so two branches never collide). */
  blobs: Map<string, unknown>
}

/**
 * An in-memory CheckpointSaver that stores like LangGraph's SQL savers: a channel's value
 * once per version, each checkpoint only its versions. Values are cloned on the way in and
 * out, so a node mutating its state cannot rewrite history.
 */
export class MemorySaver implements CheckpointSaver {
  /** Per thread, per checkpoint namespace (in the order first written). */
  private threads = new Map<string, Map<string, ThreadStore>>()
  /** Every stored checkpoint of every thread and namespace, in put order. */
  private order: { threadId: string; store: ThreadStore; c: StoredCheckpoint }[] = []

  async put(
    config: CheckpointConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
  ): Promise<CheckpointAddress> {
    const t = this.thread(config.threadId, config.checkpointNs ?? '')
    const parent = config.checkpointId ? t.byId.get(config.checkpointId) : undefined
    // Every channel inherits its parent's stored value but those with a new version.
    const owner: Record<string, string> = parent ? { ...parent.owner } : {}
    const changed = parent ? Object.keys(newVersions) : Object.keys(checkpoint.channel_versions)
    for (const ch of changed) {
      owner[ch] = checkpoint.id
      t.blobs.set(
        blobKey(checkpoint.id, ch),
        ch in checkpoint.channel_values ? cloneJson(checkpoint.channel_values[ch]) : EMPTY_BLOB,
      )
    }
    const stored: StoredCheckpoint = {
      id: checkpoint.id,
      ts: checkpoint.ts,
      parentId: config.checkpointId,
      // Kept, not copied: the caller never mutates what it hands over (CheckpointSaver.put),
      // and reads copy on the way out. Only values are cloned, since nodes hold references.
      channel_versions: checkpoint.channel_versions,
      versions_seen: checkpoint.versions_seen,
      metadata,
      writes: [],
      writeIndex: undefined,
      owner,
    }
    t.checkpoints.push(stored)
    t.byId.set(stored.id, stored)
    this.order.push({ threadId: config.threadId, store: t, c: stored })
    return addressOf(config.threadId, t.ns, checkpoint.id)
  }

  async putWrites(
    config: CheckpointAddress,
    writes: [string, unknown][],
    taskId: string,
  ): Promise<void> {
    const c = this.store(config)?.byId.get(config.checkpointId)
    if (!c) {
      const ns = config.checkpointNs ? ` in namespace ${config.checkpointNs}` : ''
      throw new Error(`No checkpoint ${config.checkpointId} on thread ${config.threadId}${ns}.`)
    }
    const index = (c.writeIndex ??= new Map())
    writes.forEach(([ch, v], i) => {
      const key = writeKey(taskId, ch, i)
      const at = index.get(key)
      const write: PendingWrite = [taskId, ch, cloneJson(v)]
      if (at === undefined) {
        index.set(key, c.writes.length)
        c.writes.push(write)
      } else if (SPECIAL_WRITE_CHANNELS.has(ch)) {
        c.writes[at] = write // upsert in place: the write keeps its first position
      } // else: a regular write already stored under (task, index) wins
    })
  }

  async getTuple(config: CheckpointConfig): Promise<CheckpointTuple | undefined> {
    const t = this.store(config)
    if (!t) return undefined
    const c = config.checkpointId ? t.byId.get(config.checkpointId) : t.checkpoints.at(-1)
    return c && this.toTuple(config.threadId, t, c)
  }

  async *list(config: CheckpointConfig, options: ListOptions = {}): AsyncIterable<CheckpointTuple> {
    const t = this.store(config)
    if (!t) return
    let n = 0
    let skipping = options.before !== undefined
    for (let i = t.checkpoints.length - 1; i >= 0; i--) {
      const c = t.checkpoints[i] as StoredCheckpoint
      if (skipping) {
        if (c.id === options.before) skipping = false
        continue
      }
      if (options.limit !== undefined && n >= options.limit) return
      n++
      yield this.toTuple(config.threadId, t, c)
    }
  }

  async deleteThread(threadId: string): Promise<void> {
    this.threads.delete(threadId)
    this.order = this.order.filter((o) => o.threadId !== threadId)
  }

  /**
   * Every checkpoint of a thread in every namespace (subgraphs' included), oldest (first
   * put) first: what the reports list as `subgraphCheckpoints`.
   */
  listAllNamespaces(threadId: string): CheckpointTuple[] {
    return this.order
      .filter((o) => o.threadId === threadId)
      .map((o) => this.toTuple(threadId, o.store, o.c))
  }

  /** Bytes of stored channel values as JSON, of one thread or of all (for storage benchmarks). */
  storedBytes(threadId?: string): number {
    const threads = (
      threadId === undefined ? [...this.threads.values()] : [this.threads.get(threadId)]
    ).flatMap((byNs) => [...(byNs?.values() ?? [])])
    let n = 0
    for (const t of threads)
      for (const v of t?.blobs.values() ?? [])
        n += v === EMPTY_BLOB ? 0 : (JSON.stringify(v)?.length ?? 0)
    return n
  }

  private thread(id: string, ns: string): ThreadStore {
    let byNs = this.threads.get(id)
    if (!byNs) this.threads.set(id, (byNs = new Map()))
    let t = byNs.get(ns)
    if (!t) byNs.set(ns, (t = { ns, checkpoints: [], byId: new Map(), blobs: new Map() }))
    return t
  }

  private store(config: CheckpointConfig): ThreadStore | undefined {
    return this.threads.get(config.threadId)?.get(config.checkpointNs ?? '')
  }

  private toTuple(threadId: string, t: ThreadStore, c: StoredCheckpoint): CheckpointTuple {
    const values: Record<string, unknown> = {}
    for (const [ch, ownerId] of Object.entries(c.owner)) {
      const v = t.blobs.get(blobKey(ownerId, ch))
      if (v !== EMPTY_BLOB) values[ch] = cloneJson(v)
    }
    return {
      config: addressOf(threadId, t.ns, c.id),
      checkpoint: {
        v: 1,
        id: c.id,
        ts: c.ts,
        channel_values: values,
        channel_versions: { ...c.channel_versions },
        versions_seen: copyVersionsSeen(c.versions_seen),
      },
      metadata: { ...c.metadata, parents: { ...c.metadata.parents } },
      parentConfig: c.parentId ? addressOf(threadId, t.ns, c.parentId) : undefined,
      pendingWrites: c.writes.map(([id, ch, v]) => [id, ch, cloneJson(v)]),
    }
  }
}

/** A checkpoint's config; the root namespace is left out, as before namespaces existed. */
function addressOf(threadId: string, ns: string, checkpointId: string): CheckpointAddress {
  return ns === '' ? { threadId, checkpointId } : { threadId, checkpointId, checkpointNs: ns }
}

function blobKey(checkpointId: string, channel: string): string {
  return `${checkpointId}\u0000${channel}`
}

/**
 * LangGraph's pending-write key: a special channel's write is keyed by (task, channel), so a
 * later one replaces it; any other by (task, index in the `writes` array of its call).
 */
function writeKey(taskId: string, channel: string, index: number): string {
  return SPECIAL_WRITE_CHANNELS.has(channel)
    ? `${taskId}\u0000${channel}`
    : `${taskId}\u0000${index}`
}

function copyVersionsSeen(vs: Record<string, ChannelVersions>): Record<string, ChannelVersions> {
  const out: Record<string, ChannelVersions> = {}
  for (const k in vs) out[k] = { ...vs[k] }
  return out
}
