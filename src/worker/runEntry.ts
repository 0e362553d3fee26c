import type { RunStatus, TaskInterrupt } from '../core/pregel/loop'
import type { GraphRuntime } from '../core/pregel/runtime'
import type { GatedSaver } from './gatedSaver'
import type { RunOutcome } from './protocol'
import type { TaskRunRecorder } from './taskRunRecorder'
import type { Timer } from './timer'

/** The sandbox a run's code runs in: its own, destroyed when the run ends. */
export interface RunSandbox {
  /** Whether any of the run's code is waiting or running (a stopped run's reducer fold, say). */
  readonly busy: boolean
  release(): void
}

/** A run as the registry advances it: core's Run, or one beside the code (remoteRun.ts). */
export interface SteppedRun {
  tick(): Promise<RunStatus>
  readonly interrupts: readonly TaskInterrupt[]
}

/** What a run's work resolves to when the run was abandoned first. */
export const ABANDONED = Symbol('abandoned')

/** One run in the registry: its runtime, where it stands, and how it is abandoned. */
export class RunEntry {
  run: SteppedRun | undefined = undefined
  state: 'advancing' | 'paused' = 'advancing'
  /** A super-step (or the start) is in progress. */
  ticking = false
  pauseRequested = false
  /** Set once stop or timeout abandons the run; resolves to whether the sandbox restarts. */
  abandoning: Promise<boolean> | undefined = undefined
  /** No more events of this run reach the page. */
  closed = false
  /** Tasks of the current super-step that have not finished. */
  readonly inFlight = new Set<string>()
  stepStartedAt = 0
  lastCheckpointId: string | null = null
  /**
   * The deepest subgraph level whose super-steps pause the run (0: only the root's; -1: none,
   * advancing to the end); set by each advance from its mode.
   */
  pauseDepth = -1
  /** Each subgraph namespace's latest checkpoint in this run. */
  readonly innerLatest = new Map<string, { checkpointId: string; step: number }>()
  /** The root super-step in progress, left pending while the run is paused inside it. */
  pendingTick: Promise<unknown> | undefined = undefined
  /** Paused between two super-steps of a subgraph: where, and how to go on (or end). */
  inside: { ns: string; depth: number; go: () => void; end: (e: Error) => void } | undefined =
    undefined
  /** Tells the advance waiting in `waitInside` that a subgraph's run paused. */
  signalInside: () => void = () => {}
  /** The run's own sandbox, released when the run ends. */
  sandbox: RunSandbox | undefined = undefined
  /** The outcome of an abandoned run. */
  readonly abandoned: Promise<RunOutcome>
  /** Resolves to ABANDONED with `abandoned`, to race the run's work against. */
  readonly signal: Promise<typeof ABANDONED>
  private settle!: (o: RunOutcome) => void
  private spentMs = 0

  constructor(
    readonly runId: string,
    readonly threadId: string,
    readonly runtime: GraphRuntime,
    readonly gate: GatedSaver,
    readonly recorder: TaskRunRecorder,
    private readonly timeoutMs: number | undefined,
  ) {
    this.abandoned = new Promise((resolve) => (this.settle = resolve))
    this.signal = this.abandoned.then(() => ABANDONED)
  }

  /** Resolves when a subgraph's run pauses next (see `inside`). */
  waitInside(): Promise<void> {
    return new Promise((resolve) => (this.signalInside = resolve))
  }

  settleAbandoned(o: RunOutcome): void {
    this.settle(o)
  }

  /**
   * Arms the time budget for one advance (paused time does not count): `expire` runs when
   * it is used up. The returned function disarms it and books the time spent.
   */
  armBudget(timer: Timer, expire: (limitMs: number) => void): () => void {
    const limit = this.timeoutMs
    if (limit === undefined) return () => {}
    const began = timer.now()
    const handle = timer.set(() => expire(limit), Math.max(0, limit - this.spentMs))
    return () => {
      timer.clear(handle)
      this.spentMs += timer.now() - began
    }
  }
}
