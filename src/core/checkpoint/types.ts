import { ERROR, INTERRUPT, RESUME, SCHEDULED } from '../graph/constants'
/**
 * Checkpoints and the saver interface, modelled on LangGraph's BaseCheckpointSaver
 * (put, putWrites, getTuple, list). Values are plain JSON-compatible data.
 */
export type ChannelVersions = Record<string, number>

export interface Checkpoint {
  v: 1
  id: string
  /** ISO-8601 creation time. */
  ts: string
  /** Each channel's checkpointed value; channels absent here are empty. */
  channel_values: Record<string, unknown>
  channel_versions: ChannelVersions
  /** For each node, the version of each trigger channel it last ran on. */
  versions_seen: Record<string, ChannelVersions>
}

export type CheckpointSource = 'input' | 'loop' | 'update' | 'fork'

export interface CheckpointMetadata {
  source: CheckpointSource
  step: number
  parents: Record<string, string>
}

/** Addresses a thread, and optionally one checkpoint of it. */
export interface CheckpointConfig {
  threadId: string
  checkpointId?: string
  /**
   * The namespace of the graph the checkpoint belongs to, as LangGraph's `checkpoint_ns`:
   * `''` (the default) is the root graph; a subgraph run by a task is
   * `<node>:<taskId>`, nested `<node>:<taskId>|<node>:<taskId>`.
   */
  checkpointNs?: string
}

/** One stored checkpoint's address (what `put` returns); `checkpointNs` absent is the root. */
export type CheckpointAddress = CheckpointConfig & { checkpointId: string }

/** `[taskId, channel, value]`, LangGraph's pending write. */
export type PendingWrite = [taskId: string, channel: string, value: unknown]

export interface CheckpointTuple {
  config: CheckpointAddress
  checkpoint: Checkpoint
  metadata: CheckpointMetadata
  parentConfig: CheckpointAddress | undefined
  pendingWrites: PendingWrite[]
}

export interface ListOptions {
  limit?: number
  /** Only checkpoints older than this one. */
  before?: string
}

export interface CheckpointSaver {
  /**
   * Stores a checkpoint whose parent is `config.checkpointId`. `newVersions` names the
   * channels whose version differs from the parent's (all versioned channels when there is
   * no parent); `checkpoint.channel_values` must hold at least those channels' values (a
   * channel in `newVersions` but absent from the values is empty). An incremental saver
   * stores only those. The caller never mutates the objects it hands over.
   */
  put(
    config: CheckpointConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
    /** Given only to an `incremental` saver: see there. */
    changedSeen?: ReadonlySet<string>,
  ): Promise<CheckpointAddress>
  /**
   * True when `put` also takes `changedSeen`, the nodes whose `versions_seen` entry differs
   * from the parent's (all of them without a parent), and then reads the checkpoint's
   * `channel_versions` and `versions_seen` during the call only, at `newVersions`' channels
   * and `changedSeen`'s nodes: the caller may go on mutating those two objects afterwards
   * (never their `versions_seen` entries, which it replaces). A step then costs the saver
   * what the step changed, not the size of the graph.
   */
  readonly incremental?: boolean
  /**
   * Stores the writes a task made against the checkpoint `config` addresses, with
   * LangGraph's rules: a write to one of SPECIAL_WRITE_CHANNELS replaces the task's earlier
   * write to that channel; any other write is keyed by (task, index in `writes`) and an
   * existing one is kept. Pending writes come back from `getTuple`/`list` in the order they
   * were first stored.
   */
  putWrites(config: CheckpointAddress, writes: [string, unknown][], taskId: string): Promise<void>
  /**
   * Optional, on a saver whose writes are done when the call returns (in memory): `put`
   * without a promise. The loop then saves a super-step without an async hop; a saver
   * without it (IndexedDB) is awaited as before.
   */
  putSync?(
    config: CheckpointConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
    changedSeen?: ReadonlySet<string>,
  ): CheckpointAddress
  /** Optional, with `putSync`: `putWrites` without a promise. */
  putWritesSync?(config: CheckpointAddress, writes: [string, unknown][], taskId: string): void
  /** The addressed checkpoint, or the thread's newest (last put) when no id is given. */
  getTuple(config: CheckpointConfig): Promise<CheckpointTuple | undefined>
  /** The thread's checkpoints, newest (last put) first, all branches interleaved. */
  list(config: CheckpointConfig, options?: ListOptions): AsyncIterable<CheckpointTuple>
  deleteThread(threadId: string): Promise<void>
}

/** Channels whose pending write a task's later write replaces (LangGraph's WRITES_IDX_MAP). */
export const SPECIAL_WRITE_CHANNELS: ReadonlySet<string> = new Set([
  ERROR,
  SCHEDULED,
  INTERRUPT,
  RESUME,
])

/** The task id under which input-level writes (a resume value, a Command's update) are stored. */
export const NULL_TASK_ID = '00000000-0000-0000-0000-000000000000'
