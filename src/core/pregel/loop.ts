import type { RuntimeEnv } from '../../lib/env'
import {
  NULL_TASK_ID,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointAddress,
  type CheckpointConfig,
  type CheckpointMetadata,
  type CheckpointSaver,
  type CheckpointSource,
  type PendingWrite,
} from '../checkpoint/types'
import { TASKS, branchChannel, type CompiledGraph } from '../compile/compileGraph'
import type { TaskLog } from '../compile/host'
import { INPUT, START } from '../graph/constants'
import {
  applyWrites,
  channelsFromCheckpoint,
  checkpointValues,
  prepareTasks,
  readState,
  type Channels,
  type Task,
} from './algo'
import { errorMessage, errorName } from '../errorJson'
import {
  EmptyInputError,
  GraphInterrupt,
  GraphRecursionError,
  InvalidUpdateError,
  NodeRunError,
  ParentCommand,
  rootCause,
} from './errors'
import { INTERRUPT, RESUME, type Interrupt, type TaskScratchpad } from './interrupt'
import { runTask, runTaskNow, type RuntimeWarning, type TaskContext } from './task'
import { callNamespace, taskNamespace } from './namespace'
import { applyWritesFolded } from './foldRemote'
import { isCommand, isSend, type Command } from './types'
import type { PreparedTask, StreamSink } from './streamPoints'

export const DEFAULT_RECURSION_LIMIT = 25
const ERROR = '__error__'

/** Pending writes that are a task's output, not a record of what happened to it. */
export function isTaskOutput(channel: string): boolean {
  return (
    channel !== ERROR &&
    channel !== '__error_source_node__' &&
    channel !== INTERRUPT &&
    channel !== RESUME
  )
}

/**
 * What the loop reports as it runs; the worker turns these into UI events. `ns`: the checkpoint
 * namespace of the subgraph run it happened in (absent: the root graph's run).
 */
export type LoopEvent = LoopEventBody & { ns?: string }

type LoopEventBody =
  | { type: 'step_started'; step: number; tasks: { id: string; name: string }[] }
  | {
      type: 'task_finished'
      step: number
      taskId: string
      name: string
      writes: [string, unknown][]
      /** What the task's code logged (sandboxed runs). */
      logs: TaskLog[]
      /** Wall time of the task, when the env has a monotonic clock. */
      durationMs?: number
    }
  | {
      type: 'task_failed'
      step: number
      taskId: string
      name: string
      error: unknown
      /** What the task wrote before it failed (kept with its error, as LangGraph keeps them). */
      writes: [string, unknown][]
    }
  | {
      type: 'task_interrupted'
      step: number
      taskId: string
      name: string
      interrupts: Interrupt[]
    }
  | {
      type: 'checkpoint_saved'
      step: number
      source: CheckpointSource
      checkpointId: string
      /** The versions of the channels this checkpoint changed (its new versions), not all. */
      versions: ChannelVersions
    }
  | { type: 'warning'; step: number; warning: RuntimeWarning }

export interface RuntimeOptions {
  graph: CompiledGraph
  saver: CheckpointSaver
  env: RuntimeEnv
  onEvent?: (e: LoopEvent) => void
  /**
   * Called with each warning (also sent to `onEvent`): for a caller that wants only these,
   * without the cost of every event (a copy of the versions at each checkpoint, for one).
   */
  onWarning?: (warning: RuntimeWarning) => void
  /**
   * Called after each super-step of a subgraph's run that leaves it running, before its next
   * (the debugger's "step into" waits here); `ns` is the subgraph run's namespace.
   */
  betweenInnerSteps?: (ns: string) => Promise<void>
  /** Receives what `graph.stream()` is made of (stream.ts); absent, none of it is computed. */
  stream?: StreamSink
  /**
   * LangGraph's `lc_prefer_streaming`, asked at each super-step: whether `stream` wants a
   * model's reply piece by piece (`delta` points; the messages mode). Absent: never.
   */
  preferStreaming?: () => boolean
}

/** Addresses a run: the thread, optionally a checkpoint to run from (replay / fork). */
export interface RunConfig extends CheckpointConfig {
  recursionLimit?: number
  /** Override the graph's static breakpoints for this run. */
  interruptBefore?: readonly string[] | '*'
  interruptAfter?: readonly string[] | '*'
  /** The run's settings (`config.configurable`); the graph's declared defaults fill the rest. */
  configurable?: Record<string, unknown>
}

/**
 * What a subgraph's run inherits from the task of its parent that runs it (LangGraph passes
 * these down in the task's config).
 */
export interface NestedRun {
  /** The parent run is resuming (`__pregel_resuming`): a subgraph with a saved checkpoint resumes too. */
  resuming: boolean
  /** The parent task's waiting `Command({ resume })` value, stored with the subgraph's checkpoint. */
  nullResume: { value: unknown } | undefined
  /** A resume map given to the root run. */
  resumeMap: Record<string, unknown> | undefined
}

/** Where a run stands: still going, finished, or paused (a breakpoint or `interrupt()`). */
export type RunStatus = 'running' | 'done' | 'interrupted'

/** A pending `interrupt()` and the task that raised it. */
export interface TaskInterrupt extends Interrupt {
  node: string
  taskId: string
}

/**
 * One run of a graph on a thread (LangGraph's PregelLoop): created by `Run.start`, which
 * loads the checkpoint and applies the input, a resume or a Command; then each `tick()`
 * executes exactly one super-step (plan, run the tasks concurrently on one snapshot, apply
 * their writes at the barrier, checkpoint).
 */
export class Run {
  status: RunStatus = 'running'
  /** The pending dynamic interrupts when the run paused on `interrupt()`. */
  interrupts: TaskInterrupt[] = []
  private checkpoint!: Checkpoint
  private metadata!: CheckpointMetadata
  private channels!: Channels
  private config!: CheckpointConfig
  private pendingWrites: PendingWrite[] = []
  /**
   * Channels whose version was bumped since the last saved checkpoint (a bump always raises
   * the version: these are exactly the channels whose version changed).
   */
  private readonly bumped = new Set<string>()
  /** Nodes whose `versions_seen` entry was replaced since the last saved checkpoint. */
  private readonly seenChanged = new Set<string>()
  private updatedChannels: Set<string> | undefined
  /** The tasks' shared context, made by the first step that runs tasks. */
  private taskContext: TaskContext | undefined
  private step = 0
  private stop = 0
  private skipDoneTasks = true
  private resumeMap: Record<string, unknown> | undefined
  /** What the subgraphs this run's tasks start see as `__pregel_resuming`. */
  private resuming = false
  /** The checkpoint namespace (`''`: the root graph). */
  private readonly ns: string
  /** The checkpoint the current one was saved after (the `checkpoints` stream mode shows it). */
  private parentId: string | undefined
  /** What node code and routers see as `config.configurable`. */
  private readonly configurable: Record<string, unknown>

  private constructor(
    private readonly o: RuntimeOptions,
    private readonly runConfig: RunConfig,
    private readonly nested: NestedRun | undefined,
  ) {
    this.ns = runConfig.checkpointNs ?? ''
    this.resumeMap = nested?.resumeMap
    this.configurable = {
      ...o.graph.configDefaults,
      ...runConfig.configurable,
      thread_id: runConfig.threadId,
    }
  }

  /**
   * Loads the thread (or the addressed checkpoint) and applies `input`, as LangGraph's
   * `_first`. `nested`: the run is a subgraph's, started by a task of its parent.
   */
  static async start(
    o: RuntimeOptions,
    input: unknown,
    config: RunConfig,
    nested?: NestedRun,
  ): Promise<Run> {
    const run = new Run(o, config, nested)
    await run.first(input)
    return run
  }

  /** The state fields that hold a value: what a subgraph's run gives back to its parent. */
  outputValues(): Record<string, unknown> {
    return readState(this.o.graph, this.channels)
  }

  /** The step the next checkpoint will have. */
  get currentStep(): number {
    return this.step
  }

  /** Runs super-steps until the graph finishes or pauses; `between` runs between two. */
  async toEnd(between?: () => Promise<void>): Promise<RunStatus> {
    // The root run of a graph without sandboxed reducers, on an in-memory saver: a step with
    // nothing to wait for is not awaited. A subgraph's run keeps tick()'s awaits, so sibling
    // subgraphs interleave their steps as in LangGraph.
    const now =
      this.nested === undefined && this.o.saver.putSync && this.o.graph.remoteFolds.size === 0
    while (this.status === 'running') {
      if (now) {
        const stepped = this.advance()
        if (stepped instanceof Promise) await stepped
      } else await this.tick()
      if (between && this.status === 'running') await between()
    }
    return this.status
  }

  /** Advances exactly one super-step (or finds that there is none to run). */
  async tick(): Promise<RunStatus> {
    if (this.status !== 'running') return this.status
    const tasks = this.planStep()
    if (!Array.isArray(tasks)) return tasks
    const { graph } = this.o
    if (tasks.some((t) => t.writes.length === 0)) {
      const paused = await this.execute(tasks.filter((t) => t.writes.length === 0))
      if (paused) return (this.status = 'interrupted')
    }
    // A conflict throws here: nothing of the step is committed, its writes stay pending.
    // Without sandboxed reducers there is nothing to fold, nor to wait for.
    this.updatedChannels =
      graph.remoteFolds.size === 0
        ? applyWrites(
            this.checkpoint,
            this.channels,
            tasks,
            graph.triggerToNodes,
            true,
            this.bumped,
          )
        : await applyWritesFolded(graph, this.checkpoint, this.channels, tasks, true, this.bumped)
    this.markSeen(tasks)
    await this.putCheckpoint('loop')
    return this.stepDone(tasks)
  }

  /**
   * tick() for toEnd's root run without sandboxed reducers, on a saver with `putSync`: done
   * at once (it may then throw instead of rejecting) unless a task returns a promise.
   */
  private advance(): RunStatus | Promise<RunStatus> {
    const tasks = this.planStep()
    if (!Array.isArray(tasks)) return tasks
    if (
      tasks.length === 1 ? tasks[0]!.writes.length === 0 : tasks.some((t) => t.writes.length === 0)
    ) {
      const toRun = tasks.length === 1 ? tasks : tasks.filter((t) => t.writes.length === 0)
      const paused = this.executeNow(toRun)
      if (paused instanceof Promise) {
        return paused.then((p) => (p ? (this.status = 'interrupted') : this.commitNow(tasks)))
      }
      if (paused) return (this.status = 'interrupted')
    }
    return this.commitNow(tasks)
  }

  /** advance()'s barrier: the writes applied and checkpointed, nothing awaited. */
  private commitNow(tasks: Task[]): RunStatus {
    const { graph } = this.o
    // A conflict throws here: nothing of the step is committed, its writes stay pending.
    this.updatedChannels = applyWrites(
      this.checkpoint,
      this.channels,
      tasks,
      graph.triggerToNodes,
      true,
      this.bumped,
    )
    this.markSeen(tasks)
    this.putCheckpointNow('loop')
    return this.stepDone(tasks)
  }

  /**
   * A step up to running its tasks: the tasks (those with pending writes get them back), or
   * the status when there is none to run or a breakpoint comes first.
   */
  private planStep(): Task[] | RunStatus {
    const { graph } = this.o
    if (this.step > this.stop) {
      throw new GraphRecursionError(this.runConfig.recursionLimit ?? DEFAULT_RECURSION_LIMIT)
    }
    const tasks = prepareTasks(graph, this.checkpoint, this.channels, {
      updatedChannels: this.updatedChannels,
    })
    const stream = this.o.stream
    if (stream) this.streamPrepared(stream, tasks)
    if (tasks.length === 0) return (this.status = 'done')
    if (this.skipDoneTasks && this.pendingWrites.length > 0) this.reapplySucceeded(tasks)
    if (!tasks.every((t) => t.writes.length > 0)) {
      const before = this.runConfig.interruptBefore ?? graph.interruptBefore
      if (shouldInterrupt(this.checkpoint, before, tasks)) return (this.status = 'interrupted')
      stream?.({ type: 'started', step: this.step, tasks: this.prepared(tasks), allCached: false })
    } else
      stream?.({ type: 'started', step: this.step, tasks: this.prepared(tasks), allCached: true })
    return tasks
  }

  /** The end of a step whose checkpoint is saved. */
  private stepDone(tasks: Task[]): RunStatus {
    const { graph } = this.o
    const stream = this.o.stream
    stream?.({
      type: 'applied',
      step: this.step - 1,
      values: readState(graph, this.channels),
      wroteState: tasks.some((t) => t.writes.some(([ch]) => graph.fieldSet.has(ch))),
    })
    this.resuming = false
    const after = this.runConfig.interruptAfter ?? graph.interruptAfter
    if (shouldInterrupt(this.checkpoint, after, tasks)) this.status = 'interrupted'
    return this.status
  }

  private async first(input: unknown): Promise<void> {
    const { saver } = this.o
    const cfg = this.runConfig
    const saved = await saver.getTuple(cfg)
    if (cfg.checkpointId && !saved) {
      throw new Error(`Checkpoint ${cfg.checkpointId} does not exist on thread ${cfg.threadId}.`)
    }
    const addressed = cfg.checkpointId !== undefined
    let superseded = false
    if (saved) {
      this.checkpoint = {
        ...saved.checkpoint,
        channel_versions: { ...saved.checkpoint.channel_versions },
        versions_seen: { ...saved.checkpoint.versions_seen },
      }
      this.metadata = saved.metadata
      this.pendingWrites = saved.pendingWrites
      this.config = saved.config
      this.parentId = saved.parentConfig?.checkpointId
      if (addressed)
        superseded = (await saver.getTuple(threadOf(cfg)))?.checkpoint.id !== saved.checkpoint.id
    } else {
      const { env } = this.o
      this.checkpoint = {
        v: 1,
        id: env.newId(),
        ts: env.now(),
        channel_values: {},
        channel_versions: {},
        versions_seen: {},
      }
      this.metadata = { source: 'input', step: -2, parents: {} }
      this.config = threadOf(cfg)
    }
    this.channels = channelsFromCheckpoint(this.o.graph, this.checkpoint)
    this.step = this.metadata.step + 1
    this.stop = this.step + (cfg.recursionLimit ?? DEFAULT_RECURSION_LIMIT) + 1

    const command = isCommand(input) ? input : undefined
    const hasResume =
      command !== undefined && command.resume !== undefined && command.resume !== null
    const isUpdateOrFork = this.metadata.source === 'update' || this.metadata.source === 'fork'
    const resumeAtHead = addressed && saved !== undefined && !superseded && !isUpdateOrFork
    const hasVersions = Object.keys(this.checkpoint.channel_versions).length > 0
    const isResuming =
      hasVersions &&
      (this.nested?.resuming === true || input === null || input === undefined || hasResume)
    const timeTravel = addressed && !(hasResume || resumeAtHead)
    this.skipDoneTasks = !(timeTravel || superseded)
    const forks =
      timeTravel && (command !== undefined || isResuming) && (!isUpdateOrFork || superseded)

    const carried: PendingWrite[] = []
    if (command) {
      const writes = this.commandWrites(command)
      if (writes.length === 0) throw new EmptyInputError('Received empty Command input')
      if (forks) carried.push(...writes)
      else {
        const byTask = new Map<string, [string, unknown][]>()
        for (const [tid, ch, v] of writes) byTask.set(tid, [...(byTask.get(tid) ?? []), [ch, v]])
        for (const [tid, ws] of byTask) await this.putWrites(tid, ws)
      }
    }
    const nullWrites = [...this.pendingWrites, ...carried]
      .filter(([tid]) => tid === NULL_TASK_ID)
      .map(([, ch, v]): [string, unknown] => [ch, v])
    if (nullWrites.length > 0) {
      const input = [inputTask(nullWrites)]
      await applyWritesFolded(
        this.o.graph,
        this.checkpoint,
        this.channels,
        input,
        true,
        this.bumped,
      )
      this.markSeen(input)
    }
    if (timeTravel) this.pendingWrites = this.pendingWrites.filter(([, ch]) => ch !== RESUME)
    const nullResume = this.nested?.nullResume
    if (nullResume && !forks) await this.putWrites(NULL_TASK_ID, [[RESUME, nullResume.value]])
    this.resuming = this.nested ? this.nested.resuming : isResuming
    const commandUpdateOrGoto = command !== undefined && nullWrites.length > 0
    if (isResuming || commandUpdateOrGoto) {
      const seen = { ...this.checkpoint.versions_seen[INTERRUPT] }
      Object.assign(seen, this.checkpoint.channel_versions)
      this.checkpoint.versions_seen[INTERRUPT] = seen
      this.seenChanged.add(INTERRUPT)
      if (forks) {
        this.pendingWrites = this.pendingWrites.filter(([, ch]) => ch !== INTERRUPT)
        await this.putCheckpoint('fork')
      }
      if (!isResuming) await this.putCheckpoint('input')
      this.o.stream?.({ type: 'resumed', values: readState(this.o.graph, this.channels) })
      return
    }
    if (input === null || input === undefined) {
      throw new EmptyInputError(`Received no input writes for "${START}"`)
    }
    // New input: the loaded checkpoint's pending tasks are discarded, as if they ran.
    const discarded = prepareTasks(this.o.graph, this.checkpoint, this.channels)
    const applied = [...discarded, inputTask([[START, input]])]
    this.updatedChannels = applyWrites(
      this.checkpoint,
      this.channels,
      applied,
      this.o.graph.triggerToNodes,
      true,
      this.bumped,
    )
    this.markSeen(applied)
    await this.putCheckpoint('input')
  }

  /** LangGraph's `mapCommand`: a Command as input becomes writes of the null task. */
  private commandWrites(command: Command): PendingWrite[] {
    if (command.graph === Command_PARENT) throw new InvalidUpdateError('There is no parent graph.')
    const out: PendingWrite[] = []
    const gotos =
      command.goto === undefined ? [] : Array.isArray(command.goto) ? command.goto : [command.goto]
    for (const g of gotos) {
      if (isSend(g)) out.push([NULL_TASK_ID, TASKS, { node: g.node, args: g.args }])
      else if (typeof g === 'string') out.push([NULL_TASK_ID, branchChannel(g), START])
      else throw new Error(`In Command.goto, expected Send or string, got ${typeof g}`)
    }
    const resume = command.resume
    if (resume !== undefined && resume !== null) {
      if (isResumeMap(resume)) {
        // Answers addressed to interrupt ids; stored under those ids, as LangGraph does.
        this.resumeMap = resume
        for (const [id, v] of Object.entries(resume)) out.push([id, RESUME, [v]])
      } else out.push([NULL_TASK_ID, RESUME, resume])
    }
    if (command.update) for (const [k, v] of command.updateTuples()) out.push([NULL_TASK_ID, k, v])
    return out
  }

  /** Tasks that already succeeded against this checkpoint get their stored writes back. */
  private reapplySucceeded(tasks: Task[]): void {
    const byId = new Map(tasks.map((t) => [t.id, t]))
    for (const [tid, ch, v] of this.pendingWrites) {
      if (isTaskOutput(ch)) byId.get(tid)?.writes.push([ch, v])
    }
  }

  /**
   * Runs tasks concurrently. The first error fails the step at once (LangGraph aborts the
   * siblings); interrupts let the siblings finish. Either way the finished tasks' writes are
   * saved as pending writes. Returns true when the step paused on interrupts.
   */
  private async execute(tasks: Task[]): Promise<boolean> {
    const outcome = this.startTasks(tasks)
    const ctx = this.taskContext as TaskContext
    let failure: { task: Task; error: unknown } | null = null
    if (tasks.length === 1) {
      // One task (a chain, a cycle): awaited directly, without the settling machinery.
      const task = tasks[0] as Task
      let error: unknown
      let failed = false
      try {
        await runTask(task, ctx, true)
      } catch (e) {
        failed = true
        error = e
      }
      if (!failed) this.taskDone(task, outcome)
      else if (this.taskStopped(task, error, outcome)) failure = { task, error }
    } else failure = await this.runConcurrently(tasks, ctx, outcome)
    return this.settleAsync(outcome, failure)
  }

  /** A step's tasks are about to run: the event, the shared context, their outcome. */
  private startTasks(tasks: Task[]): StepOutcome {
    const step = this.step
    const emit = this.o.onEvent
    emit?.({ type: 'step_started', step, tasks: tasks.map((t) => ({ id: t.id, name: t.name })) })
    const ctx = (this.taskContext ??= this.createTaskContext())
    // Asked at each super-step, as LangGraph asks `lc_prefer_streaming`.
    if (this.o.stream && this.o.preferStreaming?.()) ctx.onDelta = this.deltaSink()
    else delete ctx.onDelta
    const clock = emit && this.o.env.monotonic
    return { step, started: clock ? clock() : 0, done: [], interrupted: [], toParent: [] }
  }

  /**
   * execute() for advance(): done at once (true: paused on interrupts) when every task is
   * done at once and no failure, interrupt or handoff needs saving.
   */
  private executeNow(tasks: Task[]): boolean | Promise<boolean> {
    const outcome = this.startTasks(tasks)
    const ctx = this.taskContext as TaskContext
    let failure: StepFailure | null | Promise<StepFailure | null>
    if (tasks.length === 1) {
      // One task (a chain, a cycle): run directly, without the settling machinery.
      const task = tasks[0] as Task
      try {
        const running = runTaskNow(task, ctx, true)
        failure = running
          ? running.then(
              () => this.taskEnded(task, outcome, false, undefined),
              (e: unknown) => this.taskEnded(task, outcome, true, e),
            )
          : this.taskEnded(task, outcome, false, undefined)
      } catch (e) {
        failure = this.taskEnded(task, outcome, true, e)
      }
    } else failure = this.runConcurrentlyNow(tasks, ctx, outcome)
    if (failure instanceof Promise) return failure.then((f) => this.settle(outcome, f))
    return this.settle(outcome, failure)
  }

  /** executeNow's tasks have settled (see execute). */
  private settle(outcome: StepOutcome, failure: StepFailure | null): boolean | Promise<boolean> {
    if (failure || outcome.interrupted.length > 0 || outcome.toParent.length > 0) {
      return this.settleAsync(outcome, failure)
    }
    // The common case: every task done, nothing to wait for.
    this.saveWritesNow(outcome.done)
    return false
  }

  /** The end of execute() and of executeNow() when a task failed, paused or handed off. */
  private async settleAsync(outcome: StepOutcome, failure: StepFailure | null): Promise<boolean> {
    const { step } = outcome
    const emit = this.o.onEvent
    const { done, interrupted, toParent } = outcome
    if (failure) {
      emit?.({
        type: 'task_failed',
        step,
        taskId: failure.task.id,
        name: failure.task.name,
        error: failure.error,
        writes: [...failure.task.writes],
      })
      await this.saveWrites(done)
      const { task, error } = failure
      const { cause } = rootCause(error)
      await this.putWrites(task.id, [
        ...task.writes,
        [ERROR, { name: errorName(cause), message: errorMessage(cause) }],
      ])
      throw new NodeRunError(error, task.name)
    }
    // Every finished task's writes are kept against the checkpoint it ran from, as LangGraph
    // does: a retry or resume reuses them, and the debugger shows what each task wrote.
    await this.saveWrites(done)
    const handoff = toParent[0]
    if (interrupted.length === 0 && handoff) {
      if (handoff.task.writes.length > 0) await this.putWrites(handoff.task.id, handoff.task.writes)
      throw handoff.command
    }
    if (interrupted.length === 0) return false
    for (const { task, interrupts } of interrupted) {
      const resumes = task.writes.filter(([ch]) => ch === RESUME)
      await this.putWrites(task.id, [[INTERRUPT, interrupts], ...resumes])
    }
    this.interrupts = interrupted.flatMap(({ task, interrupts }) =>
      interrupts.map((i) => ({ ...i, node: task.name, taskId: task.id })),
    )
    return true
  }

  /**
   * runConcurrently for executeNow: done at once when every task is. Every task starts
   * before any is settled (all read the step's snapshot); those done at once settle first,
   * in order, as their promises' callbacks did.
   */
  private runConcurrentlyNow(
    tasks: Task[],
    ctx: TaskContext,
    outcome: StepOutcome,
  ): StepFailure | null | Promise<StepFailure | null> {
    // Without routers, a task's writers only sort its own output (see runTask's `eager`).
    const eager = tasks.every((t) => t.node.branches.length === 0)
    const started: (Promise<void> | undefined | Raised)[] = []
    for (const task of tasks) {
      try {
        started.push(runTaskNow(task, ctx, eager))
      } catch (e) {
        started.push(new Raised(e))
      }
    }
    let remaining = tasks.length
    let failure: StepFailure | null = null
    for (let i = 0; i < tasks.length; i++) {
      const ran = started[i]
      if (ran instanceof Promise) continue
      remaining--
      // After a failure the step is over: the tasks after it are not recorded.
      failure ??= this.taskEnded(tasks[i] as Task, outcome, ran !== undefined, ran?.error)
    }
    if (failure || remaining === 0) {
      // Tasks still running are abandoned (LangGraph aborts them); their end is ignored.
      for (const ran of started) if (ran instanceof Promise) ran.catch(() => {})
      return failure
    }
    const running: [Task, Promise<void>][] = []
    tasks.forEach((task, i) => {
      const ran = started[i]
      if (ran instanceof Promise) running.push([task, ran])
    })
    return this.settleRunning(running, outcome)
  }

  /** A task ended, done or having raised `error`: the step's failure when it is one. */
  private taskEnded(
    task: Task,
    outcome: StepOutcome,
    raised: boolean,
    error: unknown,
  ): StepFailure | null {
    if (!raised) {
      this.taskDone(task, outcome)
      return null
    }
    return this.taskStopped(task, error, outcome) ? { task, error } : null
  }

  /** What the tasks of a step share; made once per run (the step is read when used). */
  private createTaskContext(): TaskContext {
    return {
      graph: this.o.graph,
      channels: this.channels,
      warn: (warning: RuntimeWarning) => {
        this.o.onWarning?.(warning)
        this.o.onEvent?.({ type: 'warning', step: this.step, warning })
      },
      scratchpad: (t: Task) => this.scratchpad(t),
      ns: this.ns,
      config: {
        configurable: this.configurable,
        writer: (chunk: unknown) => this.o.stream?.({ type: 'custom', chunk }),
      },
      nested: this.nested !== undefined,
      taskNs: (t: Task) => this.taskNs(t),
      runSubgraph: (t, pad, n, graph, input) => this.runSubgraph(t, pad, n, graph, input),
    }
  }

  /**
   * Runs a step's tasks concurrently: the first error fails the step at once (the failing
   * task and its error), the others are recorded in `outcome` as they settle.
   */
  private runConcurrently(
    tasks: Task[],
    ctx: TaskContext,
    outcome: StepOutcome,
  ): Promise<{ task: Task; error: unknown } | null> {
    // Without routers, a task's writers only sort its own output (see runTask's `eager`).
    const eager = tasks.every((t) => t.node.branches.length === 0)
    return this.settleRunning(
      tasks.map((task) => [task, runTask(task, ctx, eager)]),
      outcome,
    )
  }

  /**
   * Records a step's running tasks in `outcome` as they settle; the first error fails the
   * step at once (the failing task and its error), and tasks still running are abandoned
   * (LangGraph aborts them): their end is ignored.
   */
  private settleRunning(
    running: [Task, Promise<void>][],
    outcome: StepOutcome,
  ): Promise<StepFailure | null> {
    return new Promise((resolve) => {
      let remaining = running.length
      let failed = false
      for (const [task, ran] of running) {
        ran.then(
          () => {
            if (failed) return
            this.taskDone(task, outcome)
            if (--remaining === 0) resolve(null)
          },
          (error: unknown) => {
            if (failed) return
            if (this.taskStopped(task, error, outcome)) {
              failed = true
              resolve({ task, error })
            } else if (--remaining === 0) resolve(null)
          },
        )
      }
    })
  }

  /** A task of the step finished. */
  private taskDone(task: Task, outcome: StepOutcome): void {
    outcome.done.push(task)
    const emit = this.o.onEvent
    if (!emit) return
    const clock = this.o.env.monotonic
    emit({
      type: 'task_finished',
      step: outcome.step,
      taskId: task.id,
      name: task.name,
      writes: task.writes,
      logs: task.logs ?? [],
      ...(clock ? { durationMs: clock() - outcome.started } : {}),
    })
  }

  /**
   * A task of the step ended by raising: an interrupt or a Command.PARENT is recorded and
   * its siblings go on; anything else fails the step (returns true).
   */
  private taskStopped(task: Task, error: unknown, outcome: StepOutcome): boolean {
    const step = outcome.step
    if (error instanceof GraphInterrupt) {
      outcome.interrupted.push({ task, interrupts: error.interrupts })
      this.o.onEvent?.({
        type: 'task_interrupted',
        step,
        taskId: task.id,
        name: task.name,
        interrupts: error.interrupts,
      })
      return false
    }
    if (error instanceof ParentCommand) {
      outcome.toParent.push({ task, command: error })
      this.o.stream?.({
        type: 'handoff',
        step,
        taskId: task.id,
        name: task.name,
        writes: task.writes,
      })
      return false
    }
    return true
  }

  /** Where a step's tasks send the pieces of their models' replies (see TaskContext.onDelta). */
  private deltaSink(): TaskContext['onDelta'] {
    const stream = this.o.stream
    return (t, messageId, delta) =>
      stream?.({ type: 'delta', step: this.step, taskId: t.id, name: t.name, messageId, delta })
  }

  /** The namespace of one of this run's tasks (see namespace.ts). */
  private taskNs(task: Task): string {
    return taskNamespace(this.ns, this.checkpoint.id, task.id, task.name)
  }

  /**
   * Runs a subgraph as the `n`-th subgraph call of a task, in the task's namespace, to its
   * end (LangGraph's nested invoke with the parent's checkpointer): its output values, or
   * the pause or failure raised as the task's.
   */
  private async runSubgraph(
    task: Task,
    pad: TaskScratchpad,
    n: number,
    graph: CompiledGraph,
    input: unknown,
  ): Promise<Record<string, unknown>> {
    const { threadId, recursionLimit, interruptBefore, interruptAfter } = this.runConfig
    const emit = this.o.onEvent
    const config: RunConfig = {
      threadId,
      checkpointNs: callNamespace(this.taskNs(task), n),
      ...(recursionLimit !== undefined && { recursionLimit }),
      ...(interruptBefore !== undefined && { interruptBefore }),
      ...(interruptAfter !== undefined && { interruptAfter }),
      configurable: this.configurable,
    }
    // A subgraph's events reach the parent's listener marked with the namespace they
    // happened in (the innermost run marks them; outer runs pass them on as they are).
    const ns = config.checkpointNs as string
    const onEvent = emit && ((e: LoopEvent) => emit(e.ns === undefined ? { ...e, ns } : e))
    const sink = this.o.stream
    const stream: StreamSink | undefined =
      sink && ((p) => sink(p.ns === undefined ? { ...p, ns } : p))
    // A graph node hands its subgraph the parent's whole state: the keys the subgraph has no
    // field for are not its input (LangGraph maps only its input channels), and no mistake.
    const given =
      task.node.runsSubgraph && typeof input === 'object' && input !== null && !Array.isArray(input)
        ? Object.fromEntries(Object.entries(input).filter(([k]) => graph.fieldSet.has(k)))
        : input
    const run = await Run.start({ ...this.o, graph, onEvent, stream }, given, config, {
      resuming: this.resuming,
      nullResume: pad.nullResume,
      resumeMap: this.resumeMap,
    })
    const between = this.o.betweenInnerSteps
    const status = await run.toEnd(between && (() => between(ns)))
    if (status === 'interrupted') {
      throw new GraphInterrupt(run.interrupts.map(({ id, value }) => ({ id, value })))
    }
    return run.outputValues()
  }

  /** Tasks as the stream shows them (see streamPoints.ts). */
  private prepared(tasks: Task[]): PreparedTask[] {
    return tasks.map((t) => ({
      id: t.id,
      name: t.name,
      kind: t.kind,
      input: t.input,
      triggers: [...t.triggers], // the task's are shared (see prepareTasks)
      writes: [...t.writes],
      ...(t.node.runsSubgraph && { subgraphNs: this.taskNs(t) }),
    }))
  }

  private streamPrepared(stream: StreamSink, tasks: Task[]): void {
    stream({
      type: 'prepared',
      step: this.step,
      checkpoint: {
        id: this.config.checkpointId ?? this.checkpoint.id,
        parentId: this.parentId,
        step: this.metadata.step,
        source: this.metadata.source,
      },
      values: readState(this.o.graph, this.channels),
      tasks: this.prepared(tasks),
      pendingWrites: this.pendingWrites.map(([t, c, v]): PendingWrite => [t, c, v]),
    })
  }

  private scratchpad(task: Task): TaskScratchpad {
    const resume: unknown[] = []
    let nullResume: TaskScratchpad['nullResume']
    for (const [tid, ch, v] of this.pendingWrites) {
      if (ch !== RESUME) continue
      if (tid === task.id) resume.push(...(v as unknown[]))
      else if (tid === NULL_TASK_ID && !nullResume) nullResume = { value: v }
    }
    return {
      resume,
      nullResume,
      resumeMap: this.resumeMap,
      namespace: `${this.checkpoint.id}:${task.id}`,
      counter: -1,
    }
  }

  private async saveWrites(tasks: Task[]): Promise<void> {
    if (tasks.length === 0) return
    // The tasks that have pending writes already (usually none): only theirs are replaced.
    const pending = this.pendingWrites.length ? new Set(this.pendingWrites.map((w) => w[0])) : null
    const { saver } = this.o
    const address =
      this.config.checkpointId !== undefined ? (this.config as CheckpointAddress) : null
    for (const t of tasks) {
      const writes: [string, unknown][] = t.writes.length ? t.writes : [['__no_writes__', null]]
      if (pending?.has(t.id)) await this.putWrites(t.id, writes)
      else {
        // putWrites inlined: a step saves every task's writes.
        if (address) await saver.putWrites(address, writes, t.id)
        for (const [ch, v] of writes) this.pendingWrites.push([t.id, ch, v])
      }
    }
  }

  /** saveWrites with a saver that has `putWritesSync` (advance() runs only with one). */
  private saveWritesNow(tasks: Task[]): void {
    if (tasks.length === 0) return
    const { saver } = this.o
    const address =
      this.config.checkpointId !== undefined ? (this.config as CheckpointAddress) : null
    const pending =
      !address && this.pendingWrites.length ? new Set(this.pendingWrites.map((w) => w[0])) : null
    for (const t of tasks) {
      const writes: [string, unknown][] = t.writes.length ? t.writes : [['__no_writes__', null]]
      // Saved, the loop's own copy is not made: nothing reads it before the step's
      // checkpoint clears it (or its barrier fails, which ends the run).
      if (address) {
        saver.putWritesSync?.(address, writes, t.id)
        continue
      }
      // A task with pending writes already has only its own replaced.
      if (pending?.has(t.id)) this.pendingWrites = this.pendingWrites.filter(([id]) => id !== t.id)
      for (const [ch, v] of writes) this.pendingWrites.push([t.id, ch, v])
    }
  }

  private async putWrites(taskId: string, writes: [string, unknown][]): Promise<void> {
    // Before the first checkpoint there is nothing to attach them to in the saver.
    if (this.config.checkpointId !== undefined) {
      await this.o.saver.putWrites(this.config as CheckpointAddress, writes, taskId)
    }
    this.pendingWrites = this.pendingWrites.filter(([tid]) => tid !== taskId)
    for (const [ch, v] of writes) this.pendingWrites.push([taskId, ch, v])
  }

  /** applyWrites replaced these tasks' nodes' `versions_seen` entries. */
  private markSeen(tasks: readonly Pick<Task, 'name'>[]): void {
    for (const t of tasks) this.seenChanged.add(t.name)
  }

  private async putCheckpoint(source: CheckpointSource): Promise<void> {
    const next = this.nextCheckpoint(source)
    const { checkpoint, metadata, newVersions, incremental } = next
    const seen = incremental ? this.seenChanged : undefined
    this.config = await this.o.saver.put(this.config, checkpoint, metadata, newVersions, seen)
    this.checkpointSaved(next)
  }

  /** putCheckpoint with a saver that has `putSync` (advance() runs only with one). */
  private putCheckpointNow(source: CheckpointSource): void {
    const next = this.nextCheckpoint(source)
    const { checkpoint, metadata, newVersions, incremental } = next
    const seen = incremental ? this.seenChanged : undefined
    const saver = this.o.saver as Required<Pick<CheckpointSaver, 'putSync'>>
    this.config = saver.putSync(this.config, checkpoint, metadata, newVersions, seen)
    this.checkpointSaved(next)
  }

  /** The checkpoint the step leaves, as the saver is given it. */
  private nextCheckpoint(source: CheckpointSource): NextCheckpoint {
    const { env, saver } = this.o
    const versions = this.checkpoint.channel_versions
    // What changed since the last save: the bumped channels (not a pass over every channel).
    const newVersions: ChannelVersions = {}
    for (const ch of this.bumped) newVersions[ch] = versions[ch] as number
    this.bumped.clear()
    const checkpoint: Checkpoint = {
      v: 1,
      id: env.newId(),
      ts: env.now(),
      // Only what changed: the saver keeps the rest from the parent (see CheckpointSaver.put).
      channel_values: checkpointValues(this.channels, newVersions),
      channel_versions: versions,
      // applyWrites replaces a node's entry instead of mutating it, so sharing entries is safe
      versions_seen: this.checkpoint.versions_seen,
    }
    // Savers copy `parents` on the way out: one empty object serves every checkpoint.
    const metadata: CheckpointMetadata = { source, step: this.step, parents: NO_PARENTS }
    this.parentId = this.config.checkpointId
    return { checkpoint, metadata, newVersions, incremental: saver.incremental === true }
  }

  /**
   * The saver has the checkpoint. An incremental saver read what changed during the call:
   * the loop goes on with the same objects. Any other saver got the working objects and
   * owns them from here on (it never copies them, we never mutate them again); the loop
   * continues on fresh copies.
   */
  private checkpointSaved({
    checkpoint,
    metadata,
    newVersions,
    incremental,
  }: NextCheckpoint): void {
    const versions = checkpoint.channel_versions
    if (incremental) {
      this.checkpoint = { ...checkpoint, channel_values: {} }
    } else {
      this.checkpoint = {
        ...checkpoint,
        channel_values: {},
        channel_versions: { ...versions },
        versions_seen: { ...checkpoint.versions_seen },
      }
    }
    this.seenChanged.clear()
    this.metadata = metadata
    // Pending writes belong to the checkpoint they were made against; the new one has none.
    this.pendingWrites = []
    this.o.onEvent?.({
      type: 'checkpoint_saved',
      step: this.step,
      source: metadata.source,
      checkpointId: checkpoint.id,
      // What this checkpoint changed (the loop goes on mutating its full map after an
      // incremental put, and copying every channel's version each step cost a pass over
      // every channel: 2,000 on a 2,000-node chain). Nothing mutates `newVersions` again.
      versions: newVersions,
    })
    this.step += 1
  }
}

const NO_PARENTS: Record<string, string> = Object.freeze({}) as Record<string, string>

interface NextCheckpoint {
  checkpoint: Checkpoint
  metadata: CheckpointMetadata
  newVersions: ChannelVersions
  incremental: boolean
}

/** The task whose error fails the step, and the error. */
interface StepFailure {
  task: Task
  error: unknown
}

/** An error a task threw at once (runTaskNow done without a promise). */
class Raised {
  constructor(readonly error: unknown) {}
}

/** What the tasks of one step came to, as they settle. */
interface StepOutcome {
  step: number
  /** The monotonic clock when the step's tasks started (0 without a listener or a clock). */
  started: number
  done: Task[]
  interrupted: { task: Task; interrupts: Interrupt[] }[]
  /** A Command.PARENT ends this (sub)graph's step like an interrupt: the siblings finish. */
  toParent: { task: Task; command: ParentCommand }[]
}

const Command_PARENT = '__parent__'

function inputTask(writes: [string, unknown][]): Pick<Task, 'id' | 'name' | 'triggers' | 'writes'> {
  return { id: INPUT, name: INPUT, triggers: [], writes }
}

function isResumeMap(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false
  const keys = Object.keys(v)
  return keys.length > 0 && keys.every((k) => /^[0-9a-f]{32}$/.test(k))
}

/**
 * LangGraph's static interrupt test: something changed since the last resume and one of
 * the tasks is a listed node (`*`: any node but START).
 */
function shouldInterrupt(
  checkpoint: Checkpoint,
  nodes: readonly string[] | '*',
  tasks: Task[],
): boolean {
  const listed = tasks.some((t) => (nodes === '*' ? t.name !== START : nodes.includes(t.name)))
  if (!listed) return false
  const seen = checkpoint.versions_seen[INTERRUPT] ?? {}
  const versions = checkpoint.channel_versions
  for (const ch in versions) if ((versions[ch] as number) > (seen[ch] ?? 0)) return true
  return false
}

/** The thread (and namespace) a config addresses, without a checkpoint. */
function threadOf(cfg: CheckpointConfig): CheckpointConfig {
  const ns = cfg.checkpointNs
  return ns ? { threadId: cfg.threadId, checkpointNs: ns } : { threadId: cfg.threadId }
}
