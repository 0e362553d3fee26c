import {
  NULL_TASK_ID,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointConfig,
  type CheckpointSaver,
} from '../checkpoint/types'
import type { CompiledGraph, CompiledNode } from '../compile/compileGraph'
import { START } from '../graph/constants'
import type { RuntimeEnv } from '../../lib/env'
import { channelsFromCheckpoint, checkpointValues, prepareTasks, type Task } from './algo'
import { InvalidUpdateError } from './errors'
import { INTERRUPT } from './interrupt'
import type { RuntimeWarning } from './task'
import { runWriters } from './task'
import { applyWritesFolded } from './foldRemote'

export interface UpdateStateOptions {
  graph: CompiledGraph
  saver: CheckpointSaver
  env: RuntimeEnv
  warn?: (w: RuntimeWarning) => void
}

/**
 * LangGraph's `updateState`: writes `values` as if `asNode` had returned them (through the
 * reducers, firing that node's edges), as a new checkpoint whose parent is the addressed
 * one (`source: "update"`, step + 1). Addressing an older checkpoint forks history.
 * `asNode: "__copy__"` copies the checkpoint as a sibling (`source: "fork"`).
 */
export async function updateState(
  o: UpdateStateOptions,
  config: CheckpointConfig,
  values: unknown,
  asNode?: string,
): Promise<Required<CheckpointConfig>> {
  const { graph, saver, env } = o
  const saved = await saver.getTuple(config)
  if (config.checkpointId && !saved) {
    throw new Error(
      `Checkpoint ${config.checkpointId} does not exist on thread ${config.threadId}.`,
    )
  }
  const checkpoint: Checkpoint = saved
    ? structuredClone(saved.checkpoint)
    : {
        v: 1,
        id: env.newId(),
        ts: env.now(),
        channel_values: {},
        channel_versions: {},
        versions_seen: {},
      }
  const previous: ChannelVersions = { ...checkpoint.channel_versions }
  const step = saved?.metadata.step ?? -1
  const parentConfig: CheckpointConfig = saved ? saved.config : { threadId: config.threadId }
  const put = (
    source: 'update' | 'fork',
    cfg: CheckpointConfig,
    cp: Checkpoint,
    values: Record<string, unknown>,
  ) => {
    const newVersions: ChannelVersions = {}
    for (const [ch, v] of Object.entries(cp.channel_versions))
      if (previous[ch] !== v) newVersions[ch] = v
    return saver.put(
      cfg,
      { ...cp, id: env.newId(), ts: env.now(), channel_values: values },
      { source, step: step + 1, parents: {} },
      cfg === parentConfig ? newVersions : { ...cp.channel_versions },
    )
  }

  if (asNode === '__copy__') {
    if (!saved) throw new InvalidUpdateError('Cannot copy a non-existent checkpoint')
    // A sibling of the copied checkpoint: same values, same parent.
    const cfg = saved.parentConfig ?? { threadId: config.threadId }
    return put('fork', cfg, checkpoint, structuredClone(saved.checkpoint.channel_values))
  }
  const channels = channelsFromCheckpoint(graph, checkpoint)
  if (values === null || values === undefined) {
    if (asNode === undefined) return put('update', parentConfig, checkpoint, {})
  }

  // The thread's latest: apply what its pending tasks already wrote, as LangGraph does.
  if (!config.checkpointId && saved && saved.pendingWrites.length > 0) {
    const nullWrites = saved.pendingWrites
      .filter(([tid]) => tid === NULL_TASK_ID)
      .map(([, ch, v]): [string, unknown] => [ch, v])
    if (nullWrites.length) {
      await applyWritesFolded(graph, checkpoint, channels, [
        { id: '__input__', name: '__input__', triggers: [], writes: nullWrites },
      ])
    }
    const tasks = prepareTasks(graph, checkpoint, channels)
    const byId = new Map(tasks.map((t) => [t.id, t]))
    for (const [tid, ch, v] of saved.pendingWrites) {
      if (ch === '__error__' || ch === INTERRUPT || ch === '__scheduled__') continue
      byId.get(tid)?.writes.push([ch, v])
    }
    const withWrites = tasks.filter((t) => t.writes.length > 0)
    if (withWrites.length) await applyWritesFolded(graph, checkpoint, channels, withWrites)
  }

  const name = asNode ?? defaultAsNode(graph, checkpoint)
  const node = graph.nodes.get(name)
  if (!node) throw new InvalidUpdateError(`Node "${name}" does not exist`)
  const task: Task = {
    id: `~${INTERRUPT}, 0000000000`,
    name,
    kind: 'pull',
    triggers: [INTERRUPT],
    input: values,
    node: node as CompiledNode,
    writes: [],
  }
  await runWriters(task, values, { graph, channels, warn: o.warn ?? (() => {}) })
  await applyWritesFolded(graph, checkpoint, channels, [task])
  const newVersions: ChannelVersions = {}
  for (const [ch, v] of Object.entries(checkpoint.channel_versions))
    if (previous[ch] !== v) newVersions[ch] = v
  const written = checkpointValues(channels, saved ? newVersions : checkpoint.channel_versions)
  return put('update', parentConfig, checkpoint, written)
}

/**
 * The node an update is attributed to when none is named: START on a thread where nothing
 * ran, else the node that saw the newest version; a tie is ambiguous.
 */
function defaultAsNode(graph: CompiledGraph, checkpoint: Checkpoint): string {
  if (graph.nodes.size === 1) return START
  const seen = Object.entries(checkpoint.versions_seen).filter(([n]) => n !== INTERRUPT)
  const all = seen.flatMap(([n, vs]) => Object.values(vs).map((v): [number, string] => [v, n]))
  if (!all.some(([v]) => v)) return START
  all.sort(([a], [b]) => a - b)
  const last = all[all.length - 1] as [number, string]
  const prev = all[all.length - 2]
  if (all.length === 1 || (prev && prev[0] !== last[0])) return last[1]
  throw new InvalidUpdateError('Ambiguous update, specify "asNode"')
}
