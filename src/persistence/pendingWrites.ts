/**
 * Pending writes (CheckpointSaver.putWrites) as entries of their checkpoint's row, and the queue that lets a run's
 * writes ride in the transaction of its next checkpoint instead of one of their own.
 */
import { SPECIAL_WRITE_CHANNELS } from '../core/checkpoint/types'
import type { StoredWrite, SuperstepDb } from './db'

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
 * Stores one putWrites call in its checkpoint's row; Dexie calls only, inside a transaction
 * over `checkpoints`. Throws MissingCheckpointError when its checkpoint isn't stored.
 */
export async function storeWrites(db: SuperstepDb, b: WriteBatch, where: string): Promise<void> {
  const row = await db.checkpoints.get([b.threadId, b.checkpointId])
  if (!row) throw new MissingCheckpointError(`No checkpoint ${b.checkpointId} on ${where}.`)
  // A damaged list is left as it is for repair to see; the writes go to a list of their own.
  const list = Array.isArray(row.writes) ? [...row.writes] : []
  if (mergeWrites(list, b)) await db.checkpoints.put({ ...row, writes: list })
}

/**
 * Adds one putWrites call to its checkpoint's writes (`list`, in the order first stored);
 * says whether it changed. A regular write already stored under (task, index) wins; a
 * special one (error, interrupt…) replaces the stored one in place, keeping its position.
 */
export function mergeWrites(
  list: StoredWrite[],
  b: WriteBatch,
  /** Where each (task, key) of `list` is (`writeIndex`), kept up to date; built when absent. */
  index: Map<string, number> = writeIndex(list),
): boolean {
  const { taskId } = b
  let changed = false
  b.writes.forEach(([channel, value], i) => {
    const special = SPECIAL_WRITE_CHANNELS.has(channel)
    const key = special ? channel : String(i)
    const at = index.get(`${taskId}\0${key}`)
    if (at !== undefined && !special) return // a regular write already stored under (task, index) wins
    const entry: StoredWrite = { taskId, key, channel, value }
    if (at !== undefined) list[at] = entry
    else index.set(`${taskId}\0${key}`, list.push(entry) - 1)
    changed = true
  })
  return changed
}

/** Each write's place in `list`, by task and key. */
export function writeIndex(list: readonly StoredWrite[]): Map<string, number> {
  return new Map(list.map((w, i) => [`${w.taskId}\0${w.key}`, i]))
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
