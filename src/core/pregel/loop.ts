import type { RuntimeEnv } from '../../lib/env'
import type {
  ChannelVersions,
  Checkpoint,
  CheckpointConfig,
  CheckpointMetadata,
  CheckpointSaver,
  CheckpointSource,
  PendingWrite,
} from '../checkpoint/types'
import type { CompiledGraph } from '../compile/compileGraph'
import { START } from '../graph/constants'
import {
  applyWrites,
  channelsFromCheckpoint,
  checkpointValues,
  prepareTasks,
  type Channels,
  type Task,
} from './algo'
import { EmptyInputError, GraphRecursionError } from './errors'
import { runTask, type RuntimeWarning } from './task'

export const DEFAULT_RECURSION_LIMIT = 25
const INTERRUPT = '__interrupt__'

/** How a run ended when it did not throw. */
export type RunOutcome = 'done' | 'interrupted'

/** What the loop reports as it runs; the worker turns these into UI events. */
export type LoopEvent =
  | { type: 'step_started'; step: number; tasks: { id: string; name: string }[] }
  | {
      type: 'task_finished'
      step: number
      taskId: string
      name: string
      writes: [string, unknown][]
    }
  | { type: 'task_failed'; step: number; taskId: string; name: string; error: unknown }
  | { type: 'checkpoint_saved'; step: number; source: CheckpointSource; checkpointId: string }
  | { type: 'warning'; step: number; warning: RuntimeWarning }

export interface LoopOptions {
  graph: CompiledGraph
  saver: CheckpointSaver
  env: RuntimeEnv
  threadId: string
  recursionLimit?: number
  onEvent?: (e: LoopEvent) => void
}

/** Why a run failed: the error and the node it came from (if any). */
export class NodeRunError extends Error {
  constructor(
    override readonly cause: unknown,
    readonly node: string,
  ) {
    super(cause instanceof Error ? cause.message : String(cause))
  }
}

/**
 * The super-step loop (LangGraph's PregelLoop): plan the tasks, run them concurrently on one
 * snapshot, apply their writes at the barrier, checkpoint, repeat.
 */
export class PregelLoop {
  private checkpoint!: Checkpoint
  private metadata!: CheckpointMetadata
  private channels!: Channels
  private config!: Required<CheckpointConfig> | CheckpointConfig
  private pendingWrites: PendingWrite[] = []
  /** Versions at the last put, to tell the saver what changed. */
  private savedVersions: ChannelVersions = {}
  private updatedChannels: Set<string> | undefined
  private step = 0
  private stop = 0

  constructor(private readonly o: LoopOptions) {}

  /**
   * Runs the graph on `input` from the thread's latest checkpoint until it finishes or a
   * static interrupt (interruptBefore / interruptAfter) pauses it.
   */
  async run(input: unknown): Promise<RunOutcome> {
    await this.load()
    this.applyInput(input)
    await this.putCheckpoint('input')
    const { graph } = this.o
    for (;;) {
      if (this.step > this.stop)
        throw new GraphRecursionError(this.o.recursionLimit ?? DEFAULT_RECURSION_LIMIT)
      const tasks = prepareTasks(graph, this.checkpoint, this.channels, {
        updatedChannels: this.updatedChannels,
      })
      if (tasks.length === 0) return 'done'
      if (shouldInterrupt(this.checkpoint, graph.interruptBefore, tasks)) return 'interrupted'
      await this.execute(tasks)
      this.updatedChannels = applyWrites(
        this.checkpoint,
        this.channels,
        tasks,
        graph.triggerToNodes,
      )
      await this.putCheckpoint('loop')
      if (shouldInterrupt(this.checkpoint, graph.interruptAfter, tasks)) return 'interrupted'
    }
  }

  private async load(): Promise<void> {
    const { graph, saver, threadId } = this.o
    const saved = await saver.getTuple({ threadId })
    if (saved) {
      this.checkpoint = saved.checkpoint
      this.metadata = saved.metadata
      this.pendingWrites = saved.pendingWrites
      this.config = saved.config
      this.savedVersions = { ...saved.checkpoint.channel_versions }
    } else {
      this.checkpoint = emptyCheckpoint(this.o.env)
      this.metadata = { source: 'input', step: -2, parents: {} }
      this.config = { threadId }
    }
    this.channels = channelsFromCheckpoint(graph, this.checkpoint)
    this.step = this.metadata.step + 1
    this.stop = this.step + (this.o.recursionLimit ?? DEFAULT_RECURSION_LIMIT) + 1
  }

  /** New input: pending tasks of the loaded checkpoint are discarded, the input goes to START. */
  private applyInput(input: unknown): void {
    if (input === null || input === undefined) {
      throw new EmptyInputError(`Received no input writes for "${START}"`)
    }
    const discarded = prepareTasks(this.o.graph, this.checkpoint, this.channels)
    this.updatedChannels = applyWrites(
      this.checkpoint,
      this.channels,
      [
        ...discarded,
        { id: '__input__', name: '__input__', triggers: [], writes: [[START, input]] },
      ],
      this.o.graph.triggerToNodes,
    )
    this.pendingWrites = []
  }

  /** Runs a step's tasks concurrently; the first failure fails the step (fail fast). */
  private async execute(tasks: Task[]): Promise<void> {
    const step = this.step
    const emit = this.o.onEvent
    emit?.({ type: 'step_started', step, tasks: tasks.map((t) => ({ id: t.id, name: t.name })) })
    const ctx = {
      graph: this.o.graph,
      channels: this.channels,
      warn: (warning: RuntimeWarning) => emit?.({ type: 'warning', step, warning }),
    }
    const done: Task[] = []
    const failure = await new Promise<{ task: Task; error: unknown } | null>((resolve) => {
      let remaining = tasks.length
      for (const task of tasks) {
        runTask(task, ctx).then(
          () => {
            done.push(task)
            emit?.({
              type: 'task_finished',
              step,
              taskId: task.id,
              name: task.name,
              writes: task.writes,
            })
            if (--remaining === 0) resolve(null)
          },
          (error: unknown) => resolve({ task, error }),
        )
      }
    })
    if (!failure) return
    emit?.({
      type: 'task_failed',
      step,
      taskId: failure.task.id,
      name: failure.task.name,
      error: failure.error,
    })
    const cfg = this.config as Required<CheckpointConfig>
    for (const t of done) {
      await this.o.saver.putWrites(
        cfg,
        t.writes.length ? t.writes : [['__no_writes__', null]],
        t.id,
      )
    }
    await this.o.saver.putWrites(cfg, [['__error__', errorToJson(failure.error)]], failure.task.id)
    throw new NodeRunError(failure.error, failure.task.name)
  }

  private async putCheckpoint(source: CheckpointSource): Promise<void> {
    const { env, saver } = this.o
    const versions = this.checkpoint.channel_versions
    const newVersions: ChannelVersions = {}
    for (const ch in versions) {
      if (versions[ch] !== this.savedVersions[ch]) newVersions[ch] = versions[ch] as number
    }
    this.checkpoint = {
      v: 1,
      id: env.newId(),
      ts: env.now(),
      // Only what changed: the saver keeps the rest from the parent (see CheckpointSaver.put).
      channel_values: checkpointValues(this.channels, newVersions),
      channel_versions: { ...versions },
      // applyWrites replaces a node's entry instead of mutating it, so a shallow copy is a snapshot
      versions_seen: { ...this.checkpoint.versions_seen },
    }
    this.metadata = { source, step: this.step, parents: {} }
    this.config = await saver.put(this.config, this.checkpoint, this.metadata, newVersions)
    this.savedVersions = { ...versions }
    this.o.onEvent?.({
      type: 'checkpoint_saved',
      step: this.step,
      source,
      checkpointId: this.checkpoint.id,
    })
    this.step += 1
  }
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

function emptyCheckpoint(env: RuntimeEnv): Checkpoint {
  return {
    v: 1,
    id: env.newId(),
    ts: env.now(),
    channel_values: {},
    channel_versions: {},
    versions_seen: {},
  }
}

/** An error as plain JSON, for pending writes and events. */
export function errorToJson(e: unknown): { name: string; message: string; code: string | null } {
  const err = e as { name?: unknown; message?: unknown; lc_error_code?: unknown } | null
  return {
    name: typeof err?.name === 'string' ? err.name : 'Error',
    message: typeof err?.message === 'string' ? err.message : String(e),
    code: typeof err?.lc_error_code === 'string' ? err.lc_error_code : null,
  }
}
