import {
  NULL_TASK_ID,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointConfig,
  type CheckpointSaver,
  type CheckpointSource,
  type CheckpointTuple,
  type CheckpointAddress,
} from '../checkpoint/types'
import type { CompiledGraph, CompiledNode } from '../compile/compileGraph'
import { COPY, END, INPUT, START } from '../graph/constants'
import type { RuntimeEnv } from '../../lib/env'
import { channelsFromCheckpoint, checkpointValues, prepareTasks, type Channels } from './algo'
import type { Task } from './algo'
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

/** One update of a super-step: `values` written as `asNode`'s output. */
export interface StateUpdate {
  values: unknown
  asNode?: string
}

/** One checkpoint of a bulk update: its updates are applied together, as one step's tasks. */
export interface UpdateSuperstep {
  updates: StateUpdate[]
}

/** An update attributed to a task of the checkpoint (`__copy__` with updates). */
type TaskUpdate = StateUpdate & { taskId?: string }

/** The addressed checkpoint, loaded for an update. */
interface Loaded {
  saved: CheckpointTuple | undefined
  /** A working copy: the update mutates it. */
  checkpoint: Checkpoint
  channels: Channels
  previous: ChannelVersions
  step: number
  /** The new checkpoint's parent: the loaded one (or the bare thread). */
  parentConfig: CheckpointConfig
}

/**
 * LangGraph's `updateState`: writes `values` as if `asNode` had returned them (through the
 * reducers, firing that node's edges), as a new checkpoint whose parent is the addressed
 * one (`source: "update"`, step + 1). Addressing an older checkpoint forks history.
 * Special `asNode`s, as in LangGraph.js 1.7.3:
 * - `"__copy__"` copies the checkpoint as a sibling (`source: "fork"`); with `values` a list
 *   of `[values, asNode]` pairs, those updates are then applied to the copy as one step;
 * - `"__input__"` writes `values` as input (`source: "input"`, next `__start__`);
 * - `"__end__"` with `values` null ends the pending step: the tasks that finished keep
 *   their writes, the others are dropped, nothing is next.
 */
export function updateState(
  o: UpdateStateOptions,
  config: CheckpointConfig,
  values: unknown,
  asNode?: string,
): Promise<CheckpointAddress> {
  return bulkUpdateState(o, config, [
    { updates: [{ values, ...(asNode !== undefined && { asNode }) }] },
  ])
}

/**
 * LangGraph's `bulkUpdateState`: one new checkpoint per super-step, each after the one
 * before; the updates of a super-step run as that step's tasks (`asNode` required when
 * there are several). Returns the last checkpoint's config.
 */
export async function bulkUpdateState(
  o: UpdateStateOptions,
  config: CheckpointConfig,
  supersteps: readonly UpdateSuperstep[],
): Promise<CheckpointAddress> {
  if (supersteps.length === 0) throw new Error('No supersteps provided')
  if (supersteps.some((s) => s.updates.length === 0)) throw new Error('No updates provided')
  let current: CheckpointConfig = config
  for (const s of supersteps) current = await updateSuperstep(o, current, s.updates)
  return current as CheckpointAddress
}

async function load(o: UpdateStateOptions, config: CheckpointConfig): Promise<Loaded> {
  const saved = await o.saver.getTuple(config)
  if (config.checkpointId && !saved) {
    throw new Error(
      `Checkpoint ${config.checkpointId} does not exist on thread ${config.threadId}.`,
    )
  }
  const checkpoint: Checkpoint = saved
    ? structuredClone(saved.checkpoint)
    : {
        v: 1,
        id: o.env.newId(),
        ts: o.env.now(),
        channel_values: {},
        channel_versions: {},
        versions_seen: {},
      }
  return {
    saved,
    checkpoint,
    channels: channelsFromCheckpoint(o.graph, checkpoint),
    previous: { ...checkpoint.channel_versions },
    step: saved?.metadata.step ?? -1,
    parentConfig: saved
      ? saved.config
      : config.checkpointNs
        ? { threadId: config.threadId, checkpointNs: config.checkpointNs }
        : { threadId: config.threadId },
  }
}

/** Saves the loaded checkpoint as changed so far, as a child of the loaded one. */
function save(
  o: UpdateStateOptions,
  l: Loaded,
  source: CheckpointSource,
  step: number,
): Promise<CheckpointAddress> {
  const cp = l.checkpoint
  const newVersions: ChannelVersions = {}
  for (const [ch, v] of Object.entries(cp.channel_versions))
    if (l.previous[ch] !== v) newVersions[ch] = v
  return o.saver.put(
    l.parentConfig,
    {
      ...cp,
      id: o.env.newId(),
      ts: o.env.now(),
      channel_values: checkpointValues(l.channels, newVersions),
    },
    { source, step, parents: {} },
    newVersions,
  )
}

async function updateSuperstep(
  o: UpdateStateOptions,
  config: CheckpointConfig,
  updates: readonly TaskUpdate[],
): Promise<CheckpointAddress> {
  const l = await load(o, config)
  const { values, asNode } = updates[0] as TaskUpdate
  if ((values === null || values === undefined) && asNode === undefined) {
    if (updates.length > 1) {
      throw new InvalidUpdateError('Cannot create empty checkpoint with multiple updates')
    }
    return save(o, l, 'update', l.step + 1)
  }
  if (values === null && asNode === END) {
    if (updates.length > 1) {
      throw new InvalidUpdateError('Cannot apply multiple updates when clearing state')
    }
    // Every pending task counts as run: those that finished with their writes, the rest without.
    if (l.saved) await applyPendingWrites(o, l, false)
    return save(o, l, 'update', l.step + 1)
  }
  if (asNode === COPY) {
    if (updates.length > 1)
      throw new InvalidUpdateError('Cannot copy checkpoint with multiple updates')
    return copyCheckpoint(o, l, values)
  }
  if (asNode === INPUT) {
    if (updates.length > 1) {
      throw new InvalidUpdateError('Cannot apply multiple updates when updating as input')
    }
    if (values === null || values === undefined) {
      throw new InvalidUpdateError(`Received no input writes for "${START}"`)
    }
    const writes: [string, unknown][] = [[START, values]]
    await applyWritesFolded(o.graph, l.checkpoint, l.channels, [
      { id: INPUT, name: INPUT, triggers: [], writes },
    ])
    return save(o, l, 'input', l.saved ? l.step + 1 : -1)
  }
  // The thread's latest: apply what its pending tasks already wrote, as LangGraph does.
  if (!config.checkpointId && l.saved && l.saved.pendingWrites.length > 0) {
    await applyPendingWrites(o, l, true)
  }
  const tasks = updateTasks(o.graph, l.checkpoint, updates)
  const ctx = { graph: o.graph, channels: l.channels, warn: o.warn ?? (() => {}) }
  for (const [task, u] of tasks) await runWriters(task, u.values, ctx)
  await applyWritesFolded(
    o.graph,
    l.checkpoint,
    l.channels,
    tasks.map(([t]) => t),
  )
  // Updates made as a task of the checkpoint count as that task's writes (`__copy__`).
  for (const [task, u] of tasks) {
    if (l.saved && u.taskId !== undefined && task.writes.length > 0)
      await o.saver.putWrites(l.saved.config, task.writes, u.taskId)
  }
  return save(o, l, 'update', l.step + 1)
}

/** The writer tasks of a super-step's updates, each with the node its values are written as. */
function updateTasks(
  graph: CompiledGraph,
  checkpoint: Checkpoint,
  updates: readonly TaskUpdate[],
): [Task, TaskUpdate][] {
  const resolved =
    updates.length === 1
      ? [
          {
            ...(updates[0] as TaskUpdate),
            asNode: updates[0]?.asNode ?? defaultAsNode(graph, checkpoint),
          },
        ]
      : updates.map((u) => {
          if (u.asNode === undefined || u.asNode === null) {
            throw new InvalidUpdateError('"asNode" is required when applying multiple updates')
          }
          return u
        })
  return resolved.map((u, i): [Task, TaskUpdate] => {
    const name = String(u.asNode)
    const node = graph.nodes.get(name)
    if (!node) throw new InvalidUpdateError(`Node "${name}" does not exist`)
    const task: Task = {
      id: `~${INTERRUPT}, ${String(i).padStart(10, '0')}`,
      name,
      kind: 'pull',
      triggers: [INTERRUPT],
      input: u.values,
      node: node as CompiledNode,
      writes: [],
    }
    return [task, u]
  })
}

/**
 * Applies the loaded checkpoint's pending writes: the null task's, then the tasks' (their
 * `__error__` and `__interrupt__` records aside). `onlyFinished`: only tasks that wrote
 * something count as run; else every pending task does (`__end__`).
 */
async function applyPendingWrites(
  o: UpdateStateOptions,
  l: Loaded,
  onlyFinished: boolean,
): Promise<void> {
  const pending = l.saved?.pendingWrites ?? []
  // Prepared before the null writes are applied, as LangGraph.js does.
  const tasks = prepareTasks(o.graph, l.checkpoint, l.channels)
  const nullWrites = pending
    .filter(([tid]) => tid === NULL_TASK_ID)
    .map(([, ch, v]): [string, unknown] => [ch, v])
  if (nullWrites.length) {
    await applyWritesFolded(o.graph, l.checkpoint, l.channels, [
      { id: INPUT, name: INPUT, triggers: [], writes: nullWrites },
    ])
  }
  const byId = new Map(tasks.map((t) => [t.id, t]))
  for (const [tid, ch, v] of pending) {
    if (ch === '__error__' || ch === INTERRUPT || ch === '__scheduled__') continue
    byId.get(tid)?.writes.push([ch, v])
  }
  const run = onlyFinished ? tasks.filter((t) => t.writes.length > 0) : tasks
  if (run.length) await applyWritesFolded(o.graph, l.checkpoint, l.channels, run)
}

/**
 * `__copy__`: the checkpoint again, as a sibling (same parent, `source: "fork"`). With
 * `[values, asNode]` pairs, the copy is then updated: the k-th pair of a node is written as
 * the copy's k-th task of that node (when there is one).
 */
async function copyCheckpoint(
  o: UpdateStateOptions,
  l: Loaded,
  values: unknown,
): Promise<CheckpointAddress> {
  const { saved } = l
  if (!saved) throw new InvalidUpdateError('Cannot copy a non-existent checkpoint')
  const copy = await o.saver.put(
    saved.parentConfig ??
      (saved.config.checkpointNs
        ? { threadId: saved.config.threadId, checkpointNs: saved.config.checkpointNs }
        : { threadId: saved.config.threadId }),
    {
      ...l.checkpoint,
      id: o.env.newId(),
      ts: o.env.now(),
      channel_values: structuredClone(saved.checkpoint.channel_values),
    },
    { source: 'fork', step: l.step + 1, parents: {} },
    { ...l.checkpoint.channel_versions },
  )
  if (!isCopyWithUpdates(values)) return copy
  const idsByNode = new Map<string, string[]>()
  for (const t of prepareTasks(o.graph, l.checkpoint, l.channels))
    idsByNode.set(t.name, [...(idsByNode.get(t.name) ?? []), t.id])
  // Grouped by node, in order of each node's first pair, as LangGraph.js groups them.
  const byNode = new Map<string, TaskUpdate[]>()
  for (const [v, node] of values) {
    const name = String(node)
    const group = byNode.get(name) ?? []
    const taskId = idsByNode.get(name)?.[group.length]
    group.push({ values: v, asNode: node as string, ...(taskId !== undefined && { taskId }) })
    byNode.set(name, group)
  }
  return updateSuperstep(o, copy, [...byNode.values()].flat())
}

function isCopyWithUpdates(values: unknown): values is [unknown, unknown][] {
  return (
    Array.isArray(values) &&
    values.length > 0 &&
    values.every((v) => Array.isArray(v) && v.length === 2)
  )
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
