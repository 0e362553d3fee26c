import type { CheckpointSaver } from '../core/checkpoint/types'
import { SuperstepDb } from '../persistence/db'
import { DexieCheckpointSaver, type ThreadSummary } from '../persistence/dexieSaver'
import { TaskRunLog } from '../persistence/taskRunLog'
import { ThreadImportWriter } from '../persistence/threadImport'
import { ThreadDirectory } from '../persistence/threadDirectory'
import { ThreadRepair } from '../persistence/threadRepair'
import { TimelineSource } from '../persistence/timelineSource'

/** The saver the worker needs: a CheckpointSaver that can list and summarise its threads. */
export type WorkerSaver = CheckpointSaver & {
  listThreads(options?: { prefix?: string }): Promise<ThreadSummary[]>
  threadSummary(threadId: string): Promise<ThreadSummary | undefined>
  /** The subgraph namespaces the thread has checkpoints in, in the order they were first written. */
  namespaces(threadId: string): Promise<string[]>
}

/** Everything the worker stores: checkpoints, named threads, task runs (one database). */
export interface WorkerStorage {
  saver: WorkerSaver
  threads: ThreadDirectory
  taskRuns: TaskRunLog
  /** The timeline's read of a history (no state values). */
  timeline: TimelineSource
  /** Cuts a thread's damaged part (repairThread). */
  repair: ThreadRepair
  /** An imported thread's batched writes (and the imports that never finished). */
  imports: ThreadImportWriter
}

/** The worker's storage over one Dexie database. */
export function openDexieStorage(db: SuperstepDb | string): WorkerStorage {
  const database = typeof db === 'string' ? new SuperstepDb(db) : db
  return {
    saver: new DexieCheckpointSaver(database),
    threads: new ThreadDirectory(database),
    taskRuns: new TaskRunLog(database),
    timeline: new TimelineSource(database),
    repair: new ThreadRepair(database),
    imports: new ThreadImportWriter(database),
  }
}
