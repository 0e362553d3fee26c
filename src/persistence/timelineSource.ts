import { Dexie, type Table } from 'dexie'
import type { CheckpointTuple } from '../core/checkpoint/types'
import type { BlobRow, CheckpointRow, SuperstepDb, TaskRunRow, WriteRow } from './db'
import { blobKey, toTuple } from './checkpointRows'

/** What a timeline of a thread is drawn from, read in one transaction. */
export interface TimelineRead {
  /** The page of checkpoints, newest first. Their values hold only the asked-for channels. */
  page: CheckpointTuple[]
  /** The page's checkpoints and the parents of its `loop` checkpoints, by id (values likewise). */
  byId: Map<string, CheckpointTuple>
  /** The task runs recorded on those parents. */
  taskRuns: TaskRunRow[]
}

/**
 * Reads a thread's history for the timeline without its state: checkpoint rows, the values
 * of a few channels only (the small ones that decide what runs next: triggers, Sends), the
 * pending writes and the task runs, each in one bulk read of one read transaction. A whole
 * thread is read by key ranges; a page by its keys.
 */
export class TimelineSource {
  constructor(private readonly db: SuperstepDb) {}

  async read(
    threadId: string,
    o: { limit?: number; before?: string; channels: ReadonlySet<string> },
  ): Promise<TimelineRead> {
    const { checkpoints, blobs, writes, taskRuns } = this.db
    const whole = o.limit === undefined && o.before === undefined
    const lo = [threadId, Dexie.minKey]
    const hi = [threadId, Dexie.maxKey]
    return this.db.transaction('r', [checkpoints, blobs, writes, taskRuns], async () => {
      let below = Infinity
      if (o.before !== undefined) {
        const before = await checkpoints.get([threadId, o.before])
        if (!before) return { page: [], byId: new Map(), taskRuns: [] }
        below = before.seq
      }
      let rows = checkpoints
        .where('[threadId+seq]')
        .between(lo, [threadId, below], true, false)
        .reverse()
      if (o.limit !== undefined) rows = rows.limit(o.limit)
      const page = await rows.toArray()
      const ids = new Set(page.map((r) => r.checkpointId))
      const parentIds = new Set<string>()
      for (const r of page)
        if (r.metadata.source === 'loop' && r.parentId) parentIds.add(r.parentId)
      const outside = [...parentIds].filter((id) => !ids.has(id))
      const extra = await checkpoints.bulkGet(outside.map((id) => [threadId, id]))
      const all = [...page, ...extra.filter((r): r is CheckpointRow => r !== undefined)]
      // A page reads each checkpoint's rows by its key, in parallel (one request each).
      const each = <T>(table: Table<T>, list: Iterable<string>) =>
        Promise.all(
          [...list].map((id) =>
            table.where('[threadId+checkpointId]').equals([threadId, id]).toArray(),
          ),
        ).then((lists) => lists.flat())
      const [writeRows, runs, values] = await Promise.all([
        whole
          ? writes.where('[threadId+checkpointId]').between(lo, hi).toArray()
          : each(writes, new Set(all.map((r) => r.checkpointId))),
        whole
          ? taskRuns.where('[threadId+checkpointId+taskId]').between(lo, hi).toArray()
          : each(taskRuns, parentIds),
        this.values(all, o.channels),
      ])
      const byCheckpoint = new Map<string, WriteRow[]>()
      for (const w of writeRows) {
        const list = byCheckpoint.get(w.checkpointId)
        if (list) list.push(w)
        else byCheckpoint.set(w.checkpointId, [w])
      }
      const used = new Set<string>()
      const byId = new Map<string, CheckpointTuple>()
      for (const r of all) {
        const owner = pick(r.owner, o.channels)
        const t = toTuple({ ...r, owner }, values, used, byCheckpoint.get(r.checkpointId) ?? [])
        byId.set(r.checkpointId, t)
      }
      return {
        page: page.map((r) => byId.get(r.checkpointId) as CheckpointTuple),
        byId,
        taskRuns: whole ? runs.filter((r) => parentIds.has(r.checkpointId)) : runs,
      }
    })
  }

  /** The value rows of `channels` of these checkpoints, each read once. */
  private async values(
    rows: CheckpointRow[],
    channels: ReadonlySet<string>,
  ): Promise<Map<string, BlobRow | undefined>> {
    const keys = new Map<string, [string, string, string]>()
    for (const r of rows)
      for (const [ch, owner] of Object.entries(r.owner))
        if (channels.has(ch)) keys.set(blobKey(owner, ch), [r.threadId, owner, ch])
    const found = await this.db.blobs.bulkGet([...keys.values()])
    const out = new Map<string, BlobRow | undefined>()
    ;[...keys.keys()].forEach((k, i) => out.set(k, found[i]))
    return out
  }
}

function pick(
  owner: Record<string, string>,
  channels: ReadonlySet<string>,
): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [ch, id] of Object.entries(owner)) if (channels.has(ch)) out[ch] = id
  return out
}
