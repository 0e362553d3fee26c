import { Dexie } from 'dexie'
import type { SuperstepDb, ThreadRow } from './db'
import { toStorageError } from './storageError'

/**
 * The named threads (the `threads` table). Only the runtime worker uses it; a thread's row
 * is deleted with its checkpoints (DexieCheckpointSaver.deleteThread).
 */
export class ThreadDirectory {
  constructor(private readonly db: SuperstepDb) {}

  get(threadId: string): Promise<ThreadRow | undefined> {
    return this.db.threads.get(threadId)
  }

  /** The rows of these threads (undefined where a thread has none), in the same order. */
  getMany(threadIds: string[]): Promise<(ThreadRow | undefined)[]> {
    return this.db.threads.bulkGet(threadIds)
  }

  /** The rows of one graph's threads, or every row. */
  list(graph?: string): Promise<ThreadRow[]> {
    const { threads } = this.db
    return graph === undefined ? threads.toArray() : threads.where('graph').equals(graph).toArray()
  }

  /** Creates or replaces a thread's row. */
  async put(row: ThreadRow): Promise<void> {
    try {
      await this.db.threads.put(row)
    } catch (e) {
      throw toStorageError(e, `store thread ${row.threadId}`, { threadId: row.threadId })
    }
  }

  /** How many checkpoints the thread has (a count over the index, no rows read). */
  checkpointCount(threadId: string): Promise<number> {
    return this.db.checkpoints
      .where('[threadId+seq]')
      .between([threadId, Dexie.minKey], [threadId, Dexie.maxKey])
      .count()
  }
}
