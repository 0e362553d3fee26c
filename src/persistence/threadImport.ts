/**
 * Writes an imported thread in batches: many checkpoints per transaction, straight into the
 * tables, with the rows DexieCheckpointSaver's `put` and `putWrites` would have written one
 * call at a time (seq 1, 2, … in file order; each checkpoint owning the values of the channels
 * whose version differs from its parent's, stored as a delta of its parent as a run's would
 * be (./rowStates); its pending writes and task runs in its row). While it
 * runs the thread's row carries `importing` (refreshed by every batch), so an import that
 * never finished (a killed browser) can be found and deleted.
 */
import type { ChannelVersions, Checkpoint, CheckpointTuple } from '../core/checkpoint/types'
import { buildDeltaRow, buildRows, placeValues, putRun, takeOwnership } from './checkpointRows'
import type {
  BlobRow,
  CheckpointRow,
  StoredTaskRun,
  StoredWrite,
  SuperstepDb,
  TaskRunRow,
  ThreadRow,
} from './db'
import { mergeWrites } from './pendingWrites'
import { chainPlace, deltaPlace, type ChainPlace, type RowState } from './rowStates'
import { toStorageError } from './storageError'

/** What one import remembers between batches: each written checkpoint's state and chain place. */
export interface ImportCursor {
  threadId: string
  seq: number
  rows: Map<string, RowState & { place: ChainPlace }>
}

export class ThreadImportWriter {
  constructor(private readonly db: SuperstepDb) {}

  /** Writes the thread's row marked as importing (replacing any row it had). */
  async begin(row: ThreadRow, now: string): Promise<ImportCursor> {
    await this.putRow({ ...row, importing: now })
    return { threadId: row.threadId, seq: 0, rows: new Map() }
  }

  /**
   * Writes `tuples` (the next ones of the file, parents first) with their pending writes and
   * `taskRuns`, and refreshes the row's `importing` mark, in one transaction.
   */
  async writeBatch(
    cursor: ImportCursor,
    tuples: CheckpointTuple[],
    taskRuns: TaskRunRow[],
    row: ThreadRow,
    now: string,
  ): Promise<void> {
    const { threadId } = cursor
    const checkpointRows: CheckpointRow[] = []
    const blobRows: BlobRow[] = []
    // The runs from each checkpoint, stored in its row (the same task's last run wins).
    const runsFrom = new Map<string, StoredTaskRun[]>()
    for (const { threadId: _t, checkpointId, ...run } of taskRuns) {
      const list = runsFrom.get(checkpointId)
      if (list) putRun(list, run)
      else runsFrom.set(checkpointId, [run])
    }
    let seq = cursor.seq
    for (const t of tuples) {
      const parentId = t.parentConfig?.checkpointId
      const parent = parentId === undefined ? undefined : cursor.rows.get(parentId)
      const { checkpoint } = t
      const changed = Object.keys(
        parent
          ? changedVersions(checkpoint.channel_versions, parent.versions)
          : checkpoint.channel_versions,
      )
      const seen = parent && changedSeen(checkpoint, parent)
      let row: CheckpointRow
      const versions = pick(checkpoint.channel_versions, changed)
      const place =
        parentId !== undefined && parent && seen && deltaPlace(parent.place, versions, seen)
      if (parentId !== undefined && seen && place) {
        row = buildDeltaRow(
          threadId,
          parentId,
          ++seq,
          checkpoint,
          t.metadata,
          versions,
          seen,
          place,
        )
      } else {
        row = buildRows(threadId, parentId, parent?.owner, ++seq, checkpoint, t.metadata, changed)
      }
      blobRows.push(...placeValues(row, checkpoint, changed))
      checkpointRows.push(row)
      const owner = { ...parent?.owner }
      takeOwnership(owner, checkpoint, changed)
      cursor.rows.set(checkpoint.id, {
        versions: checkpoint.channel_versions,
        seen: checkpoint.versions_seen,
        owner,
        place: place || chainPlace(row),
      })
      const writes = storedWritesOf(t)
      if (writes.length) row.writes = writes
      const runs = runsFrom.get(checkpoint.id)
      if (runs) row.runs = runs
    }
    const { checkpoints, blobs, threads } = this.db
    const first = tuples[0]?.checkpoint.id
    try {
      await this.db.transaction('rw', [checkpoints, blobs, threads], async () => {
        await blobs.bulkPut(blobRows)
        await checkpoints.bulkPut(checkpointRows)
        await threads.put({ ...row, importing: now })
      })
    } catch (e) {
      throw toStorageError(e, `import checkpoints from ${first} on thread ${threadId}`, {
        threadId,
        ...(first !== undefined && { checkpointId: first }),
      })
    }
    cursor.seq = seq
  }

  /** Writes the finished thread's row (no `importing` mark). */
  finish(row: ThreadRow): Promise<void> {
    return this.putRow(row)
  }

  /** The rows of threads whose import has not finished (here or anywhere). */
  importing(): Promise<ThreadRow[]> {
    return this.db.threads.filter((r) => r.importing !== undefined).toArray()
  }

  private async putRow(row: ThreadRow): Promise<void> {
    try {
      await this.db.threads.put(row)
    } catch (e) {
      throw toStorageError(e, `store thread ${row.threadId}`, { threadId: row.threadId })
    }
  }
}

/**
 * The nodes whose `versions_seen` entry differs from the parent's, or undefined when the
 * checkpoint drops a channel or a node the parent has (a delta cannot say so: stored whole).
 */
function changedSeen(checkpoint: Checkpoint, parent: RowState): Set<string> | undefined {
  const { versions_seen: seen, channel_versions: versions } = checkpoint
  for (const ch of Object.keys(parent.versions)) if (!(ch in versions)) return undefined
  const out = new Set<string>()
  for (const name of Object.keys(parent.seen)) if (!(name in seen)) return undefined
  for (const [name, entry] of Object.entries(seen)) {
    const before = parent.seen[name]
    if (!before || !sameVersions(entry, before)) out.add(name)
  }
  return out
}

function sameVersions(a: ChannelVersions, b: ChannelVersions): boolean {
  const keys = Object.keys(a)
  if (keys.length !== Object.keys(b).length) return false
  return keys.every((k) => a[k] === b[k])
}

function pick(versions: ChannelVersions, channels: string[]): ChannelVersions {
  const out: ChannelVersions = {}
  for (const ch of channels) out[ch] = versions[ch] as number
  return out
}

function changedVersions(versions: ChannelVersions, parent: ChannelVersions): ChannelVersions {
  const out: ChannelVersions = {}
  for (const [ch, v] of Object.entries(versions)) if (parent[ch] !== v) out[ch] = v
  return out
}

/**
 * A checkpoint's pending writes as `putWrites` would store them on a fresh checkpoint: one
 * call per task (in the order each task first wrote), a regular write keyed by its index in
 * its call, a special write by its channel (a later one replacing the earlier in place).
 */
function storedWritesOf(t: CheckpointTuple): StoredWrite[] {
  const byTask = new Map<string, [string, unknown][]>()
  for (const [taskId, channel, value] of t.pendingWrites) {
    const list = byTask.get(taskId)
    if (list) list.push([channel, value])
    else byTask.set(taskId, [[channel, value]])
  }
  const out: StoredWrite[] = []
  const index = new Map<string, number>()
  for (const [taskId, writes] of byTask)
    mergeWrites(out, { threadId: '', checkpointId: '', taskId, writes }, index)
  return out
}
