import { Dexie, type Table } from 'dexie'
import type { CheckpointTuple } from '../core/checkpoint/types'
import type { BlobRow, CheckpointRow, SuperstepDb, TaskRunRow, WriteRow } from './db'
import {
  blobKey,
  checkpointRowDamage,
  missingValue,
  toTuple,
  writeRowDamage,
  type ReadCheckpoint,
} from './checkpointRows'
import { rowDamage, type CheckpointDamage } from './damage'
import { storedThreadId } from './namespaces'

/** What a timeline of a thread is drawn from, read in one transaction. */
export interface TimelineRead {
  /**
   * The page of checkpoints, newest first, each with its tuple (values hold only the
   * asked-for channels) or, when it cannot be read, without one; either way with the first
   * damage found in its rows (its own, its pending writes', its task runs').
   */
  page: ReadCheckpoint[]
  /** The readable checkpoints of the page and the parents of its `loop` ones, by id. */
  byId: Map<string, CheckpointTuple>
  /** The readable task runs recorded on those parents. */
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
    thread: string,
    o: { limit?: number; before?: string; channels: ReadonlySet<string>; checkpointNs?: string },
  ): Promise<TimelineRead> {
    // A subgraph's namespace is read as a thread of its own (namespaces.ts).
    const threadId = storedThreadId(thread, o.checkpointNs)
    const { checkpoints, blobs, writes, taskRuns } = this.db
    const whole = o.limit === undefined && o.before === undefined
    const lo = [threadId, Dexie.minKey]
    const hi = [threadId, Dexie.maxKey]
    return this.db.transaction('r', [checkpoints, blobs, writes, taskRuns], async () => {
      let below = Infinity
      if (o.before !== undefined) {
        const before = await checkpoints.get([threadId, o.before])
        if (!before || typeof before.seq !== 'number')
          return { page: [], byId: new Map(), taskRuns: [] }
        below = before.seq
      }
      let rows = checkpoints
        .where('[threadId+seq]')
        .between(lo, [threadId, below], true, false)
        .reverse()
      if (o.limit !== undefined) rows = rows.limit(o.limit)
      const page = await rows.toArray()
      const damage = new Map<string, CheckpointDamage>()
      const readable = (r: CheckpointRow) => {
        const d = checkpointRowDamage(r)
        if (d) damage.set(r.checkpointId, d)
        return !d
      }
      const ids = new Set(page.map((r) => r.checkpointId))
      const parentIds = new Set<string>()
      for (const r of page.filter(readable))
        if (r.metadata.source === 'loop' && r.parentId) parentIds.add(r.parentId)
      const outside = [...parentIds].filter((id) => !ids.has(id))
      const extra = await checkpoints.bulkGet(outside.map((id) => [threadId, id]))
      const all = [...page, ...extra.filter((r): r is CheckpointRow => r !== undefined)].filter(
        (r) => !damage.has(r.checkpointId) && readable(r),
      )
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
      // A damaged write or task run is left out; its checkpoint is marked (unless it is already).
      const note = (d: CheckpointDamage) =>
        !damage.has(d.checkpointId) && damage.set(d.checkpointId, d)
      const byCheckpoint = new Map<string, WriteRow[]>()
      for (const w of writeRows) {
        const bad = writeRowDamage(w)
        if (bad) {
          note(bad)
          continue
        }
        const list = byCheckpoint.get(w.checkpointId)
        if (list) list.push(w)
        else byCheckpoint.set(w.checkpointId, [w])
      }
      const goodRuns = runs.filter((r) => {
        const bad = taskRunDamage(r)
        if (bad) note(bad)
        return !bad
      })
      const used = new Set<string>()
      const byId = new Map<string, CheckpointTuple>()
      for (const r of all) {
        // Only the values read are checked: checking every value row of a page costs more than
        // the page (a missing state value shows when the checkpoint is inspected or run).
        const owner = pick(r.owner, o.channels)
        const missing = missingValue({ ...r, owner }, (k) => values.get(k) !== undefined)
        if (missing) {
          damage.set(r.checkpointId, missing)
          continue
        }
        const t = toTuple({ ...r, owner }, values, used, byCheckpoint.get(r.checkpointId) ?? [])
        byId.set(r.checkpointId, t)
      }
      return {
        page: page.map((row): ReadCheckpoint => {
          const tuple = byId.get(row.checkpointId)
          const d = damage.get(row.checkpointId)
          return { row, ...(tuple && { tuple }), ...(d && { damage: d }) }
        }),
        byId,
        taskRuns: whole ? goodRuns.filter((r) => parentIds.has(r.checkpointId)) : goodRuns,
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

/** Why a task run row cannot be read, as the damage of the checkpoint it ran from. */
function taskRunDamage(r: TaskRunRow): CheckpointDamage | undefined {
  const d = rowDamage('taskRuns', r)
  return (
    d && {
      threadId: r.threadId,
      checkpointId: r.checkpointId,
      table: 'taskRuns',
      field: d.field,
      reason: `the task run of ${r.taskId}: ${d.reason}`,
    }
  )
}

function pick(
  owner: Record<string, string>,
  channels: ReadonlySet<string>,
): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [ch, id] of Object.entries(owner)) if (channels.has(ch)) out[ch] = id
  return out
}
