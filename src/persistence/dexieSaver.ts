import { Dexie } from 'dexie'
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
import { SuperstepDb } from './db'
import type { CheckpointRow, StoredValue, TaskRunRow } from './db'
import { readValues, type ValueKey } from './valueReads'
import {
  blobKey,
  buildDeltaRow,
  buildRows,
  checkpointRowDamage,
  missingValue,
  toTuple,
  type ReadCheckpoint,
  placeValues,
  takeOwnership,
  writesOf,
} from './checkpointRows'
import { DamagedCheckpointError, stateFieldsDamage } from './damage'
import {
  chainPlace,
  deltaPlace,
  type ChainPlace,
  resolveStates,
  StateCache,
  type ResolvedState,
  type RowState,
} from './rowStates'
import { CheckpointBatches, type CommitStatus } from './checkpointBatch'
import { afterNamespaces, NS_SEPARATOR, storedThreadId, threadOfStored } from './namespaces'
import {
  DeferredWrites,
  MissingCheckpointError,
  storeOnRows,
  type WriteBatch,
} from './pendingWrites'
import { toStorageError } from './storageError'

/** Checkpoints read per transaction while `list` pages through a history. */
const LIST_PAGE = 50

/** One row of `listThreads`. */
export interface ThreadSummary {
  threadId: string
  latestCheckpointId: string
  latestTs: string
  /** When the thread's first checkpoint was written. */
  firstTs: string
  count: number
}

/** Options of a DexieCheckpointSaver. */
export interface DexieSaverOptions {
  /**
   * Pending writes on the checkpoint this saver stored last on their thread (a run's step)
   * are accepted at once and stored in the transaction of the next checkpoint, or after
   * this many ms when none comes; every read stores them first. Absent: each putWrites is
   * its own transaction, awaited.
   */
  deferWritesMs?: number
  /**
   * A run's view of this saver (`batched()`) holds its checkpoints, their pending writes and
   * its task runs in memory and commits them in one transaction per batch, this many ms after
   * the batch's first row at the latest (see ./checkpointBatch). Absent: no `batched()`.
   */
  batchMs?: number
  /** Wraps the commit of each batch (the worker's bench timing hook); default: none. */
  timeCommit?: (commit: () => Promise<void>) => Promise<void>
}

/**
 * A run's view of a DexieCheckpointSaver: a put that continues the chain the run stands on
 * (and its pending writes) resolves at once and commits with its batch; anything else (a
 * fork, the run's first checkpoint) and every read commits what is pending first, so reads
 * see all that was put. `isPending` says which checkpoints are not committed yet.
 */
export type BatchedSaver = CheckpointSaver &
  CommitStatus & {
    /** Task runs stored with the batch; resolves once committed. */
    recordTaskRuns(rows: TaskRunRow[]): Promise<void>
  }

/**
 * A CheckpointSaver over IndexedDB (Dexie) that stores like MemorySaver: each channel value
 * once per version, in a row keyed by the checkpoint that introduced the version, so forks
 * never collide and a 1 MB value that never changes is stored once. Every write is one
 * transaction: a failed one (quota, an uncloneable value) stores nothing and rejects with a
 * CheckpointStorageError; a checkpoint row is never visible without its values. With
 * `deferWritesMs`, a run's pending writes join its next checkpoint's transaction (see
 * ./pendingWrites): a put resolves only once committed, so a checkpoint reported saved is.
 */
export class DexieCheckpointSaver implements CheckpointSaver {
  readonly db: SuperstepDb
  private readonly deferred: DeferredWrites | undefined
  /** The checkpoint this saver stored last, per stored thread id (writes on it may wait). */
  private readonly lastPut = new Map<string, string>()
  private readonly batches: CheckpointBatches | undefined
  /** The checkpoint this saver put last per stored thread id, committed or not (batched puts chain on it). */
  private readonly heads = new Map<string, Head>()
  /** Rebuilt states of delta rows (./rowStates); the timeline shares them. */
  readonly states = new StateCache()
  /** Puts are given what changed (`changedSeen`): a step stores a delta of its parent. */
  readonly incremental = true

  constructor(db: SuperstepDb = new SuperstepDb(), options: DexieSaverOptions = {}) {
    this.db = db
    const ms = options.deferWritesMs
    this.deferred =
      ms === undefined ? undefined : new DeferredWrites(ms, (b) => this.storeBatches(b))
    this.batches =
      options.batchMs === undefined
        ? undefined
        : new CheckpointBatches(db, options.batchMs, undefined, options.timeCommit)
  }

  /** A run's view whose puts commit in batches (undefined without the batchMs option). */
  batched(): BatchedSaver | undefined {
    const b = this.batches
    if (!b) return undefined
    return {
      incremental: true,
      put: (c, ck, m, v, seen) => this.putBatched(b, c, ck, m, v, seen),
      putWrites: (c, w, t) => this.putWritesBatched(b, c, w, t),
      getTuple: (c) => this.getTuple(c),
      list: (c, o) => this.list(c, o),
      deleteThread: (t) => this.deleteThread(t),
      recordTaskRuns: (rows) => b.addTaskRuns(rows),
      flush: () => b.flush(),
      isPending: (id) => b.isPending(id),
      isLost: (id) => b.isLost(id),
      onSettled: (l) => b.onSettled(l),
    }
  }

  private async putBatched(
    b: CheckpointBatches,
    config: CheckpointConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
    changedSeen?: ReadonlySet<string>,
  ): Promise<CheckpointAddress> {
    await b.room()
    b.takeError()
    const threadId = storedThread(config)
    const head = this.heads.get(threadId)
    if (!head || config.checkpointId !== head.checkpointId || b.isLost(head.checkpointId))
      return this.put(config, checkpoint, metadata, newVersions, changedSeen)
    const seq = head.seq + 1
    const changed = Object.keys(newVersions)
    const place = changedSeen && deltaPlace(head.place, newVersions, changedSeen)
    const row: CheckpointRow = place
      ? buildDeltaRow(
          threadId,
          head.checkpointId,
          seq,
          checkpoint,
          metadata,
          newVersions,
          changedSeen,
          place,
        )
      : buildRows(threadId, head.checkpointId, head.owner, seq, checkpoint, metadata, changed)
    const built = { row, blobs: placeValues(row, checkpoint, changed) }
    let copy: typeof built
    try {
      copy = structuredClone(built) // what IndexedDB would copy now; it fails as it would
    } catch (e) {
      throw toStorageError(e, `store checkpoint ${checkpoint.id} on ${where(config)}`, {
        threadId: config.threadId,
        checkpointId: checkpoint.id,
      })
    }
    b.addCheckpoint(copy.row, copy.blobs)
    takeOwnership(head.owner, checkpoint, changed)
    this.heads.set(threadId, {
      checkpointId: checkpoint.id,
      seq,
      place: place || chainPlace(row),
      owner: head.owner,
    })
    return addressOf(config, checkpoint.id)
  }

  private async putWritesBatched(
    b: CheckpointBatches,
    config: CheckpointAddress,
    writes: [string, unknown][],
    taskId: string,
  ): Promise<void> {
    b.takeError()
    const threadId = storedThread(config)
    const { checkpointId } = config
    if (!b.holds(threadId, checkpointId) && this.heads.get(threadId)?.checkpointId !== checkpointId)
      return this.putWrites(config, writes, taskId)
    let copy: [string, unknown][]
    try {
      copy = structuredClone(writes)
    } catch (e) {
      const what = `store pending writes of task ${taskId} on checkpoint ${checkpointId} of thread ${threadId}`
      throw toStorageError(e, what, { threadId, checkpointId })
    }
    b.addWrites({ threadId, checkpointId, taskId, writes: copy })
  }

  /** Stores deferred pending writes in a transaction of their own. */
  private async storeBatches(batches: WriteBatch[]): Promise<void> {
    const { checkpoints } = this.db
    const first = batches[0] as WriteBatch
    try {
      await this.db.transaction('rw', checkpoints, () => storeOnRows(this.db, batches, []))
    } catch (e) {
      const what = `store pending writes of task ${first.taskId} on checkpoint ${first.checkpointId} of thread ${first.threadId}`
      throw toStorageError(e, what, { threadId: first.threadId, checkpointId: first.checkpointId })
    }
  }

  /**
   * Stores the pending writes still waiting for a checkpoint, for readers that go around the
   * saver (a failure is kept for the next write, as with the delayed store).
   */
  async flushPendingWrites(): Promise<void> {
    await this.settleWrites()
  }

  /** Commits the batched checkpoints (see batched()), for readers that go around the saver. */
  async settleBatches(): Promise<void> {
    await this.batches?.settle()
  }

  /** Stores the deferred pending writes before a read (a failure waits for the next write). */
  private async settleWrites(): Promise<void> {
    await this.batches?.settle()
    await this.deferred?.flush().catch(() => undefined)
  }

  async put(
    config: CheckpointConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
    changedSeen?: ReadonlySet<string>,
  ): Promise<CheckpointAddress> {
    const threadId = storedThread(config)
    const { checkpoints, blobs } = this.db
    await this.batches?.settle() // a batched parent is stored first
    await this.deferred?.takeError()
    // The pending writes waiting for this checkpoint (its parent's, usually) go in its transaction.
    const waiting = this.deferred?.take() ?? []
    let row: CheckpointRow
    let owner: Record<string, string> = {}
    let placed: ChainPlace = { depth: 0, carried: 0, whole: 0 }
    try {
      // Only Dexie calls are awaited in here: anything else would end the transaction.
      // Requests that do not depend on each other go out together: each await is a round
      // trip to the browser's IndexedDB, which costs more than the request itself.
      row = await this.db.transaction('rw', checkpoints, blobs, async () => {
        const [, parent, last, own] = await Promise.all([
          storeOnRows(this.db, waiting, []),
          config.checkpointId ? checkpoints.get([threadId, config.checkpointId]) : undefined,
          this.threadRange(threadId).last(),
          // A checkpoint put again keeps the pending writes and runs stored on it.
          checkpoints.get([threadId, checkpoint.id]),
        ])
        const seq = (last?.seq ?? 0) + 1
        let parentState: RowState | undefined
        if (parent) {
          // Nothing is stored on a checkpoint whose state cannot be read.
          const bad = stateFieldsDamage(parent) && checkpointRowDamage(parent)
          if (bad) throw new DamagedCheckpointError(bad)
          const read = (await resolveStates(this.db, threadId, [parent], this.states)).get(
            parent.checkpointId,
          )
          if (read && 'damage' in read) throw new DamagedCheckpointError(read.damage)
          parentState = read?.state
        }
        const changed = Object.keys(parent ? newVersions : checkpoint.channel_versions)
        // What the parent's chain carries is known to the saver that put it (see heads).
        const head = this.heads.get(threadId)
        const place =
          parent &&
          changedSeen &&
          deltaPlace(
            head?.checkpointId === parent.checkpointId ? head.place : chainPlace(parent),
            newVersions,
            changedSeen,
          )
        const built: CheckpointRow =
          parent && changedSeen && place
            ? buildDeltaRow(
                threadId,
                parent.checkpointId,
                seq,
                checkpoint,
                metadata,
                newVersions,
                changedSeen,
                place,
              )
            : buildRows(
                threadId,
                config.checkpointId,
                parentState?.owner,
                seq,
                checkpoint,
                metadata,
                changed,
              )
        const blobRows = placeValues(built, checkpoint, changed)
        if (own?.writes !== undefined) built.writes = own.writes
        if (own?.runs !== undefined) built.runs = own.runs
        await Promise.all([blobs.bulkPut(blobRows), checkpoints.put(built)])
        if (this.batches) {
          // The state of what batched puts chain on: its owners (copied once per such put).
          owner = { ...parentState?.owner }
          takeOwnership(owner, checkpoint, changed)
        }
        placed = place || chainPlace(built)
        return built
      })
    } catch (e) {
      if (e instanceof MissingCheckpointError || e instanceof DamagedCheckpointError) throw e
      const also = waiting.length ? ' (and the pending writes before it)' : ''
      throw toStorageError(e, `store checkpoint ${checkpoint.id} on ${where(config)}${also}`, {
        threadId: config.threadId,
        checkpointId: checkpoint.id,
      })
    }
    this.lastPut.set(threadId, checkpoint.id)
    if (this.batches)
      this.heads.set(threadId, {
        checkpointId: row.checkpointId,
        seq: row.seq,
        place: placed,
        owner,
      })
    return addressOf(config, checkpoint.id)
  }

  async putWrites(
    config: CheckpointAddress,
    writes: [string, unknown][],
    taskId: string,
  ): Promise<void> {
    const threadId = storedThread(config)
    const { checkpointId } = config
    const batch = { threadId, checkpointId, taskId, writes }
    const what = `store pending writes of task ${taskId} on checkpoint ${checkpointId} of thread ${threadId}`
    await this.batches?.settle() // its checkpoint may be in a batch
    if (this.deferred && this.lastPut.get(threadId) === checkpointId) {
      await this.deferred.takeError()
      let copy: [string, unknown][]
      try {
        copy = structuredClone(writes) // what IndexedDB would copy now; it fails as it would
      } catch (e) {
        throw toStorageError(e, what, { threadId, checkpointId })
      }
      this.deferred.add({ ...batch, writes: copy })
      return
    }
    try {
      await this.db.transaction('rw', this.db.checkpoints, () =>
        storeOnRows(this.db, [batch], [], () => where(config)),
      )
    } catch (e) {
      if (e instanceof MissingCheckpointError) throw e // the caller's mistake, not storage's
      throw toStorageError(e, what, { threadId, checkpointId })
    }
  }

  async getTuple(config: CheckpointConfig): Promise<CheckpointTuple | undefined> {
    await this.settleWrites()
    const threadId = storedThread(config)
    const { checkpointId } = config
    const { checkpoints, blobs } = this.db
    const read = await this.db.transaction('r', checkpoints, blobs, async () => {
      const row = checkpointId
        ? await checkpoints.get([threadId, checkpointId])
        : await this.threadRange(threadId).last()
      return row && (await this.hydrate([row]))[0]
    })
    // Nothing may run, continue or fork from a checkpoint that is not read in full.
    if (read?.damage) throw new DamagedCheckpointError(read.damage)
    return read?.tuple && inNamespace(read.tuple, config)
  }

  /**
   * getTuple of `config` and of its parent, in one read: a value the two share (most of them)
   * is read once. The parent is undefined when there is none or it is damaged (the checkpoint
   * itself throws as getTuple does).
   */
  async getTupleAndParent(
    config: CheckpointConfig,
  ): Promise<{ tuple: CheckpointTuple; parent: CheckpointTuple | undefined } | undefined> {
    await this.settleWrites()
    const threadId = storedThread(config)
    const { checkpointId } = config
    const { checkpoints, blobs } = this.db
    const read = await this.db.transaction('r', checkpoints, blobs, async () => {
      const row = checkpointId
        ? await checkpoints.get([threadId, checkpointId])
        : await this.threadRange(threadId).last()
      if (!row) return undefined
      const parentId = typeof row.parentId === 'string' ? row.parentId : undefined
      const parentRow = parentId ? await checkpoints.get([threadId, parentId]) : undefined
      return this.hydrate(parentRow ? [row, parentRow] : [row])
    })
    const [own, parent] = read ?? []
    if (!own) return undefined
    if (own.damage) throw new DamagedCheckpointError(own.damage)
    if (!own.tuple) return undefined
    return {
      tuple: inNamespace(own.tuple, config),
      parent: parent?.tuple && !parent.damage ? inNamespace(parent.tuple, config) : undefined,
    }
  }

  async *list(config: CheckpointConfig, options: ListOptions = {}): AsyncIterable<CheckpointTuple> {
    await this.settleWrites()
    const threadId = storedThread(config)
    let remaining = options.limit ?? Infinity
    let below = Infinity // exclusive upper bound on seq
    if (options.before !== undefined) {
      const before = await this.db.checkpoints.get([threadId, options.before])
      if (!before || typeof before.seq !== 'number') return
      below = before.seq
    }
    const { checkpoints, blobs } = this.db
    while (remaining > 0) {
      const n = Math.min(remaining, LIST_PAGE)
      const bound = below
      // One read transaction per page; none stays open while the consumer runs.
      const page = await this.db.transaction('r', checkpoints, blobs, async () => {
        const rows = await checkpoints
          .where('[threadId+seq]')
          .between([threadId, Dexie.minKey], [threadId, bound], true, false)
          .reverse()
          .limit(n)
          .toArray()
        return { rows, tuples: await this.hydrate(rows) }
      })
      // A damaged checkpoint is left out: the readable ones are what a history or an export shows.
      for (const { tuple } of page.tuples) if (tuple) yield inNamespace(tuple, config)
      const oldest = page.rows.at(-1)
      if (!oldest || page.rows.length < n) return
      remaining -= page.rows.length
      below = oldest.seq
    }
  }

  /**
   * Deletes everything stored under the thread: checkpoints (its subgraphs' too, with their
   * pending writes and task runs), values, its row.
   */
  async deleteThread(threadId: string): Promise<void> {
    const { checkpoints, blobs, threads } = this.db
    await this.settleWrites()
    for (const stored of [...this.lastPut.keys()])
      if (threadOfStored(stored) === threadId) this.lastPut.delete(stored)
    for (const stored of [...this.heads.keys()])
      if (threadOfStored(stored) === threadId) this.heads.delete(stored)
    this.states.forgetThread(threadId)
    // The thread's own rows, then those of its subgraphs' namespaces (keys just after it).
    const ranges = [
      [
        [threadId, Dexie.minKey],
        [threadId, Dexie.maxKey],
      ],
      [
        [`${threadId}${NS_SEPARATOR}`, Dexie.minKey],
        [afterNamespaces(threadId), Dexie.maxKey],
      ],
    ] as const
    try {
      await this.db.transaction('rw', [checkpoints, blobs, threads], async () => {
        for (const [lo, hi] of ranges) {
          // By primary key: a damaged row without a seq is not in the [threadId+seq] index.
          await checkpoints.where('[threadId+checkpointId]').between(lo, hi).delete()
          await blobs.where('[threadId+checkpointId+channel]').between(lo, hi).delete()
        }
        await threads.delete(threadId)
      })
    } catch (e) {
      throw toStorageError(e, `delete thread ${threadId}`, { threadId })
    }
  }

  /**
   * Every thread (or those whose id starts with `prefix`) with its newest checkpoint and
   * checkpoint count, most recently written first. Reads two rows and one count per thread
   * (a skip scan of `[threadId+seq]`), never a whole history.
   */
  async listThreads(options: { prefix?: string } = {}): Promise<ThreadSummary[]> {
    await this.batches?.settle()
    const { checkpoints } = this.db
    const { prefix } = options
    const index = () => checkpoints.where('[threadId+seq]')
    const out = await this.db.transaction('r', checkpoints, async () => {
      const found: ThreadSummary[] = []
      // The first row of each thread is its first checkpoint (lowest seq).
      let first =
        prefix === undefined
          ? await checkpoints.orderBy('[threadId+seq]').first()
          : await index().aboveOrEqual([prefix, Dexie.minKey]).first()
      while (first && (prefix === undefined || first.threadId.startsWith(prefix))) {
        const { threadId } = first
        // A subgraph's namespace is part of its thread, not a thread: skipped, with the
        // thread's other namespaces (their keys follow the thread's own).
        const base = threadOfStored(threadId)
        if (base === threadId) {
          const summary = await this.summarise(first)
          if (summary) found.push(summary)
        }
        first = await index()
          .above([afterNamespaces(base), Dexie.maxKey])
          .first()
      }
      return found
    })
    return out.sort((a, b) => cmp(b.latestTs, a.latestTs) || cmp(a.threadId, b.threadId))
  }

  /**
   * The subgraph namespaces the thread has checkpoints in (a skip scan of `[threadId+seq]`
   * over the keys just after the thread's own), ordered by when their first was written.
   */
  async namespaces(threadId: string): Promise<string[]> {
    await this.batches?.settle()
    const { checkpoints } = this.db
    const prefix = `${threadId}${NS_SEPARATOR}`
    const found = await this.db.transaction('r', checkpoints, async () => {
      const out: { ns: string; ts: string }[] = []
      const index = () => checkpoints.where('[threadId+seq]')
      let first = await index().above([prefix, Dexie.minKey]).first()
      while (first && first.threadId.startsWith(prefix)) {
        out.push({ ns: first.threadId.slice(prefix.length), ts: first.ts ?? '' })
        first = await index().above([first.threadId, Dexie.maxKey]).first()
      }
      return out
    })
    return found.sort((a, b) => cmp(a.ts, b.ts)).map((f) => f.ns)
  }

  /** One thread's newest checkpoint and count (undefined: the thread has no checkpoints). */
  async threadSummary(threadId: string): Promise<ThreadSummary | undefined> {
    await this.batches?.settle()
    const { checkpoints } = this.db
    return this.db.transaction('r', checkpoints, async () => {
      const first = await this.threadRange(threadId).first()
      return first && (await this.summarise(first))
    })
  }

  /** The summary of the thread whose first checkpoint row is `first`. Dexie calls only. */
  private async summarise(first: CheckpointRow): Promise<ThreadSummary | undefined> {
    const { threadId } = first
    const latest = await this.threadRange(threadId).last()
    const count = await this.threadRange(threadId).count()
    return (
      latest && {
        threadId,
        latestCheckpointId: latest.checkpointId,
        // A damaged row's time is not trusted to be a string.
        latestTs: typeof latest.ts === 'string' ? latest.ts : '',
        firstTs: typeof first.ts === 'string' ? first.ts : '',
        count,
      }
    )
  }

  /**
   * Bytes of stored channel values as JSON, of one thread or of all; each version counts
   * once, however many checkpoints share it (for storage benchmarks).
   */
  async storedBytes(threadId?: string): Promise<number> {
    await this.batches?.settle()
    const { blobs, checkpoints } = this.db
    const range = [
      [threadId, Dexie.minKey],
      [threadId, Dexie.maxKey],
    ] as const
    const [valueRows, rows] =
      threadId === undefined
        ? [blobs.toCollection(), checkpoints.toCollection()]
        : [
            blobs.where('[threadId+checkpointId+channel]').between(...range),
            checkpoints.where('[threadId+checkpointId]').between(...range),
          ]
    let n = 0
    const count = (v: StoredValue) => {
      if (!v.empty) n += JSON.stringify(v.value)?.length ?? 0
    }
    await valueRows.each(count)
    // The values delta rows hold themselves.
    await rows.each((r) => Object.values(r.values ?? {}).forEach(count))
    return n
  }

  private threadRange(threadId: string) {
    return this.db.checkpoints
      .where('[threadId+seq]')
      .between([threadId, Dexie.minKey], [threadId, Dexie.maxKey])
  }

  /** `rows` (one thread's) read back with their values and pending writes. Dexie calls only. */
  private async hydrate(rows: CheckpointRow[]): Promise<ReadCheckpoint[]> {
    const first = rows[0]
    if (!first) return []
    const damage = rows.map(checkpointRowDamage)
    const readable = rows.filter((_, i) => !damage[i])
    // Delta rows are read from the rows before them (cached when read lately).
    const states = await resolveStates(this.db, first.threadId, readable, this.states)
    const keys = new Map<string, ValueKey>()
    for (const [i, r] of rows.entries()) {
      const s = !damage[i] && states.get(r.checkpointId)
      if (s && 'state' in s)
        for (const [ch, owner] of Object.entries(s.state.owner))
          keys.set(blobKey(owner, ch), [r.threadId, owner, ch])
    }
    // A value shared by many checkpoints of the page is read once.
    const blobs = await readValues(this.db, keys, readable)
    const used = new Set<string>()
    return rows.map((row, i): ReadCheckpoint => {
      const own = damage[i]
      if (own) return { row, damage: own }
      const s = states.get(row.checkpointId) as ResolvedState
      if ('damage' in s) return { row, damage: s.damage }
      const bad = missingValue(row, s.state.owner, (k) => !!blobs.get(k))
      if (bad) return { row, damage: bad }
      const writes = writesOf(row)
      const tuple = toTuple(row, s.state, blobs, used, writes.rows)
      return writes.damage ? { row, tuple, damage: writes.damage } : { row, tuple }
    })
  }
}

/** What a run's batched puts chain on: the checkpoint put last on a stored thread. */
interface Head {
  checkpointId: string
  seq: number
  /** Its row's place in its chain (./rowStates): whether the next may be a delta. */
  place: ChainPlace
  /** Its state's owners, kept up to date by each put (the saver's own copy). */
  owner: Record<string, string>
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

function storedThread(config: CheckpointConfig): string {
  return storedThreadId(config.threadId, config.checkpointNs)
}

function addressOf(config: CheckpointConfig, checkpointId: string): CheckpointAddress {
  const ns = config.checkpointNs ?? ''
  return ns === ''
    ? { threadId: config.threadId, checkpointId }
    : { threadId: config.threadId, checkpointId, checkpointNs: ns }
}

/** A tuple read from a namespace's rows, addressed as the caller addressed it. */
function inNamespace(tuple: CheckpointTuple, config: CheckpointConfig): CheckpointTuple {
  if ((config.checkpointNs ?? '') === '') return tuple
  return {
    ...tuple,
    config: addressOf(config, tuple.config.checkpointId),
    parentConfig: tuple.parentConfig && addressOf(config, tuple.parentConfig.checkpointId),
  }
}

/** "thread t" or "namespace team:… of thread t", for messages. */
function where(config: CheckpointConfig): string {
  const ns = config.checkpointNs ?? ''
  return ns === '' ? `thread ${config.threadId}` : `namespace ${ns} of thread ${config.threadId}`
}
