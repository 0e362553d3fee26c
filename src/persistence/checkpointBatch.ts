/**
 * A run's checkpoints, with their pending writes and task runs, held in memory and committed
 * in one IndexedDB transaction per batch (see DexieCheckpointSaver.batched): a batch commits
 * `delayMs` after its first row, at once when it holds `maxCheckpoints`, and whenever someone
 * flushes (a run's pause or end, every read). One commit is in flight at a time; rows added
 * meanwhile go into the next batch; a run whose puts outpace the commits waits for `room()`
 * (at most two full batches pending), so memory and the page's lag stay bounded. A failed commit loses its batch and every batch behind it
 * (they may build on its checkpoints); the failure is thrown by the run's next put or flush.
 */
import { Dexie } from 'dexie'
import type {
  BlobRow,
  CheckpointRow,
  StoredTaskRun,
  StoredWrite,
  SuperstepDb,
  TaskRunRow,
} from './db'
import { putRun } from './checkpointRows'
import { mergeWrites, MissingCheckpointError, storeOnRows, type WriteBatch } from './pendingWrites'
import { toStorageError } from './storageError'

/** What a run learns about the commits of its checkpoints. */
export interface CommitStatus {
  /** Commits everything put so far; rejects (once) with a failed commit not reported yet. */
  flush(): Promise<void>
  /** Put, but not committed yet: not to be shown as saved. */
  isPending(checkpointId: string): boolean
  /** Put, but its batch failed: never stored. */
  isLost(checkpointId: string): boolean
  /** `listener` runs after each batch settles (committed or lost); returns the unsubscribe. */
  onSettled(listener: () => void): () => void
}

/** What one transaction stores. */
class Batch {
  readonly rows: CheckpointRow[] = []
  readonly blobs: BlobRow[] = []
  /**
   * Pending writes on this batch's checkpoints, merged in memory (in first-write order), by
   * `thread\0checkpoint`, with where each (task, key) is.
   */
  readonly writes = new Map<string, { list: StoredWrite[]; index: Map<string, number> }>()
  /** Pending writes on checkpoints committed before (merged with what is stored). */
  readonly earlierWrites: WriteBatch[] = []
  /** Task runs from this batch's checkpoints, by `thread\0checkpoint`. */
  readonly runs = new Map<string, StoredTaskRun[]>()
  /** Task runs from checkpoints committed before. */
  readonly earlierRuns: TaskRunRow[] = []
  /** `thread\0checkpoint` of this batch's checkpoints. */
  readonly keys = new Set<string>()
  /** Settles with this batch's commit. */
  readonly settled: Promise<void>
  resolve!: () => void
  reject!: (e: unknown) => void

  constructor() {
    this.settled = new Promise<void>((resolve, reject) => {
      this.resolve = resolve
      this.reject = reject
    })
    this.settled.catch(() => undefined) // awaited by those who care
  }

  get empty(): boolean {
    return (
      !this.rows.length &&
      !this.writes.size &&
      !this.earlierWrites.length &&
      !this.runs.size &&
      !this.earlierRuns.length
    )
  }
}

const keyOf = (threadId: string, checkpointId: string) => `${threadId}\0${checkpointId}`

export class CheckpointBatches implements CommitStatus {
  private open = new Batch()
  private timer: ReturnType<typeof setTimeout> | undefined
  /** The last commit started (each waits for the one before). */
  private committing: Promise<void> | undefined
  private error: unknown
  private readonly pending = new Set<string>()
  private readonly lost = new Set<string>()
  private readonly listeners = new Set<() => void>()

  constructor(
    private readonly db: SuperstepDb,
    private readonly delayMs: number,
    private readonly maxCheckpoints = 200,
    /** Wraps each batch's commit (a bench's timing hook; see DexieSaverOptions.timeCommit). */
    private readonly timeCommit: (commit: () => Promise<void>) => Promise<void> = (c) => c(),
  ) {}

  /** Resolves once fewer than two full batches of checkpoints wait for their commit. */
  async room(): Promise<void> {
    while (this.pending.size >= 2 * this.maxCheckpoints && this.committing)
      await this.committing.catch(() => undefined)
  }

  /** Whether the checkpoint is in the batch still open (its writes merge in memory). */
  holds(threadId: string, checkpointId: string): boolean {
    return this.open.keys.has(keyOf(threadId, checkpointId))
  }

  /** A checkpoint's row and the value rows it introduces (copies the caller won't touch). */
  addCheckpoint(row: CheckpointRow, blobs: BlobRow[]): void {
    const b = this.open
    b.rows.push(row)
    b.blobs.push(...blobs)
    b.keys.add(keyOf(row.threadId, row.checkpointId))
    this.pending.add(row.checkpointId)
    if (b.rows.length >= this.maxCheckpoints) void this.commit().catch(() => undefined)
    else this.schedule()
  }

  /** One putWrites call (values copied), on a checkpoint of the open batch or committed before. */
  addWrites(w: WriteBatch): void {
    const b = this.open
    if (!this.holds(w.threadId, w.checkpointId)) b.earlierWrites.push(w)
    else {
      const key = keyOf(w.threadId, w.checkpointId)
      let on = b.writes.get(key)
      if (!on) b.writes.set(key, (on = { list: [], index: new Map() }))
      mergeWrites(on.list, w, on.index)
    }
    this.schedule()
  }

  /** Task runs to store with the batch; resolves once they are committed. */
  addTaskRuns(rows: TaskRunRow[]): Promise<void> {
    const b = this.open
    for (const r of rows) {
      if (!this.holds(r.threadId, r.checkpointId)) {
        b.earlierRuns.push(r)
        continue
      }
      const key = keyOf(r.threadId, r.checkpointId)
      const { threadId: _t, checkpointId: _c, ...run } = r
      const list = b.runs.get(key)
      if (list) putRun(list, run)
      else b.runs.set(key, [run])
    }
    this.schedule()
    return b.settled
  }

  isPending(checkpointId: string): boolean {
    return this.pending.has(checkpointId)
  }

  isLost(checkpointId: string): boolean {
    return this.lost.has(checkpointId)
  }

  onSettled(listener: () => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** Commits everything so far and waits, keeping a failure for the run (`takeError`). */
  async settle(): Promise<void> {
    await this.commit().catch(() => undefined)
  }

  async flush(): Promise<void> {
    await this.settle()
    this.takeError()
  }

  /** Throws (once) the failure of a commit no one was told of yet. */
  takeError(): void {
    const e = this.error
    this.error = undefined
    if (e !== undefined) throw e
  }

  private schedule(): void {
    this.timer ??= setTimeout(() => {
      this.timer = undefined
      void this.commit().catch(() => undefined)
    }, this.delayMs)
  }

  /** Starts committing the open batch (after the commit in flight); resolves when all settled. */
  private commit(): Promise<void> {
    if (this.timer !== undefined) clearTimeout(this.timer)
    this.timer = undefined
    const b = this.open
    if (b.empty) return this.committing ?? Promise.resolve()
    this.open = new Batch()
    const before = this.committing
    const run = { p: Promise.resolve() }
    run.p = (async () => {
      await undefined // `run.p` is set before any of this runs
      try {
        // Behind a lost batch, this one may build on its checkpoints: lost too.
        if (before) await before
        await this.timeCommit(() => this.store(b))
        for (const r of b.rows) this.pending.delete(r.checkpointId)
        b.resolve()
      } catch (e) {
        this.error ??= e
        for (const r of b.rows) {
          this.pending.delete(r.checkpointId)
          this.lost.add(r.checkpointId)
        }
        b.reject(e)
        throw e
      } finally {
        if (this.committing === run.p) this.committing = undefined
        for (const l of [...this.listeners]) l()
      }
    })()
    this.committing = run.p
    return run.p
  }

  private async store(b: Batch): Promise<void> {
    const { checkpoints, blobs } = this.db
    const threads = [...new Set(b.rows.map((r) => r.threadId))]
    try {
      // Dexie calls only in here: anything else would end the transaction.
      await this.db.transaction('rw', [checkpoints, blobs], async () => {
        // Writes on, and runs from, checkpoints committed before go into their rows.
        const [lasts] = await Promise.all([
          Promise.all(
            threads.map((t) =>
              checkpoints
                .where('[threadId+seq]')
                .between([t, Dexie.minKey], [t, Dexie.maxKey])
                .last(),
            ),
          ),
          storeOnRows(this.db, b.earlierWrites, b.earlierRuns),
        ])
        // Numbered after what is stored now (another tab may have added to the thread).
        const seq = new Map(threads.map((t, i) => [t, lasts[i]?.seq ?? 0]))
        for (const r of b.rows) {
          const s = (seq.get(r.threadId) ?? 0) + 1
          seq.set(r.threadId, s)
          r.seq = s
          // The writes on it and the runs from it, put meanwhile, go in its row.
          const key = keyOf(r.threadId, r.checkpointId)
          const writes = b.writes.get(key)
          if (writes) r.writes = writes.list
          const runs = b.runs.get(key)
          if (runs) r.runs = runs
        }
        await Promise.all([blobs.bulkPut(b.blobs), checkpoints.bulkPut(b.rows)])
      })
    } catch (e) {
      if (e instanceof MissingCheckpointError) throw e
      const first = b.rows[0] ?? b.earlierWrites[0] ?? b.earlierRuns[0]
      const threadId = first?.threadId ?? ''
      const n = b.rows.length
      throw toStorageError(e, `store ${n} checkpoint${n === 1 ? '' : 's'} of thread ${threadId}`, {
        threadId,
        ...(b.rows[0] && { checkpointId: b.rows[0].checkpointId }),
      })
    }
  }
}
