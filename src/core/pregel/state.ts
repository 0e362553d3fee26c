import type { CheckpointConfig, CheckpointSaver, CheckpointTuple } from '../checkpoint/types'
import type { CompiledGraph } from '../compile/compileGraph'
import { channelsFromCheckpoint, prepareTasks, readState } from './algo'

/** A checkpoint as the debugger and LangGraph's getState show it. */
export interface StateSnapshot {
  values: Record<string, unknown>
  /** Node names of the tasks that would run next, in task order. */
  next: string[]
  tasks: { id: string; name: string }[]
  metadata: CheckpointTuple['metadata']
  config: CheckpointTuple['config']
  parentConfig: CheckpointTuple['parentConfig']
  createdAt: string
  channelVersions: CheckpointTuple['checkpoint']['channel_versions']
  versionsSeen: CheckpointTuple['checkpoint']['versions_seen']
}

/** The snapshot of one stored checkpoint (pending writes are not applied). */
export function snapshotOf(graph: CompiledGraph, tuple: CheckpointTuple): StateSnapshot {
  const channels = channelsFromCheckpoint(graph, tuple.checkpoint)
  const tasks = prepareTasks(graph, tuple.checkpoint, channels)
  return {
    values: readState(graph, channels),
    next: tasks.map((t) => t.name),
    tasks: tasks.map((t) => ({ id: t.id, name: t.name })),
    metadata: tuple.metadata,
    config: tuple.config,
    parentConfig: tuple.parentConfig,
    createdAt: tuple.checkpoint.ts,
    channelVersions: tuple.checkpoint.channel_versions,
    versionsSeen: tuple.checkpoint.versions_seen,
  }
}

/** The thread's snapshots, newest first (LangGraph's getStateHistory). */
export async function getStateHistory(
  graph: CompiledGraph,
  saver: CheckpointSaver,
  config: CheckpointConfig,
): Promise<StateSnapshot[]> {
  const out: StateSnapshot[] = []
  for await (const tuple of saver.list(config)) out.push(snapshotOf(graph, tuple))
  return out
}
