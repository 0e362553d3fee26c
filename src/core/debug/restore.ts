import { EMPTY, NamedBarrierValue, type Channel } from '../channels'
import { NULL_TASK_ID, type Checkpoint, type CheckpointTuple } from '../checkpoint/types'
import type { CompiledGraph } from '../compile/compileGraph'
import { channelsFromCheckpoint, prepareTasks, type Channels, type Task } from '../pregel/algo'
import { applyWritesFolded } from '../pregel/foldRemote'

/** A stored checkpoint brought back to life: its channels and the tasks of its next super-step. */
export interface Restored {
  checkpoint: Checkpoint
  channels: Channels
  tasks: Task[]
}

/**
 * Restores a checkpoint's channels with its NULL_TASK_ID writes applied (a resume value, a
 * Command's update or goto) and prepares its tasks. `bumpVersions: false` is snapshotOf's
 * view (what getState's `next` shows); `true` is the loop's, which bumps the versions those
 * writes touch before it prepares the tasks that then run.
 */
export async function restoreCheckpoint(
  graph: CompiledGraph,
  tuple: CheckpointTuple,
  bumpVersions: boolean,
): Promise<Restored> {
  const checkpoint = structuredClone(tuple.checkpoint)
  const channels = channelsFromCheckpoint(graph, checkpoint)
  const nullWrites = tuple.pendingWrites
    .filter(([tid]) => tid === NULL_TASK_ID)
    .map(([, ch, v]): [string, unknown] => [ch, v])
  if (nullWrites.length > 0) {
    const input = { id: '__input__', name: '__input__', triggers: [], writes: nullWrites }
    await applyWritesFolded(graph, checkpoint, channels, [input], bumpVersions)
  }
  return { checkpoint, channels, tasks: prepareTasks(graph, checkpoint, channels) }
}

/** A barrier's names and the sources it has seen (in name order); undefined for other channels. */
export function barrierState(channel: Channel): { names: string[]; seen: string[] } | undefined {
  if (!(channel instanceof NamedBarrierValue)) return undefined
  const stored = channel.checkpoint()
  const seen = new Set(
    (channel.kind === 'NamedBarrierValueAfterFinish'
      ? (stored as [string[], boolean])[0]
      : stored) as string[],
  )
  const names = [...channel.names]
  return { names, seen: names.filter((n) => seen.has(n)) }
}

/**
 * What a channel holds, as the channel table shows it: the value a task would read; for a
 * barrier the sources seen so far (sorted); for a deferred `branch:to:` channel the value
 * written even before the graph finished (a task could not read it yet, but it is there).
 */
export function channelContent(channel: Channel): { hasValue: boolean; value?: unknown } {
  const barrier = barrierState(channel)
  if (barrier) {
    return barrier.seen.length > 0 ? { hasValue: true, value: [...barrier.seen].sort() } : empty
  }
  if (channel.kind === 'LastValueAfterFinish') {
    const stored = channel.checkpoint()
    return stored === EMPTY ? empty : { hasValue: true, value: (stored as [unknown])[0] }
  }
  const v = channel.get()
  return v === EMPTY ? empty : { hasValue: true, value: v }
}

const empty = { hasValue: false } as const
