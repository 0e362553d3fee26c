import { Dexie } from 'dexie'
import { putRun } from './checkpointBatch'
import { taskRunsOf } from './checkpointRows'
import type { CheckpointRow, SuperstepDb, TaskRunRow } from './db'
import { toStorageError } from './storageError'

/**
 * What the worker recorded of each task run (durations, logs and errors), stored in the row
 * of the checkpoint the task ran from. Only the runtime worker uses it; a thread's runs are
 * deleted with its checkpoints (DexieCheckpointSaver.deleteThread).
 */
export class TaskRunLog {
  constructor(private readonly db: SuperstepDb) {}

  /**
   * Stores rows (one super-step's, usually) in one write; a run of the same task is replaced.
   * A run from a checkpoint that is not stored is dropped (nothing could show it).
   */
  async record(rows: TaskRunRow[]): Promise<void> {
    if (!rows.length) return
    const first = rows[0] as TaskRunRow
    const { checkpoints } = this.db
    const keys = new Map<string, [string, string]>()
    for (const r of rows) keys.set(`${r.threadId}\0${r.checkpointId}`, [r.threadId, r.checkpointId])
    try {
      await this.db.transaction('rw', checkpoints, async () => {
        const found = await checkpoints.bulkGet([...keys.values()])
        const byKey = new Map<string, CheckpointRow>()
        ;[...keys.keys()].forEach((k, i) => {
          const r = found[i]
          // A damaged list is left for repair to see; the runs go to a list of their own.
          if (r) byKey.set(k, { ...r, runs: Array.isArray(r.runs) ? [...r.runs] : [] })
        })
        for (const r of rows) {
          const row = byKey.get(`${r.threadId}\0${r.checkpointId}`)
          const { threadId: _t, checkpointId: _c, ...run } = r
          if (row) putRun(row.runs ?? [], run)
        }
        await checkpoints.bulkPut([...byKey.values()])
      })
    } catch (e) {
      throw toStorageError(e, `record task runs on checkpoint ${first.checkpointId}`, {
        threadId: first.threadId,
        checkpointId: first.checkpointId,
      })
    }
  }

  /** The runs of tasks that ran from these checkpoints of one thread (damaged runs left out). */
  async ranFrom(threadId: string, checkpointIds: Iterable<string>): Promise<TaskRunRow[]> {
    const keys = [...new Set(checkpointIds)].map((id): [string, string] => [threadId, id])
    if (!keys.length) return []
    const rows = await this.db.checkpoints.bulkGet(keys)
    return rows.flatMap((r) => (r ? taskRunsOf(r).rows : []))
  }

  /**
   * Every run recorded on a thread (damaged runs left out: see ./damage), by checkpoint id,
   * then task id.
   */
  async ofThread(threadId: string): Promise<TaskRunRow[]> {
    const rows = await this.db.checkpoints
      .where('[threadId+checkpointId]')
      .between([threadId, Dexie.minKey], [threadId, Dexie.maxKey])
      .toArray()
    return rows.flatMap((r) =>
      taskRunsOf(r).rows.sort((a, b) => (a.taskId < b.taskId ? -1 : a.taskId > b.taskId ? 1 : 0)),
    )
  }
}
