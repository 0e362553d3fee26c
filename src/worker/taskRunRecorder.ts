import type { TaskLog } from '../core/compile/host'
import { errorMessage } from '../core/errorJson'
import type { RuntimeWarning } from '../core/pregel/task'
import type { TaskRunRow } from '../persistence/db'

export interface TaskRunRecorderOptions {
  threadId: string
  /** Stores one super-step's rows (TaskRunLog.record); none when recording is off. */
  write?: (rows: TaskRunRow[]) => Promise<void>
  /** A step's rows could not be stored: said, not thrown (the run goes on). */
  warn: (step: number, message: string) => void
}

/**
 * Collects what a run's tasks did (duration, logs, error) a super-step at a time and stores
 * each step's rows in one write, against the checkpoint the step ran from. Writes are not
 * awaited by the step (the next one overlaps them); `settled()` waits for them all, before
 * the run reports how it ended.
 */
export class TaskRunRecorder {
  private rows: TaskRunRow[] = []
  /** The current step's runtime warnings, kept with their task's row when the step is stored. */
  private warnings: RuntimeWarning[] = []
  private step = 0
  /** The checkpoint the current step runs from (where its pending writes go). */
  private from: string | undefined
  private readonly writing = new Set<Promise<void>>()

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

  /** Stores the current step's rows (one write), without waiting for it. */
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
    const p = (async () => write(rows))().catch((e: unknown) => {
      const why = errorMessage(e)
      this.o.warn(step, `The durations and logs of step ${step} were not recorded: ${why}`)
    })
    this.writing.add(p)
    void p.finally(() => this.writing.delete(p))
  }

  /** Forgets the current step's rows (an abandoned step). */
  discard(): void {
    this.rows = []
    this.warnings = []
  }

  /** Resolves when every write started so far has settled. */
  async settled(): Promise<void> {
    await Promise.all([...this.writing])
  }
}
