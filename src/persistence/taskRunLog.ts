import { Dexie } from 'dexie'
import { rowDamage } from './damage'
import type { SuperstepDb, TaskRunRow } from './db'
import { toStorageError } from './storageError'

/**
 * What the worker recorded of each task run (the `taskRuns` table): durations, logs and
 * errors, keyed by the checkpoint the task ran from. Only the runtime worker uses it; a
 * thread's rows are deleted with its checkpoints (DexieCheckpointSaver.deleteThread).
 */
export class TaskRunLog {
  constructor(private readonly db: SuperstepDb) {}

  /** Stores rows (one super-step's, usually) in one write; a row of the same task is replaced. */
  async record(rows: TaskRunRow[]): Promise<void> {
    if (!rows.length) return
    const first = rows[0] as TaskRunRow
    try {
      await this.db.taskRuns.bulkPut(rows)
    } catch (e) {
      throw toStorageError(e, `record task runs on checkpoint ${first.checkpointId}`, {
        threadId: first.threadId,
        checkpointId: first.checkpointId,
      })
    }
  }

  /** The runs of tasks that ran from these checkpoints of one thread (damaged rows left out). */
  async ranFrom(threadId: string, checkpointIds: Iterable<string>): Promise<TaskRunRow[]> {
    const keys = [...new Set(checkpointIds)].map((id) => [threadId, id])
    if (!keys.length) return []
    return readable(await this.db.taskRuns.where('[threadId+checkpointId]').anyOf(keys).toArray())
  }

  /** Every run recorded on a thread (damaged rows left out: see ./damage). */
  async ofThread(threadId: string): Promise<TaskRunRow[]> {
    return readable(
      await this.db.taskRuns
        .where('[threadId+checkpointId+taskId]')
        .between([threadId, Dexie.minKey], [threadId, Dexie.maxKey])
        .toArray(),
    )
  }
}

function readable(rows: TaskRunRow[]): TaskRunRow[] {
  return rows.filter((r) => !rowDamage('taskRuns', r))
}
