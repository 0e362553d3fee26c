import type { CheckpointSaver } from '../core/checkpoint/types'
import { SuperstepDb, type TaskRunRow } from '../persistence/db'
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

/**
 * Longest a run's pending writes wait for its next checkpoint before being stored on their
 * own (a step that failed or was interrupted has no next checkpoint); reads never wait.
 */
export const PENDING_WRITES_DELAY_MS = 50

/**
 * The task-run log of a saver that defers pending writes: a run records its task runs when
 * it pauses or ends (and every TASK_RUNS_BATCH_MS meanwhile), so that is when the pending
 * writes of its last step go too, before the page hears of it and reads the timeline.
 */
class TaskRunLogAfterWrites extends TaskRunLog {
  constructor(
    db: SuperstepDb,
    private readonly saver: DexieCheckpointSaver,
  ) {
    super(db)
  }

  override async record(rows: TaskRunRow[]): Promise<void> {
    await this.saver.flushPendingWrites()
    await super.record(rows)
  }
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
  // A step's pending writes ride in its next checkpoint's transaction (one per step).
  const saver = new DexieCheckpointSaver(database, { deferWritesMs: PENDING_WRITES_DELAY_MS })
  return {
    saver,
    threads: new ThreadDirectory(database),
    taskRuns: new TaskRunLogAfterWrites(database, saver),
    timeline: new TimelineSource(database),
    repair: new ThreadRepair(database),
    imports: new ThreadImportWriter(database),
  }
}
