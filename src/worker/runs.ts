import type { CheckpointSaver } from '../core/checkpoint/types'
import type { CompiledGraph } from '../core/compile/compileGraph'
import type { LoopEvent, RunConfig } from '../core/pregel/loop'
import { nsNodes } from '../core/pregel/namespace'
import { GraphRuntime } from '../core/pregel/runtime'
import { STREAM_MODES, StreamProducer, isStreamMode, type StreamMode } from '../core/pregel/stream'
import type { StreamPoint } from '../core/pregel/streamPoints'
import { DEFAULT_RECURSION_LIMIT } from '../core/pregel/loop'
import { toJsonSafe } from './jsonSafe'
import type { RuntimeEnv } from '../lib/env'
import type { TaskRunRow } from '../persistence/db'
import type { BatchedSaver } from '../persistence/dexieSaver'
import { ThreadBusyError, toWorkerError, WorkerRequestError } from './errors'
import { GatedSaver } from './gatedSaver'
import { ABANDONED, RunEntry, type RunSandbox, type SteppedRun } from './runEntry'
import { RemoteRun, type RemoteRunOptions } from './remoteRun'
import type { PauseReason, RunMode, RunOutcome, WorkerError, WorkerEvent } from './protocol'
import { interruptPlaces, logsOf, toInterruptInfo, toWorkerEvent } from './runEvents'
import { SavedEventGate } from './savedEvents'
import { runningElsewhere, type ThreadLocks } from './threadLocks'
import { TaskRunRecorder } from './taskRunRecorder'
import { systemTimer, type Timer } from './timer'

export interface RunRegistryOptions {
  /**
   * With `batched()`, each run puts through that view (its checkpoints commit in batches): a
   * `checkpoint_saved` reaches the page once committed, and a pause or end commits first.
   */
  saver: CheckpointSaver & { batched?(): BatchedSaver | undefined }
  env: RuntimeEnv
  emit: (e: WorkerEvent) => void
  /**
   * Stores one super-step's task runs (durations, logs, errors); called once per step,
   * not awaited by it. A rejection becomes a `warning` event, never a failed run.
   */
  recordTaskRuns?: (rows: TaskRunRow[]) => Promise<void>
  /** An abandoned run still had code running: its sandbox was destroyed with it. */
  sandboxRestarted?: (threadIds: string[]) => void
  timer?: Timer
  /** Advancing yields to the event loop this often, so pause/stop requests get through. */
  yieldEveryMs?: number
  /** One run per thread across tabs (absent: this registry is the only one). */
  locks?: ThreadLocks
}

export interface StartRun {
  /** The graph, its code bound to `sandbox`. */
  graph: CompiledGraph
  sandbox?: RunSandbox
  graphId: string
  /** New input, null, or a Command. */
  input: unknown
  config: RunConfig
  timeoutMs?: number
  mode: RunMode
  /**
   * Runs the loop in the run's sandbox, beside the code (remoteRun.ts): how. Absent: the loop
   * runs here and calls the sandbox for each piece of code.
   */
  beside?: RunBeside
}

/** What a run beside the code needs besides what every run has. */
export type RunBeside = Pick<
  RemoteRunOptions,
  'source' | 'spec' | 'open' | 'callTimeoutMs' | 'destroy'
>

/**
 * The runs of the worker, at most one per thread: starts them, advances them a super-step
 * at a time or to the end, pauses them at the next barrier, stops them. Every run gets its
 * own GraphRuntime (so its events carry its thread and run) over a GatedSaver (so a stopped
 * run writes nothing more). Pure logic over injected saver, env, clock and event sink.
 */
export class RunRegistry {
  private readonly byThread = new Map<string, RunEntry>()
  /** The release of each run's thread lock (with locks only). */
  private readonly unlocks = new Map<RunEntry, () => void>()
  /** Each run's events on their way to the page (held until their checkpoint commits). */
  private readonly outs = new Map<RunEntry, SavedEventGate>()
  private readonly timer: Timer
  private lastYield: number
  /** Threads whose runs stream their chunks to the page (see watchStream). */
  private readonly watched = new Set<string>()
  /** The modes a watched thread asked for (absent: all seven). */
  private readonly watchedModes = new Map<string, readonly StreamMode[]>()
  private turned = true

  constructor(private readonly o: RunRegistryOptions) {
    this.timer = o.timer ?? systemTimer
    this.lastYield = this.timer.now()
  }

  /** Runs of the thread started from now on stream their chunks (`on`), or stop doing so. */
  watchStream(threadId: string, on: boolean, modes?: readonly string[]): boolean {
    if (on) this.watched.add(threadId)
    else this.watched.delete(threadId)
    const asked = modes?.filter(isStreamMode)
    if (on && asked?.length) this.watchedModes.set(threadId, asked)
    else this.watchedModes.delete(threadId)
    return on
  }

  /** Whether runs of the thread stream their chunks (see watchStream). */
  isWatched(threadId: string): boolean {
    return this.watched.has(threadId)
  }

  /** Refuses when the thread has a run (advancing or paused). */
  assertIdle(threadId: string): void {
    const entry = this.byThread.get(threadId)
    if (entry) throw new ThreadBusyError(threadId, entry.state)
  }

  /**
   * Starts a run and advances it by `mode`; resolves when it stops advancing. With locks, the
   * thread's lock is taken first: a thread another tab runs is refused (`RUNNING_ELSEWHERE`).
   */
  start(threadId: string, p: StartRun): Promise<RunOutcome> {
    try {
      this.assertIdle(threadId)
    } catch (e) {
      p.sandbox?.release()
      throw e
    }
    if (!this.o.locks) return this.begin(threadId, p)
    return this.o.locks.hold(threadId).then((unlock) => {
      if (!unlock) {
        p.sandbox?.release()
        throw runningElsewhere(threadId, 'run it here')
      }
      try {
        this.assertIdle(threadId) // another start of this tab's won the wait
      } catch (e) {
        unlock()
        p.sandbox?.release()
        throw e
      }
      return this.begin(threadId, p, unlock)
    })
  }

  private begin(threadId: string, p: StartRun, unlock?: () => void): Promise<RunOutcome> {
    const batched = this.o.saver.batched?.()
    const recorder = new TaskRunRecorder({
      threadId,
      write: this.o.recordTaskRuns,
      writeJoinsCommits: !!batched,
      warn: (step, message) =>
        this.emit(entry, {
          type: 'warning',
          step,
          warning: { code: 'TASK_RUNS_NOT_RECORDED', message },
        }),
    })
    const gate = new GatedSaver(
      batched ?? this.o.saver,
      (id) => recorder.ranFrom(id),
      batched && (() => batched.flush()),
    )
    // A watched thread's run also streams: every mode, subgraphs' chunks too.
    const streaming: RunStreamer | undefined = this.watched.has(threadId)
      ? this.streamer(threadId, p, (): RunEntry => entry)
      : undefined
    const onEvent = (e: LoopEvent) => {
      streaming?.producer.onEvent(e)
      this.observe(entry, e)
    }
    const runtime = new GraphRuntime({
      graph: p.graph,
      saver: gate,
      env: this.o.env,
      onEvent,
      betweenInnerSteps: (ns): Promise<void> => this.between(entry, ns),
      ...(streaming && {
        stream: (pt: StreamPoint) => streaming.producer.onPoint(pt),
        // Watched for `messages`, model nodes stream their replies piece by piece.
        preferStreaming: () => streaming.producer.prefersStreaming,
      }),
    })
    const entry = new RunEntry(this.o.env.newId(), threadId, runtime, gate, recorder, p.timeoutMs)
    entry.sandbox = p.sandbox
    if (unlock) this.unlocks.set(entry, unlock)
    this.outs.set(entry, new SavedEventGate(this.o.emit, batched))
    this.byThread.set(threadId, entry)
    this.emit(entry, { type: 'run_started', graphId: p.graphId, mode: p.mode })
    const config = { ...p.config, threadId }
    const beside = p.beside
    const start = beside
      ? () =>
          RemoteRun.start({
            ...beside,
            threadId,
            input: p.input,
            config,
            saver: gate,
            onEvent,
            timer: this.timer,
            nextStep: async () => {
              const state = await runtime.getState({ threadId })
              const tasks = (state?.tasks ?? []).filter((t) => t.writes === undefined)
              const step = (state?.metadata.step ?? -2) + 1
              return { step, tasks: tasks.map(({ id, name }) => ({ id, name })) }
            },
          })
      : () => entry.runtime.start(p.input, config)
    return this.advance(entry, p.mode, start)
  }

  /** Advances a run paused by `step` or `pause`. */
  continue(threadId: string, mode: RunMode): Promise<RunOutcome> {
    const entry = this.byThread.get(threadId)
    if (!entry) {
      throw new WorkerRequestError(
        'NO_PAUSED_RUN',
        `Thread ${threadId} has no paused run. A run that paused on an interrupt or a breakpoint has ended: start a new run with input null or a command.`,
        'NoPausedRunError',
      )
    }
    if (entry.state !== 'paused') throw new ThreadBusyError(threadId, entry.state)
    return this.advance(entry, mode)
  }

  /** Asks the thread's run to pause after the current super-step; false when there is none. */
  pause(threadId: string): boolean {
    const entry = this.byThread.get(threadId)
    if (!entry || entry.abandoning) return false
    if (entry.state !== 'paused') entry.pauseRequested = true
    return true
  }

  /** Abandons the thread's run (saved checkpoints stay). */
  async stop(threadId: string): Promise<{ stopped: boolean; sandboxRestarted: boolean }> {
    const entry = this.byThread.get(threadId)
    if (!entry) return { stopped: false, sandboxRestarted: false }
    return { stopped: true, sandboxRestarted: await this.abandon(entry) }
  }

  private async advance(
    entry: RunEntry,
    mode: RunMode,
    first?: () => Promise<SteppedRun>,
  ): Promise<RunOutcome> {
    entry.state = 'advancing'
    entry.pauseDepth = pauseDepthOf(mode, entry.inside?.depth ?? 0)
    const budget = entry.armBudget(this.timer, (limit) => {
      void this.abandon(entry, {
        name: 'RunTimeoutError',
        code: 'RUN_TIMEOUT',
        message: `The run was still advancing after ${limit} ms and was abandoned; checkpoints saved before stay.`,
      })
    })
    try {
      if (first) {
        const run = await this.tick(entry, first)
        if (run === ABANDONED) return entry.abandoned
        entry.run = run
        if (entry.pauseRequested && mode === 'toEnd') return this.paused(entry, 'pause')
      }
      const run = entry.run as SteppedRun
      // Paused inside a subgraph: its run goes on from where it waits.
      const waiting = entry.inside
      entry.inside = undefined
      waiting?.go()
      for (;;) {
        const inside = entry.waitInside()
        const tick = (entry.pendingTick ??= guarded(run.tick()))
        const status = await this.tick(entry, () => Promise.race([tick, inside.then(() => INSIDE)]))
        if (status === ABANDONED || entry.abandoning) return entry.abandoned
        if (status === INSIDE) return await this.pausedInside(entry)
        entry.pendingTick = undefined
        if (status === 'done') return this.finished(entry)
        if (status === 'interrupted') {
          return this.paused(entry, run.interrupts.length ? 'interrupt' : 'breakpoint')
        }
        if (entry.pauseDepth >= 0 || entry.pauseRequested)
          return this.paused(entry, entry.pauseRequested ? 'pause' : 'step')
        await this.yieldNow()
      }
    } catch (e) {
      entry.pendingTick = undefined
      if (entry.abandoning) return entry.abandoned
      return this.failed(entry, toWorkerError(e))
    } finally {
      budget()
    }
  }

  /**
   * Between two super-steps of a subgraph's run: waits there when the advance steps at its
   * depth (or a pause was asked for), until the next advance (or the run's end).
   */
  private between(entry: RunEntry, ns: string): Promise<void> {
    const depth = nsNodes(ns).length
    if (entry.abandoning || (depth > entry.pauseDepth && !entry.pauseRequested)) {
      return Promise.resolve()
    }
    return new Promise((go, end) => {
      entry.inside = { ns, depth, go: () => go(), end }
      entry.signalInside()
    })
  }

  /** The run waits inside a subgraph: paused, with where it is (the root step goes on later). */
  private async pausedInside(entry: RunEntry): Promise<RunOutcome> {
    const { ns } = entry.inside as NonNullable<RunEntry['inside']>
    const threadId = entry.threadId
    const nextOf = async (checkpointNs?: string) => {
      try {
        const config = checkpointNs ? { threadId, checkpointNs } : { threadId }
        return (await entry.runtime.getState(config))?.next ?? []
      } catch {
        return [] // a subgraph called from node code: the debugger cannot read its graph
      }
    }
    const [next, innerNext] = [await nextOf(), await nextOf(ns)]
    if (entry.abandoning) return entry.abandoned
    const reason: PauseReason = entry.pauseRequested ? 'pause' : 'step'
    entry.pauseRequested = false
    entry.state = 'paused'
    const checkpointId = entry.lastCheckpointId
    const latest = entry.innerLatest.get(ns) ?? { checkpointId: '', step: -1 }
    const inner = { ns, ...latest, next: innerNext }
    this.emit(entry, { type: 'run_paused', reason, next, interrupts: [], checkpointId, inner })
    return {
      runId: entry.runId,
      status: 'paused',
      reason,
      next,
      interrupts: [],
      checkpointId,
      inner,
    }
  }

  /** Runs one piece of the run, unless the run is abandoned first. */
  private async tick<T>(entry: RunEntry, work: () => Promise<T>): Promise<T | typeof ABANDONED> {
    entry.ticking = true
    try {
      return await Promise.race([work(), entry.signal])
    } finally {
      entry.ticking = false
      entry.inFlight.clear()
    }
  }

  private async paused(entry: RunEntry, reason: PauseReason): Promise<RunOutcome> {
    try {
      await this.recorded(entry)
    } catch (e) {
      return this.failed(entry, toWorkerError(e)) // its last checkpoints could not be stored
    }
    // One read: what runs next, and (paused on interrupts) where each was raised.
    const snapshot = await this.pausedState(entry, reason)
    const interrupts = toInterruptInfo(
      entry.run?.interrupts ?? [],
      snapshot && reason === 'interrupt' ? interruptPlaces(snapshot) : new Map(),
    )
    const next = snapshot?.next ?? []
    if (entry.abandoning) return entry.abandoned
    // Nothing left to run: one more tick only confirms it (it runs no step), so a stepped
    // run ends with its last step instead of waiting for a step that does nothing.
    if (next.length === 0 && (reason === 'step' || reason === 'pause') && entry.run) {
      const status = await this.tick(entry, () => (entry.run as SteppedRun).tick())
      if (status === ABANDONED || entry.abandoning) return entry.abandoned
      if (status === 'done') return this.finished(entry)
    }
    entry.pauseRequested = false
    const checkpointId = entry.lastCheckpointId
    const ended = reason === 'interrupt' || reason === 'breakpoint'
    if (ended) this.release(entry)
    else entry.state = 'paused'
    this.emit(entry, { type: 'run_paused', reason, next, interrupts, checkpointId })
    if (ended) entry.closed = true
    return { runId: entry.runId, status: 'paused', reason, next, interrupts, checkpointId }
  }

  /**
   * The thread's state where the run paused; with its subgraphs' states when it paused on
   * interrupts (they say where each was raised), unless a subgraph cannot be read.
   */
  private async pausedState(entry: RunEntry, reason: PauseReason) {
    const config = { threadId: entry.threadId }
    if (reason !== 'interrupt') return entry.runtime.getState(config)
    return entry.runtime
      .getState(config, { subgraphs: true })
      .catch(() => entry.runtime.getState(config))
  }

  private async finished(entry: RunEntry): Promise<RunOutcome> {
    try {
      await this.recorded(entry)
    } catch (e) {
      return this.failed(entry, toWorkerError(e)) // its last checkpoints could not be stored
    }
    if (entry.abandoning) return entry.abandoned
    this.release(entry)
    const checkpointId = entry.lastCheckpointId
    this.emit(entry, { type: 'run_finished', checkpointId })
    entry.closed = true
    return { runId: entry.runId, status: 'done', checkpointId }
  }

  private async failed(entry: RunEntry, error: WorkerError): Promise<RunOutcome> {
    await this.recorded(entry).catch(() => undefined) // the failure said is the first one
    if (entry.abandoning) return entry.abandoned
    this.release(entry)
    this.emit(entry, { type: 'run_failed', error })
    entry.closed = true
    return { runId: entry.runId, status: 'failed', error }
  }

  /**
   * Stop or timeout: no more writes (waiting for one in progress), the thread is free, and
   * the sandbox is replaced when the run's code may still be running there.
   */
  private abandon(entry: RunEntry, error?: WorkerError): Promise<boolean> {
    entry.abandoning ??= (async () => {
      const codeRunning = entry.ticking && (entry.inFlight.size > 0 || !!entry.sandbox?.busy)
      await entry.gate.close()
      // A subgraph's run waiting between its steps ends there, running nothing more.
      entry.inside?.end(new Error('The run was stopped.'))
      entry.inside = undefined
      entry.recorder.discard() // the abandoned step's tasks: nothing of the step is kept
      const recorded = entry.recorder.settled()
      await entry.gate.flush().catch(() => undefined) // the steps it finished stay
      await recorded
      this.outs.get(entry)?.release()
      this.release(entry)
      if (codeRunning) this.o.sandboxRestarted?.([entry.threadId])
      if (error) this.emit(entry, { type: 'run_failed', error })
      else this.emit(entry, { type: 'run_stopped', sandboxRestarted: codeRunning })
      entry.closed = true
      entry.settleAbandoned(
        error
          ? { runId: entry.runId, status: 'failed', error }
          : { runId: entry.runId, status: 'stopped' },
      )
      return codeRunning
    })()
    return entry.abandoning
  }

  /**
   * Commits the run's checkpoints and stores what its last step recorded; resolves when every
   * recording has settled and the page has been sent every committed checkpoint. Rejects when
   * the commit failed.
   */
  private async recorded(entry: RunEntry): Promise<void> {
    entry.recorder.flush()
    const recorded = entry.recorder.settled()
    await entry.gate.flush()
    await recorded
    this.outs.get(entry)?.release()
  }

  /** The run has ended: the thread is free and its sandbox (with anything left running) goes. */
  private release(entry: RunEntry): void {
    if (this.byThread.get(entry.threadId) === entry) this.byThread.delete(entry.threadId)
    entry.sandbox?.release()
    this.unlocks.get(entry)?.()
    this.unlocks.delete(entry)
    this.outs.get(entry)?.close()
    this.outs.delete(entry)
  }

  /** The stream of one run: its chunks as `stream_chunk` events, made JSON-safe. */
  private streamer(threadId: string, p: StartRun, entryOf: () => RunEntry): RunStreamer {
    let seq = 0
    let step = -1
    const producer = new StreamProducer(
      p.graph,
      {
        modes: this.watchedModes.get(threadId) ?? STREAM_MODES,
        subgraphs: true,
        threadId,
        recursionLimit: p.config.recursionLimit ?? DEFAULT_RECURSION_LIMIT,
        configurable: { ...p.graph.configDefaults, ...p.config.configurable },
        now: this.o.env.now,
      },
      ([ns, mode, payload]) =>
        this.emit(entryOf(), {
          type: 'stream_chunk',
          seq: seq++,
          step,
          path: ns.map((part) => part.split(':')[0] as string),
          mode,
          payload: toJsonSafe(payload),
        }),
    )
    return {
      producer: {
        onEvent: (e: LoopEvent) => {
          if (e.type === 'step_started' && e.ns === undefined) step = e.step
          producer.onEvent(e)
        },
        onPoint: (pt: StreamPoint) => producer.onPoint(pt),
        prefersStreaming: producer.prefersStreaming,
      },
    }
  }

  private observe(entry: RunEntry, e: LoopEvent): void {
    if (entry.closed) return
    if (e.ns !== undefined) {
      // A subgraph's: shown live, never the root's task runs or latest checkpoint.
      if (e.type === 'checkpoint_saved')
        entry.innerLatest.set(e.ns, { checkpointId: e.checkpointId, step: e.step })
      const base = { threadId: entry.threadId, runId: entry.runId }
      const elapsed = () => this.timer.now() - entry.stepStartedAt
      const event = toWorkerEvent(e, base, elapsed, (id) => entry.gate.takeChanged(id))
      this.send(entry, { ...event, ns: e.ns } as WorkerEvent)
      return
    }
    if (e.type === 'step_started') {
      entry.stepStartedAt = this.timer.now()
      entry.recorder.flush()
      for (const t of e.tasks) entry.inFlight.add(t.id)
    } else if (
      e.type === 'task_finished' ||
      e.type === 'task_failed' ||
      e.type === 'task_interrupted'
    ) {
      entry.inFlight.delete(e.taskId)
    }
    const base = { threadId: entry.threadId, runId: entry.runId }
    const elapsed = () => this.timer.now() - entry.stepStartedAt
    const event = toWorkerEvent(e, base, elapsed, (id) => entry.gate.takeChanged(id))
    if (e.type === 'warning') entry.recorder.warning(e.warning)
    if (event.type === 'task_finished') entry.recorder.task(event.step, event)
    else if (event.type === 'task_failed') {
      const { name, message } = event.error
      const logs = logsOf((e as { error?: unknown }).error)
      entry.recorder.task(event.step, {
        ...event,
        durationMs: elapsed(),
        logs,
        error: { name, message },
      })
    } else if (event.type === 'checkpoint_saved') {
      entry.lastCheckpointId = event.checkpointId
      entry.recorder.flush() // the step that made it (none for the input checkpoint)
      entry.recorder.ranFrom(event.checkpointId)
    }
    this.send(entry, event)
  }

  private emit(entry: RunEntry, e: DistributiveOmit<WorkerEvent>): void {
    if (entry.closed) return
    this.send(entry, { ...e, threadId: entry.threadId, runId: entry.runId } as WorkerEvent)
  }

  /** To the page, behind the run's events that wait for their checkpoint's commit. */
  private send(entry: RunEntry, e: WorkerEvent): void {
    const out = this.outs.get(entry)
    if (out) out.push(e)
    else this.o.emit(e)
  }

  /**
   * Lets queued messages (pause, stop) in between super-steps. A marker timer tells whether
   * the event loop has turned since the last barrier (IndexedDB callbacks are tasks, so with
   * Dexie it always has); only a run that never left the microtask queue for
   * `yieldEveryMs` waits for a timer.
   */
  private async yieldNow(): Promise<void> {
    const now = this.timer.now()
    if (this.turned) {
      this.turned = false
      this.lastYield = now
      this.timer.set(() => (this.turned = true), 0)
      return
    }
    if (now - this.lastYield < (this.o.yieldEveryMs ?? 10)) return
    await new Promise<void>((resolve) => this.timer.set(resolve, 0))
  }
}

/** A run event without the fields every run event carries. */
type DistributiveOmit<T> = T extends unknown ? Omit<T, 'threadId' | 'runId'> : never

/** A run's stream producer, fed by the run's events and points. */
interface RunStreamer {
  producer: {
    onEvent(e: LoopEvent): void
    onPoint(p: StreamPoint): void
    prefersStreaming: boolean
  }
}

/** What an advance's race resolves to when a subgraph's run paused inside the step. */
const INSIDE = Symbol('inside')

/** The deepest subgraph level an advance in `mode` pauses at, from the level it starts on. */
function pauseDepthOf(mode: RunMode, depth: number): number {
  if (mode === 'toEnd') return -1
  if (mode === 'stepInto') return depth + 1
  if (mode === 'stepOut') return Math.max(0, depth - 1)
  return depth
}

/** A step's promise that may be left waiting: its rejection is handled where it is awaited. */
function guarded<T>(p: Promise<T>): Promise<T> {
  p.catch(() => undefined)
  return p
}
