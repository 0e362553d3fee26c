/**
 * What the debugger shows of one checkpoint: the channel machinery in plain view. Built by
 * `inspectCheckpoint` (inspect.ts) from stored checkpoint tuples and the compiled graph;
 * plain JSON-compatible data, so it crosses `postMessage` as it is.
 */
import type { ChannelKind } from '../channels/base'
import type { CheckpointSource } from '../checkpoint/types'
import type { TaskLog } from '../compile/host'

/** Which part of the graph a channel belongs to. */
export type ChannelRole =
  /** A state field of the schema. */
  | 'field'
  /** `__start__`: the input of a run. */
  | 'start'
  /** `__pregel_tasks`: the Sends queued for the next super-step. */
  | 'tasks'
  /** `branch:to:<node>`: written by an edge (fixed or conditional) into the node. */
  | 'branch'
  /** `join:<a>+<b>:<node>`: the barrier of a join edge. */
  | 'join'

/** One row of the channel table. */
export interface ChannelRow {
  name: string
  role: ChannelRole
  /** The channel class the compiler made (LangGraph's names). */
  type: ChannelKind
  /** For fields: the reducer or channel named in the schema (`add`, `topic`, …). */
  reducer?: string
  /** False when the channel holds nothing (no `value` then). */
  hasValue: boolean
  /** The checkpointed value (a barrier: the sources seen so far). */
  value?: unknown
  /** The channel's version in this checkpoint; absent when it was never written. */
  version?: number
  /** The version in the parent checkpoint (absent: no parent, or not written there). */
  parentVersion?: number
  /** The version differs from the parent's: the channel was written (or consumed) in this step. */
  changed: boolean
}

/** One write of a task, in the order apply_writes applied it. */
export interface TaskWrite {
  channel: string
  value: unknown
}

/**
 * A task that ran from the parent checkpoint and produced this one: its writes as stored
 * against the parent (LangGraph's pending writes), in apply order (tasks sorted by path).
 */
export interface TaskRun {
  id: string
  name: string
  /** `pull`: triggered by a channel; `push`: a Send. */
  kind: 'pull' | 'push'
  writes: TaskWrite[]
  error?: { name: string; message: string }
  interrupts: { id: string; value: unknown }[]
  /** Filled in by the worker from what it recorded when the task ran (absent for an import). */
  durationMs?: number
  /** What the task's code logged, likewise from the worker's records. */
  logs?: TaskLog[]
}

/** Several writes met in one channel in one super-step: what the reducer folded. */
export interface ChannelFold {
  channel: string
  reducer?: string
  /** The channel's value before the step (absent when it was empty). */
  before?: unknown
  hadBefore: boolean
  /** Each write in the order it was folded, with the task that made it. */
  writes: { task: string; value: unknown }[]
  /** The value after the step (absent when empty). */
  after?: unknown
  hasAfter: boolean
}

/** One channel a node listens to, as its `versions_seen` records it. */
export interface TriggerView {
  channel: string
  /** The channel's version in this checkpoint (absent: never written). */
  current?: number
  /** The version the node last saw (absent: never). */
  seen?: number
  /** current > seen (or seen absent and current present): LangGraph's trigger condition, before availability. */
  newer: boolean
  /** The channel holds a value a task could read (`isAvailable`); a barrier is available only when complete. */
  available: boolean
}

/** Why a node will or will not run in the next super-step. */
export interface NodeSchedule {
  node: string
  triggers: TriggerView[]
  /** A PULL task of this node is in the next super-step (matches the snapshot's `next`). */
  willRun: boolean
  /** Sends to this node queued in `__pregel_tasks` (PUSH tasks of the next step). */
  sends: number
  /**
   * One sentence, LangGraph's words, e.g. "will run: `branch:to:b` is at 7, b has seen 5",
   * "will not run: `branch:to:b` is at 3 and b has seen 3", "will not run: `join:a+b:c`
   * is waiting for b".
   */
  reason: string
}

/** Everything the debugger shows for one checkpoint. */
export interface CheckpointInspection {
  checkpointId: string
  parentId?: string
  step: number
  source: CheckpointSource
  /** Every channel the compiler made, in the compiled order (fields, START, tasks, branches, joins). */
  channels: ChannelRow[]
  /**
   * The tasks that ran from the parent and made this checkpoint, in apply order. Empty for
   * an `input` checkpoint and for an `update`/`fork` (whose writes are the update itself).
   */
  ran: TaskRun[]
  /** The channels where more than one write met in this step. */
  folds: ChannelFold[]
  /** Every node but `__start__` (and `__start__` too when it is triggered), in document order. */
  schedule: NodeSchedule[]
  /** The tasks of the next super-step (node names, task order), as getState's `next`. */
  next: string[]
}

/** One change between two states (`diffState`). */
export interface StateChange {
  /** The field, and the path inside it (`["messages", "m-2", "content"]` for a message by id). */
  path: (string | number)[]
  kind: 'added' | 'removed' | 'changed'
  before?: unknown
  after?: unknown
}

/** One checkpoint placed in the history tree (`layoutHistoryTree`). */
export interface TreeRow {
  checkpointId: string
  parentId?: string
  step: number
  source: CheckpointSource
  /** The column of its branch: 0 for the first (oldest) line, 1, 2, … for forks. */
  lane: number
  /** The lane of its parent (equal to `lane` unless a branch starts here). */
  parentLane?: number
  /** No checkpoint has it as parent: the end of a branch, where it can be continued. */
  isTip: boolean
  /** Lanes that pass through this row (a vertical line is drawn in each). */
  through: number[]
}
