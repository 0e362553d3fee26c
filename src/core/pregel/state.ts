import {
  NULL_TASK_ID,
  type CheckpointConfig,
  type CheckpointSaver,
  type CheckpointTuple,
  type ListOptions,
  type PendingWrite,
} from '../checkpoint/types'
import type { CompiledGraph } from '../compile/compileGraph'
import { INPUT } from '../graph/constants'
import { channelsFromCheckpoint, prepareTasks, readState, type Channels, type Task } from './algo'
import { INTERRUPT, type Interrupt } from './interrupt'
import { isTaskOutput } from './loop'
import { applyWritesFolded } from './foldRemote'

/** A task of a snapshot: what would run next, and what is known of its last attempt. */
export interface SnapshotTask {
  id: string
  name: string
  interrupts: Interrupt[]
  error?: { name: string; message: string }
  /** The task's stored output writes, when it already succeeded. */
  writes?: [string, unknown][]
  /**
   * The state of the subgraph the task runs (a graph node's), with `subgraphs: true` and
   * when the subgraph has a checkpoint in the task's namespace (LangGraph's `tasks[i].state`).
   */
  state?: StateSnapshot
}

/** A checkpoint as the debugger and LangGraph's getState show it. */
export interface StateSnapshot {
  values: Record<string, unknown>
  /** Node names of the tasks that would run next, in task order. */
  next: string[]
  tasks: SnapshotTask[]
  metadata: CheckpointTuple['metadata']
  config: CheckpointTuple['config']
  parentConfig: CheckpointTuple['parentConfig']
  createdAt: string
  channelVersions: CheckpointTuple['checkpoint']['channel_versions']
  versionsSeen: CheckpointTuple['checkpoint']['versions_seen']
}

/**
 * The snapshot of a stored checkpoint (LangGraph's `_prepareStateSnapshot`). With
 * `applyPendingWrites` (getState of a thread's latest), the writes of tasks that already
 * succeeded are applied and those tasks leave `next`.
 */
export async function snapshotOf(
  graph: CompiledGraph,
  tuple: CheckpointTuple,
  applyPendingWrites = false,
): Promise<StateSnapshot> {
  const pending = tuple.pendingWrites
  // Loops with indexes, not destructuring callbacks: a report reads every checkpoint once,
  // mostly before the JIT has optimised this.
  const nullWrites: [string, unknown][] = []
  for (const w of pending) if (w[0] === NULL_TASK_ID) nullWrites.push([w[1], w[2]])
  // Only applying writes changes the checkpoint (and a custom reducer may change a value in
  // place): then it works on a copy; reading alone needs none (a history reads thousands).
  const writesApplied = nullWrites.length > 0 || (applyPendingWrites && pending.length > 0)
  const checkpoint = writesApplied ? structuredClone(tuple.checkpoint) : tuple.checkpoint
  const channels = channelsFromCheckpoint(graph, checkpoint)
  if (nullWrites.length > 0) {
    const input = { id: INPUT, name: INPUT, triggers: [], writes: nullWrites }
    await applyWritesFolded(graph, checkpoint, channels, [input], false)
  }
  const tasks = prepareTasks(graph, checkpoint, channels)
  if (applyPendingWrites) await applyTaskWrites(graph, checkpoint, channels, tasks, pending)
  const next: string[] = []
  for (const t of tasks) if (t.writes.length === 0) next.push(t.name)
  return {
    values: readState(graph, channels),
    next,
    tasks: tasks.map((t) => snapshotTask(t, pending)),
    metadata: tuple.metadata,
    config: tuple.config,
    parentConfig: tuple.parentConfig,
    createdAt: tuple.checkpoint.ts,
    channelVersions: tuple.checkpoint.channel_versions,
    versionsSeen: tuple.checkpoint.versions_seen,
  }
}

async function applyTaskWrites(
  graph: CompiledGraph,
  checkpoint: CheckpointTuple['checkpoint'],
  channels: Channels,
  tasks: Task[],
  pending: CheckpointTuple['pendingWrites'],
): Promise<void> {
  const byId = new Map(tasks.map((t) => [t.id, t]))
  for (const [tid, ch, v] of pending) {
    if (ch === '__error__' || ch === INTERRUPT || ch === '__scheduled__') continue
    byId.get(tid)?.writes.push([ch, v])
  }
  const withWrites = tasks.filter((t) => t.writes.length > 0)
  if (withWrites.length > 0) await applyWritesFolded(graph, checkpoint, channels, withWrites, false)
}

function snapshotTask(task: Task, pending: CheckpointTuple['pendingWrites']): SnapshotTask {
  const out: SnapshotTask = { id: task.id, name: task.name, interrupts: [] }
  let error: PendingWrite | undefined
  let writes: [string, unknown][] | undefined
  for (const w of pending) {
    if (w[0] !== task.id) continue
    const ch = w[1]
    if (ch === INTERRUPT) {
      const v = w[2]
      if (Array.isArray(v)) for (const i of v) out.interrupts.push(i as Interrupt)
      else out.interrupts.push(v as Interrupt)
    } else if (ch === '__error__') error ??= w
    if (isTaskOutput(ch)) (writes ??= []).push([ch, w[2]])
  }
  if (error) out.error = error[2] as SnapshotTask['error']
  if (writes) out.writes = writes
  return out
}

/** The thread's snapshots, newest first (LangGraph's getStateHistory). */
export async function getStateHistory(
  graph: CompiledGraph,
  saver: CheckpointSaver,
  config: CheckpointConfig,
  options?: ListOptions,
): Promise<StateSnapshot[]> {
  const out: StateSnapshot[] = []
  for await (const tuple of saver.list(config, options)) out.push(await snapshotOf(graph, tuple))
  return out
}
