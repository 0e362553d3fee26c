import type { CheckpointConfig, CheckpointSaver, CheckpointTuple } from '../core/checkpoint/types'
import { SuperstepDb, type TaskRunRow } from '../persistence/db'
import {
  DexieCheckpointSaver,
  type BatchedSaver,
  type ThreadSummary,
} from '../persistence/dexieSaver'
import { TaskRunLog } from '../persistence/taskRunLog'
import { ThreadImportWriter } from '../persistence/threadImport'
import { ThreadDirectory } from '../persistence/threadDirectory'
import { ThreadRepair } from '../persistence/threadRepair'
import { TimelineSource } from '../persistence/timelineSource'
import { profiled } from './stepProfile'
import { CodeCheckStore } from '../persistence/codeCheckStore'
import type { CodeCheckKeeper } from './codeChecks'

/** The saver the worker needs: a CheckpointSaver that can list and summarise its threads. */
export type WorkerSaver = CheckpointSaver & {
  listThreads(options?: { prefix?: string }): Promise<ThreadSummary[]>
  threadSummary(threadId: string): Promise<ThreadSummary | undefined>
  /** The subgraph namespaces the thread has checkpoints in, in the order they were first written. */
  namespaces(threadId: string): Promise<string[]>
  /** A run's view that commits its checkpoints in batches (absent or undefined: it doesn't). */
  batched?(): BatchedSaver | undefined
  /** getTuple of a checkpoint and of its parent (undefined when damaged), in one read. */
  getTupleAndParent?(
    config: CheckpointConfig,
  ): Promise<{ tuple: CheckpointTuple; parent: CheckpointTuple | undefined } | undefined>
}

/**
 * Longest a run's checkpoints (with their pending writes and task runs) wait in memory before
 * their batch is committed in one transaction; a pause, the run's end and every read commit
 * at once. The page hears of a checkpoint only once it is committed.
 */
export const CHECKPOINT_BATCH_MS = 50

/** Task runs join the batch of the run's checkpoints (one transaction for both). */
class TaskRunLogInBatches extends TaskRunLog {
  constructor(
    db: SuperstepDb,
    private readonly saver: DexieCheckpointSaver,
  ) {
    super(db)
  }

  override async record(rows: TaskRunRow[]): Promise<void> {
    const batched = this.saver.batched()
    if (!batched || !rows.length) return super.record(rows)
    await batched.recordTaskRuns(rows)
  }
}

/** The timeline reads the database directly: what a run has batched is committed first. */
class TimelineAfterBatches extends TimelineSource {
  constructor(
    db: SuperstepDb,
    private readonly saver: DexieCheckpointSaver,
  ) {
    super(db, saver.states)
  }

  override async read(...args: Parameters<TimelineSource['read']>) {
    await this.saver.settleBatches()
    return super.read(...args)
  }
}

/** Repair reads and cuts rows directly: what a run has batched is committed first. */
class RepairAfterBatches extends ThreadRepair {
  constructor(
    db: SuperstepDb,
    private readonly saver: DexieCheckpointSaver,
  ) {
    super(db)
  }

  override async repair(...args: Parameters<ThreadRepair['repair']>) {
    await this.saver.settleBatches()
    try {
      return await super.repair(...args)
    } finally {
      this.saver.states.forgetThread(args[0]) // its cut rows' states
    }
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
  /** What the sandbox said of code it checked, across page loads (a database of its own). */
  codeChecks?: CodeCheckKeeper
}

/** The worker's storage over one Dexie database. */
export function openDexieStorage(db: SuperstepDb | string): WorkerStorage {
  const database = typeof db === 'string' ? new SuperstepDb(db) : db
  // A run's checkpoints, pending writes and task runs: one transaction per batch.
  const saver = new DexieCheckpointSaver(database, {
    batchMs: CHECKPOINT_BATCH_MS,
    timeCommit: (commit) => profiled('batch.commit', commit),
  })
  return {
    saver,
    threads: new ThreadDirectory(database),
    taskRuns: new TaskRunLogInBatches(database, saver),
    timeline: new TimelineAfterBatches(database, saver),
    repair: new RepairAfterBatches(database, saver),
    imports: new ThreadImportWriter(database),
    codeChecks: new CodeCheckStore(`${database.name}-code-checks`),
  }
}
