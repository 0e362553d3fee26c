/**
 * Pending writes (CheckpointSaver.putWrites) as database rows, and the queue that lets a run's
 * writes ride in the transaction of its next checkpoint instead of one of their own.
 */
import { Dexie } from 'dexie'
import { SPECIAL_WRITE_CHANNELS } from '../core/checkpoint/types'
import type { SuperstepDb, WriteRow } from './db'

/** One putWrites call, on a stored thread id (namespace included). */
export interface WriteBatch {
  threadId: string
  checkpointId: string
  taskId: string
  writes: [string, unknown][]
}

/** A putWrites on a checkpoint that isn't stored: a caller's bug, not storage. */
export class MissingCheckpointError extends Error {
  override readonly name = 'MissingCheckpointError'
}

/**
 * Stores one putWrites call; Dexie calls only, inside a transaction over `checkpoints` and
 * `writes`. Throws MissingCheckpointError when its checkpoint isn't stored. A regular write
 * already stored under (task, index) wins; a special one (error, interrupt…) replaces the
 * stored one in place.
 */
export async function storeWrites(db: SuperstepDb, b: WriteBatch, where: string): Promise<void> {
  const { threadId, checkpointId, taskId } = b
  // Both reads in one round trip: each await is a trip to the browser's IndexedDB.
  const [target, existing] = await Promise.all([
    db.checkpoints.get([threadId, checkpointId]),
    db.writes
      .where('[threadId+checkpointId+taskId+key]')
      .between(
        [threadId, checkpointId, taskId, Dexie.minKey],
        [threadId, checkpointId, taskId, Dexie.maxKey],
      )
      .toArray(),
  ])
  if (!target) throw new MissingCheckpointError(`No checkpoint ${checkpointId} on ${where}.`)
  const rows = mergeWrites(b, new Map(existing.map((w) => [w.key, w])))
  if (rows.size) await db.writes.bulkPut([...rows.values()])
}

/**
 * The rows one putWrites call adds or replaces, by key, given the rows already stored for its
 * (checkpoint, task) by key. A regular write already stored under (task, index) wins; a
 * special one (error, interrupt…) replaces the stored one in place (keeping its id).
 */
export function mergeWrites(
  b: WriteBatch,
  stored: ReadonlyMap<string, WriteRow>,
): Map<string, WriteRow> {
  const { threadId, checkpointId, taskId } = b
  // Insertion-ordered: a second special write of this call replaces the first in place.
  const rows = new Map<string, WriteRow>()
  b.writes.forEach(([channel, value], i) => {
    const special = SPECIAL_WRITE_CHANNELS.has(channel)
    const key = special ? channel : String(i)
    const prev = rows.get(key) ?? stored.get(key)
    if (prev && !special) return // a regular write already stored under (task, index) wins
    const id = prev?.id // an upsert keeps the row, hence its position
    rows.set(key, {
      ...(id !== undefined && { id }),
      threadId,
      checkpointId,
      taskId,
      key,
      channel,
      value,
    })
  })
  return rows
}

/**
 * Pending writes accepted but not yet stored. They go into the transaction of the next
 * checkpoint put (`take`), or, when none comes within `delayMs`, into one of their own
 * (`flush`, also called before every read so the saver reads what it was given). A failure
 * of such a flush is kept and thrown by the next write (`takeError`).
 */
export class DeferredWrites {
  private queue: WriteBatch[] = []
  private timer: ReturnType<typeof setTimeout> | undefined
  private flushing: Promise<void> | undefined
  private error: unknown

  constructor(
    private readonly delayMs: number,
    private readonly write: (batches: WriteBatch[]) => Promise<void>,
  ) {}

  add(b: WriteBatch): void {
    this.queue.push(b)
    this.timer ??= setTimeout(() => {
      this.timer = undefined
      void this.flush().catch(() => undefined) // kept for the next write (takeError)
    }, this.delayMs)
  }

  /** Everything queued, now the caller's to store (in its own transaction). */
  take(): WriteBatch[] {
    if (this.timer !== undefined) clearTimeout(this.timer)
    this.timer = undefined
    const q = this.queue
    this.queue = []
    return q
  }

  /** Stores everything queued in one transaction; resolves when every flush so far settled. */
  async flush(): Promise<void> {
    const batches = this.take()
    if (batches.length) {
      const before = this.flushing
      const p = (async () => {
        await before?.catch(() => undefined)
        await this.write(batches)
      })()
      this.flushing = p
      const done = () => {
        if (this.flushing === p) this.flushing = undefined
      }
      p.then(done, (e: unknown) => {
        this.error ??= e
        done()
      })
    }
    await this.flushing
  }

  /** Waits for a flush in progress; throws (once) what a flush no caller awaited failed with. */
  async takeError(): Promise<void> {
    await this.flushing?.catch(() => undefined)
    const e = this.error
    this.error = undefined
    if (e !== undefined) throw e
  }
}
