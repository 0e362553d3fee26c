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
  /** The thread and namespace it belongs to. */
  threadId: string
  store: ThreadStore
  metadata: CheckpointMetadata
  writes: PendingWrite[]
  /**
   * Write key (see writeKey) → position in `writes`, made when a call could collide with a
   * stored write; before that, the tasks that stored writes (each in one call, all plain).
   */
  writeIndex: Map<string, number> | undefined
  writeTasks: Set<string> | undefined
  /** The value of each channel this checkpoint gave a new version (EMPTY_BLOB: empty). */
  values: Record<string, unknown>
  /** Set on a base: the whole versions, versions_seen and owners. */
  full: FullState | undefined
  /** On a delta (no `full`): the checkpoint it is a delta of, and what changed since. */
  parent: StoredCheckpoint | undefined
  versionsDelta: ChannelVersions
  seenDelta: Record<string, ChannelVersions>
  /** Deltas between this checkpoint and its base (0: a base). */
  depth: number
}

/** A checkpoint's versions and versions_seen, and for each versioned channel the checkpoint
 * that stored its value. */
interface FullState {
  versions: ChannelVersions
  seen: Record<string, ChannelVersions>
  owner: Record<string, StoredCheckpoint>
}

/** A checkpoint's writes before any is stored (replaced, never pushed to). */
const NO_WRITES: PendingWrite[] = Object.freeze([]) as unknown as PendingWrite[]

/** A base's (empty) deltas, shared. */
const NO_VERSIONS: ChannelVersions = Object.freeze({}) as ChannelVersions
const NO_SEEN: Record<string, ChannelVersions> = Object.freeze({}) as Record<
  string,
  ChannelVersions
>

/** A channel version whose value is empty (e.g. a cleared ephemeral channel). */
const EMPTY_BLOB = Symbol('empty-blob')

/**
 * An incremental put stores a delta of its parent unless the parent is this many deltas from
 * a base: a read walks at most this far, a put copies the whole state once per this many.
 */
const MAX_DELTA_DEPTH = 32

interface ThreadStore {
  /** The namespace (`''`: the root graph). */
  ns: string
  /** Oldest first. */
  checkpoints: StoredCheckpoint[]
  byId: Map<string, StoredCheckpoint>
}

/**
 * An in-memory CheckpointSaver that stores like LangGraph's SQL savers: a channel's value
 * once per version, each checkpoint only its versions. Values are cloned on the way in and
 * out, so a node mutating its state cannot rewrite history. It is `incremental`: given what
 * changed, a put costs what changed (a delta of the parent), not the size of the graph.
 */
export class MemorySaver implements CheckpointSaver {
  readonly incremental = true
  /** Per thread, per checkpoint namespace (in the order first written). */
  private threads = new Map<string, Map<string, ThreadStore>>()
  /** Every stored checkpoint of every thread and namespace, in put order. */
  private order: StoredCheckpoint[] = []

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
    const t = this.thread(config.threadId, config.checkpointNs ?? '')
    const parent = config.checkpointId ? t.byId.get(config.checkpointId) : undefined
    // Every channel inherits its parent's stored value but those with a new version.
    const changed = parent ? Object.keys(newVersions) : Object.keys(checkpoint.channel_versions)
    const values: Record<string, unknown> = {}
    const channelValues = checkpoint.channel_values
    for (const ch of changed) {
      values[ch] = ch in channelValues ? cloneJson(channelValues[ch]) : EMPTY_BLOB
    }
    const stored: StoredCheckpoint = {
      id: checkpoint.id,
      ts: checkpoint.ts,
      parentId: config.checkpointId,
      threadId: config.threadId,
      store: t,
      metadata,
      writes: NO_WRITES,
      writeIndex: undefined,
      writeTasks: undefined,
      values,
      full: undefined,
      parent: undefined,
      versionsDelta: NO_VERSIONS,
      seenDelta: NO_SEEN,
      depth: 0,
    }
    if (parent && changedSeen && parent.depth < MAX_DELTA_DEPTH) {
      // Kept, not copied: the caller never mutates newVersions, and replaces seen entries.
      stored.versionsDelta = newVersions
      const seenDelta: Record<string, ChannelVersions> = {}
      for (const name of changedSeen) {
        const entry = checkpoint.versions_seen[name]
        if (entry) seenDelta[name] = entry
      }
      stored.seenDelta = seenDelta
      stored.parent = parent
      stored.depth = parent.depth + 1
    } else {
      const owner: Record<string, StoredCheckpoint> = parent ? { ...fullState(parent).owner } : {}
      for (const ch of changed) owner[ch] = stored
      stored.full = {
        // Kept, not copied, unless the caller goes on using them (an incremental put): the
        // caller never mutates what it hands over (CheckpointSaver.put).
        versions: changedSeen ? { ...checkpoint.channel_versions } : checkpoint.channel_versions,
        seen: changedSeen ? { ...checkpoint.versions_seen } : checkpoint.versions_seen,
        owner,
      }
    }
    t.checkpoints.push(stored)
    t.byId.set(stored.id, stored)
    this.order.push(stored)
    return addressOf(config.threadId, t.ns, checkpoint.id)
  }

  putWritesSync(config: CheckpointAddress, writes: [string, unknown][], taskId: string): void {
    // Writes are nearly always made against the checkpoint put last: found without lookups.
    const last = this.order[this.order.length - 1]
    const c =
      last &&
      last.id === config.checkpointId &&
      last.threadId === config.threadId &&
      last.store.ns === (config.checkpointNs ?? '')
        ? last
        : this.store(config)?.byId.get(config.checkpointId)
    if (!c) {
      const ns = config.checkpointNs ? ` in namespace ${config.checkpointNs}` : ''
      throw new Error(`No checkpoint ${config.checkpointId} on thread ${config.threadId}${ns}.`)
    }
    if (!c.writeIndex && !hasSpecial(writes)) {
      // The common case, a task's only call with plain writes: no key can collide yet.
      let first = c.writes.length === 0
      if (!first) {
        const tasks = (c.writeTasks ??= new Set(c.writes.map((w) => w[0])))
        first = !tasks.has(taskId)
        if (first) tasks.add(taskId)
      }
      if (first) {
        // The first call's writes are the array (of its exact size: most checkpoints get one).
        if (c.writes === NO_WRITES) {
          c.writes = writes.map((w): PendingWrite => [taskId, w[0], cloneJson(w[1])])
        } else for (const w of writes) c.writes.push([taskId, w[0], cloneJson(w[1])])
        return
      }
    }
    if (c.writes === NO_WRITES) c.writes = []
    const index = (c.writeIndex ??= indexWrites(c.writes))
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
    this.order = this.order.filter((c) => c.threadId !== threadId)
  }

  /**
   * Every checkpoint of a thread in every namespace (subgraphs' included), oldest (first
   * put) first: what the reports list as `subgraphCheckpoints`.
   */
  listAllNamespaces(threadId: string): CheckpointTuple[] {
    return this.order
      .filter((c) => c.threadId === threadId)
      .map((c) => this.toTuple(threadId, c.store, c))
  }

  /**
   * A thread's checkpoints of one namespace, oldest (first put) first, made one at a time as
   * they are read (a report written as it goes holds one at a time, not the whole history).
   * Unlike getTuple's, these tuples share the saver's objects (no copies: a report reads
   * thousands): read them, never change them.
   */
  *inPutOrder(threadId: string, checkpointNs = ''): Generator<Readonly<CheckpointTuple>> {
    const t = this.threads.get(threadId)?.get(checkpointNs)
    if (!t) return
    // Each delta is usually of the checkpoint just read: one step from its state, no walk.
    let prevC: StoredCheckpoint | undefined
    let prevState: FullState | undefined
    for (const c of t.checkpoints) {
      const state =
        !c.full && prevState && c.parent === prevC ? applyDelta(prevState, c) : fullState(c)
      prevC = c
      prevState = state
      yield this.toTuple(threadId, t, c, state, true)
    }
  }

  /** Bytes of stored channel values as JSON, of one thread or of all (for storage benchmarks). */
  storedBytes(threadId?: string): number {
    const threads = (
      threadId === undefined ? [...this.threads.values()] : [this.threads.get(threadId)]
    ).flatMap((byNs) => [...(byNs?.values() ?? [])])
    let n = 0
    for (const t of threads)
      for (const c of t?.checkpoints ?? [])
        for (const ch in c.values) {
          const v = c.values[ch]
          n += v === EMPTY_BLOB ? 0 : (JSON.stringify(v)?.length ?? 0)
        }
    return n
  }

  private thread(id: string, ns: string): ThreadStore {
    let byNs = this.threads.get(id)
    if (!byNs) this.threads.set(id, (byNs = new Map()))
    let t = byNs.get(ns)
    if (!t) byNs.set(ns, (t = { ns, checkpoints: [], byId: new Map() }))
    return t
  }

  private store(config: CheckpointConfig): ThreadStore | undefined {
    return this.threads.get(config.threadId)?.get(config.checkpointNs ?? '')
  }

  private toTuple(
    threadId: string,
    t: ThreadStore,
    c: StoredCheckpoint,
    state = fullState(c),
    /** The tuple may share the saver's objects (inPutOrder). */
    shared = false,
  ): CheckpointTuple {
    const values: Record<string, unknown> = {}
    for (const ch in state.owner) {
      const v = (state.owner[ch] as StoredCheckpoint).values[ch]
      if (v !== EMPTY_BLOB) values[ch] = shared ? v : cloneJson(v)
    }
    // Shared: the saver's own objects, for a reader that only reads; else copies.
    return {
      config: addressOf(threadId, t.ns, c.id),
      checkpoint: {
        v: 1,
        id: c.id,
        ts: c.ts,
        channel_values: values,
        channel_versions: shared ? state.versions : { ...state.versions },
        versions_seen: shared ? state.seen : copyVersionsSeen(state.seen),
      },
      metadata: shared ? c.metadata : { ...c.metadata, parents: { ...c.metadata.parents } },
      parentConfig: c.parentId ? addressOf(threadId, t.ns, c.parentId) : undefined,
      pendingWrites: shared
        ? c.writes
        : c.writes.map((w): PendingWrite => [w[0], w[1], cloneJson(w[2])]),
    }
  }
}

/** The state of delta `d` from its parent's: copies, `parent` is left as it was. */
function applyDelta(parent: FullState, d: StoredCheckpoint): FullState {
  const versions = { ...parent.versions }
  const owner = { ...parent.owner }
  const seen = { ...parent.seen }
  for (const ch in d.versionsDelta) {
    versions[ch] = d.versionsDelta[ch] as number
    owner[ch] = d
  }
  for (const name in d.seenDelta) seen[name] = d.seenDelta[name] as ChannelVersions
  return { versions, seen, owner }
}

/**
 * A checkpoint's whole state: a base's own, or a delta's applied over its base's (oldest
 * delta first). Not cached: the objects it makes are the reader's.
 */
function fullState(c: StoredCheckpoint): FullState {
  if (c.full) return c.full
  const chain: StoredCheckpoint[] = []
  let at: StoredCheckpoint = c
  while (!at.full) {
    chain.push(at)
    at = at.parent as StoredCheckpoint
  }
  const base = at.full
  const versions = { ...base.versions }
  const seen = { ...base.seen }
  const owner = { ...base.owner }
  for (let i = chain.length - 1; i >= 0; i--) {
    const d = chain[i] as StoredCheckpoint
    for (const ch in d.versionsDelta) {
      versions[ch] = d.versionsDelta[ch] as number
      owner[ch] = d
    }
    for (const name in d.seenDelta) seen[name] = d.seenDelta[name] as ChannelVersions
  }
  return { versions, seen, owner }
}

/** A checkpoint's config; the root namespace is left out, as before namespaces existed. */
function addressOf(threadId: string, ns: string, checkpointId: string): CheckpointAddress {
  return ns === '' ? { threadId, checkpointId } : { threadId, checkpointId, checkpointNs: ns }
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

function hasSpecial(writes: readonly [string, unknown][]): boolean {
  for (const w of writes) if (SPECIAL_WRITE_CHANNELS.has(w[0])) return true
  return false
}

/** The write index of writes stored without one: each task's, from one call, all plain. */
function indexWrites(writes: readonly PendingWrite[]): Map<string, number> {
  const index = new Map<string, number>()
  const counts = new Map<string, number>()
  writes.forEach(([taskId, ch], at) => {
    const i = counts.get(taskId) ?? 0
    counts.set(taskId, i + 1)
    index.set(writeKey(taskId, ch, i), at)
  })
  return index
}

function copyVersionsSeen(vs: Record<string, ChannelVersions>): Record<string, ChannelVersions> {
  const out: Record<string, ChannelVersions> = {}
  for (const k in vs) out[k] = { ...vs[k] }
  return out
}
