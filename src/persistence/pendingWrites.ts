/**
 * Pending writes (CheckpointSaver.putWrites) and task runs as entries of their checkpoint's
 * row, and the queue that lets a run's writes ride in the transaction of its next checkpoint
 * instead of one of their own.
 */
import { SPECIAL_WRITE_CHANNELS } from '../core/checkpoint/types'
import { putRun } from './checkpointRows'
import type { CheckpointRow, StoredWrite, SuperstepDb, TaskRunRow } from './db'

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
 * Adds pending writes (putWrites calls, in order) and task runs to the rows of the stored
 * checkpoints they are on, and stores those rows; Dexie calls only, inside a transaction over
 * `checkpoints`. A write on a checkpoint that isn't stored throws MissingCheckpointError
 * (`where` names its thread); a run from one is dropped (nothing could show it). A damaged
 * list (not a list) is replaced by the new entries.
 */
export async function storeOnRows(
  db: SuperstepDb,
  writes: readonly WriteBatch[],
  runs: readonly TaskRunRow[],
  where: (threadId: string) => string = (t) => `thread ${t}`,
): Promise<void> {
  if (!writes.length && !runs.length) return
  const keys = new Map<string, [string, string]>()
  for (const r of [...writes, ...runs])
    keys.set(`${r.threadId}\0${r.checkpointId}`, [r.threadId, r.checkpointId])
  const found = await db.checkpoints.bulkGet([...keys.values()])
  const rows = new Map<string, CheckpointRow>()
  ;[...keys.keys()].forEach((k, i) => {
    const r = found[i]
    if (r) rows.set(k, { ...r })
  })
  for (const w of writes) {
    const row = rows.get(`${w.threadId}\0${w.checkpointId}`)
    if (!row)
      throw new MissingCheckpointError(`No checkpoint ${w.checkpointId} on ${where(w.threadId)}.`)
    row.writes = Array.isArray(row.writes) ? [...row.writes] : []
    mergeWrites(row.writes, w)
  }
  for (const { threadId, checkpointId, ...run } of runs) {
    const row = rows.get(`${threadId}\0${checkpointId}`)
    if (!row) continue
    row.runs = Array.isArray(row.runs) ? [...row.runs] : []
    putRun(row.runs, run)
  }
  await db.checkpoints.bulkPut([...rows.values()])
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
