import type { CheckpointTuple } from '../checkpoint/types'
import { TASKS, type CompiledGraph } from '../compile/compileGraph'
import { START } from '../graph/constants'
import { channelsFromCheckpoint, type Channels } from '../pregel/algo'
import { snapshotOf } from '../pregel/state'
import { foldsOf, reducerName, tasksThatRan } from './ran'
import { channelContent, restoreCheckpoint } from './restore'
import { scheduleOf } from './schedule'
import type { ChannelRole, ChannelRow, CheckpointInspection, TaskRun } from './types'

/**
 * Everything the debugger shows of one stored checkpoint: every channel with its value and
 * version (against the parent's), the tasks that ran from the parent to make it (for a
 * `loop` checkpoint) and the folds their writes met in, and why each node will or will not
 * run next (`versions_seen` against `channel_versions`). `parent` is the tuple of
 * `tuple.parentConfig`, when the caller has it.
 */
export async function inspectCheckpoint(
  graph: CompiledGraph,
  tuple: CheckpointTuple,
  parent: CheckpointTuple | undefined,
): Promise<CheckpointInspection> {
  const channels = channelsFromCheckpoint(graph, tuple.checkpoint)
  const { ran, before } = await ranFrom(graph, tuple, parent)
  const snapshot = await snapshotOf(graph, tuple)
  const parentId = tuple.parentConfig?.checkpointId
  return {
    checkpointId: tuple.config.checkpointId,
    ...(parentId !== undefined ? { parentId } : {}),
    step: tuple.metadata.step,
    source: tuple.metadata.source,
    channels: channelRows(graph, tuple, parent, channels),
    ran,
    folds: before ? foldsOf(graph, ran, before, channels) : [],
    schedule: scheduleOf(graph, await restoreCheckpoint(graph, tuple, false)),
    next: snapshot.next,
  }
}

/** The tasks of the parent's super-step and the channels they ran on (none unless `loop`). */
async function ranFrom(
  graph: CompiledGraph,
  tuple: CheckpointTuple,
  parent: CheckpointTuple | undefined,
): Promise<{ ran: TaskRun[]; before?: Channels }> {
  if (tuple.metadata.source !== 'loop' || !parent) return { ran: [] }
  // The loop bumps the versions of the parent's NULL_TASK_ID writes before it prepares tasks.
  const { channels, tasks } = await restoreCheckpoint(graph, parent, true)
  return { ran: tasksThatRan(tasks, parent.pendingWrites), before: channels }
}

function channelRows(
  graph: CompiledGraph,
  tuple: CheckpointTuple,
  parent: CheckpointTuple | undefined,
  channels: Channels,
): ChannelRow[] {
  const versions = tuple.checkpoint.channel_versions
  const parentVersions = parent?.checkpoint.channel_versions
  return Object.keys(graph.channels).map((name) => {
    const role = roleOf(graph, name)
    const channel = channels[name] as Channels[string]
    const reducer = role === 'field' ? reducerName(graph, name) : undefined
    const version = versions[name]
    const parentVersion = parentVersions?.[name]
    return {
      name,
      role,
      type: channel.kind,
      ...(reducer !== undefined ? { reducer } : {}),
      ...channelContent(channel),
      ...(version !== undefined ? { version } : {}),
      ...(parentVersion !== undefined ? { parentVersion } : {}),
      changed: parentVersions ? version !== parentVersion : version !== undefined,
    }
  })
}

function roleOf(graph: CompiledGraph, name: string): ChannelRole {
  if (graph.fieldSet.has(name)) return 'field'
  if (name === START) return 'start'
  if (name === TASKS) return 'tasks'
  return name.startsWith('join:') ? 'join' : 'branch'
}
