import type { TaskLog } from '../core/compile/host'
import { errorMessage } from '../core/errorJson'
import type { RuntimeWarning } from '../core/pregel/task'
import type { TaskRunRow } from '../persistence/db'
import { profiled } from './stepProfile'

export interface TaskRunRecorderOptions {
  threadId: string
  /** Stores one super-step's rows (TaskRunLog.record); none when recording is off. */
  write?: (rows: TaskRunRow[]) => Promise<void>
  /** A step's rows could not be stored: said, not thrown (the run goes on). */
  warn: (step: number, message: string) => void
  /**
   * How long a flushed step may wait for later ones to share its write (default
   * TASK_RUNS_BATCH_MS); `settled()` writes at once, so a pause or a run's end never waits.
   */
  batchMs?: number
  /**
   * `write` only queues the rows with the saver's next commit (it resolves at that commit):
   * each step's rows are written as soon as flushed, writes overlapping.
   */
  writeJoinsCommits?: boolean
}

/** Default of TaskRunRecorderOptions.batchMs. */
export const TASK_RUNS_BATCH_MS = 100

/**
 * Collects what a run's tasks did (duration, logs, error) a super-step at a time and stores
 * them against the checkpoint each step ran from. Writes are not awaited by the step (the
 * next one overlaps them): a flushed step waits up to `batchMs` for later ones, and at most
 * one write is in flight, so a fast run costs an IndexedDB transaction every `batchMs`, not
 * one per step. `settled()`, which the run awaits before it reports a pause or its end,
 * writes what waits at once and resolves when every write has settled.
 */
export class TaskRunRecorder {
  private rows: TaskRunRow[] = []
  /** The current step's runtime warnings, kept with their task's row when the step is stored. */
  private warnings: RuntimeWarning[] = []
  private step = 0
  /** The checkpoint the current step runs from (where its pending writes go). */
  private from: string | undefined
  /** Steps flushed but not written yet (they wait for the write in flight). */
  private queued: { step: number; rows: TaskRunRow[] }[] = []
  private writing: Promise<void> | undefined
  private timer: ReturnType<typeof setTimeout> | undefined

  constructor(private readonly o: TaskRunRecorderOptions) {}

  /** The run stands on this checkpoint: the next step runs from it. */
  ranFrom(checkpointId: string): void {
    this.from = checkpointId
  }

  /** A task of the current step finished or failed. */
  task(
    step: number,
    t: {
      taskId: string
      name: string
      durationMs: number
      logs: TaskLog[]
      error?: { name: string; message: string }
    },
  ): void {
    if (!this.o.write) return
    this.step = step
    const row: TaskRunRow = {
      threadId: this.o.threadId,
      checkpointId: '', // known for sure once the step's writes are stored (see flush)
      taskId: t.taskId,
      name: t.name,
      durationMs: t.durationMs,
      logs: t.logs,
    }
    if (t.error) row.error = t.error
    this.rows.push(row)
  }

  /** The runtime warned about a task of the current step (its node's row keeps it). */
  warning(w: RuntimeWarning): void {
    if (this.o.write) this.warnings.push(w)
  }

  /** Stores the current step's rows (now, or with the next write), without waiting for it. */
  flush(): void {
    const rows = this.rows
    const write = this.o.write
    const warnings = this.warnings
    this.warnings = []
    if (!rows.length || !write) return
    this.rows = []
    for (const w of warnings) {
      const row = rows.find((r) => r.name === w.node)
      if (!row) continue
      const kept = {
        code: w.code,
        message: w.message,
        ...(w.field !== undefined && { field: w.field }),
      }
      ;(row.warnings ??= []).push(kept)
    }
    const { step, from } = this
    if (from === undefined) {
      this.o.warn(
        step,
        `The task runs of step ${step} were not recorded: no checkpoint to record them against.`,
      )
      return
    }
    for (const r of rows) r.checkpointId = from
    this.queued.push({ step, rows })
    if (this.o.writeJoinsCommits) {
      this.writeQueued(write)
      return
    }
    this.timer ??= setTimeout(() => {
      this.timer = undefined
      this.writeQueued(write)
    }, this.o.batchMs ?? TASK_RUNS_BATCH_MS)
  }

  /** Writes every queued step in one write, unless a write is in flight (it goes next). */
  private writeQueued(write: (rows: TaskRunRow[]) => Promise<void>): void {
    if (this.timer !== undefined) clearTimeout(this.timer)
    this.timer = undefined
    if ((this.writing && !this.o.writeJoinsCommits) || !this.queued.length) return
    const steps = this.queued
    this.queued = []
    const rows = steps.flatMap((s) => s.rows)
    const before = this.writing
    const writing: Promise<void> = profiled('taskRuns.write', async () => write(rows))
      .catch((e: unknown) => {
        const why = errorMessage(e)
        for (const { step } of steps)
          this.o.warn(step, `The durations and logs of step ${step} were not recorded: ${why}`)
      })
      // Joining commits, writes overlap: this one settles after those before it.
      .then(() => before)
      .finally(() => {
        if (this.writing !== writing) return
        this.writing = undefined
        this.writeQueued(write)
      })
    this.writing = writing
  }

  /** Forgets the current step's rows (an abandoned step). */
  discard(): void {
    this.rows = []
    this.warnings = []
  }

  /** Resolves when every step flushed so far is written (or said not to be). */
  async settled(): Promise<void> {
    if (this.o.write) this.writeQueued(this.o.write)
    while (this.writing) await this.writing
  }
}
