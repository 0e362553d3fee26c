import { Dexie } from 'dexie'
import { taskRunsOf } from './checkpointRows'
import type { SuperstepDb, TaskRunRow } from './db'
import { storeOnRows } from './pendingWrites'
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
    try {
      await this.db.transaction('rw', this.db.checkpoints, () => storeOnRows(this.db, [], rows))
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
