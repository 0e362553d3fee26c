/**
 * The debugger's reads of stored checkpoints: one checkpoint inspected in full, and the
 * timeline of a whole thread (cheap: one list pass, no inspection per entry).
 */
import {
  NULL_TASK_ID,
  type CheckpointConfig,
  type CheckpointSource,
  type CheckpointTuple,
} from '../core/checkpoint/types'
import { TASKS, type CompiledGraph } from '../core/compile/compileGraph'
import { inspectCheckpoint } from '../core/debug/inspect'
import type { CheckpointInspection } from '../core/debug/types'
import { EMPTY } from '../core/channels/base'
import {
  channelsFromCheckpoint,
  prepareTasks,
  type Channels,
  PULL,
  PUSH,
  sortByTaskPath,
} from '../core/pregel/algo'
import { applyWritesFolded } from '../core/pregel/foldRemote'
import { INTERRUPT } from '../core/pregel/interrupt'
import { isTaskOutput } from '../core/pregel/loop'
import { nsNodes, taskNamespace } from '../core/pregel/namespace'
import { DamagedCheckpointError } from '../persistence/damage'
import type { CheckpointRow, TaskRunRow } from '../persistence/db'
import type { RowState } from '../persistence/rowStates'
import type { CheckpointDamage } from '../persistence/damage'
import { WorkerRequestError } from './errors'
import { toJsonSafe } from './jsonSafe'
import type { TimelineEntry, TimelineTask } from './protocol'
import type { WorkerStorage } from './storage'

const ERROR = '__error__'
const PULL_PREFIX = `~${PULL}, `
const PUSH_ID = new RegExp(`^~${PUSH}, (\\d+), `)

/**
 * The inspection of a checkpoint (the thread's latest when no id), with each task that made
 * it given the duration and logs recorded when it ran. Null when there is no such checkpoint.
 */
export async function inspectStored(
  graph: CompiledGraph,
  s: WorkerStorage,
  p: { threadId: string; checkpointId?: string; checkpointNs?: string },
): Promise<CheckpointInspection | null> {
  const both = s.saver.getTupleAndParent
    ? await s.saver.getTupleAndParent(p)
    : await tupleAndParent(s, p)
  if (!both) return null
  const { tuple, parent } = both
  const inspection = await inspectCheckpoint(graph, tuple, parent)
  // Task runs are recorded for the root graph's tasks only.
  if (parent && inspection.ran.length && !p.checkpointNs) {
    const rows = await s.taskRuns.ranFrom(p.threadId, [parent.config.checkpointId])
    const byTask = new Map(rows.map((r) => [r.taskId, r]))
    inspection.ran = inspection.ran.map((t) => {
      const row = byTask.get(t.id)
      return row ? { ...t, durationMs: row.durationMs, logs: row.logs } : t
    })
  }
  return toJsonSafe(inspection)
}

/** A checkpoint's tuple and its parent's, read one after the other. */
async function tupleAndParent(s: WorkerStorage, config: CheckpointConfig) {
  const tuple = await s.saver.getTuple(config)
  if (!tuple) return undefined
  // A damaged parent only hides the step that made this checkpoint: the rest is readable.
  const parent =
    tuple.parentConfig &&
    (await s.saver.getTuple(tuple.parentConfig).catch((e: unknown) => {
      if (e instanceof DamagedCheckpointError) return undefined
      throw e
    }))
  return { tuple, parent: parent || undefined }
}

/**
 * The thread's checkpoints newest first, all branches: where each stands (step, source,
 * parent, next) and, for a `loop` checkpoint, which tasks ran from its parent to make it
 * (its parent's pending writes, named and timed by the recorded task runs). Reads no state:
 * only the channels that decide what runs next.
 */
export async function readTimeline(
  graph: CompiledGraph,
  s: WorkerStorage,
  p: { threadId: string; limit?: number; before?: string; checkpointNs?: string },
): Promise<TimelineEntry[]> {
  const channels = schedulingChannels(graph)
  const read = await s.timeline.read(p.threadId, {
    limit: p.limit,
    before: p.before,
    channels,
    need: (state, writes) => neededChannels(graph, channels, state, writes),
    ...(p.checkpointNs && { checkpointNs: p.checkpointNs }),
  })
  const runs = groupRuns(read.taskRuns)
  const out: TimelineEntry[] = []
  for (const { row, tuple: t, damage } of read.page) {
    if (!t) {
      out.push(damagedEntry(row, damage))
      continue
    }
    const parentId = t.parentConfig?.checkpointId
    const parent = parentId === undefined ? undefined : read.byId.get(parentId)
    out.push({
      checkpointId: t.config.checkpointId,
      ...(parentId !== undefined && { parentId }),
      step: t.metadata.step,
      source: t.metadata.source,
      createdAt: t.checkpoint.ts,
      next: await nextOf(graph, t, channels),
      ran:
        t.metadata.source === 'loop' && parent
          ? tasksRanFrom(parent, runs.get(parent.config.checkpointId), (id, name) =>
              graph.nodes.get(name)?.runsSubgraph
                ? taskNamespace(p.checkpointNs ?? '', parent.config.checkpointId, id, name)
                : undefined,
            )
          : [],
      ...(damage && { damaged: damage }),
    })
  }
  return out
}

/**
 * The timeline entry of a checkpoint whose row cannot be read: what of it is readable (its
 * parent, step, source, time), nothing of what ran or runs next, and why.
 */
function damagedEntry(row: CheckpointRow, damage: CheckpointDamage | undefined): TimelineEntry {
  // The row is damaged: any field may be missing or of another type.
  const r = row as Partial<Record<keyof CheckpointRow, unknown>>
  const m = (typeof r.metadata === 'object' && r.metadata !== null ? r.metadata : {}) as {
    step?: unknown
    source?: unknown
  }
  const sources: readonly unknown[] = ['input', 'loop', 'update', 'fork']
  return {
    checkpointId: row.checkpointId,
    ...(typeof r.parentId === 'string' && r.parentId && { parentId: r.parentId }),
    step: Number.isInteger(m.step) ? (m.step as number) : NaN,
    source: sources.includes(m.source) ? (m.source as CheckpointSource) : 'update',
    createdAt: typeof r.ts === 'string' ? r.ts : '',
    next: [],
    ran: [],
    damaged: damage ?? {
      threadId: row.threadId,
      checkpointId: row.checkpointId,
      table: 'checkpoints',
      field: '',
      reason: 'the checkpoint cannot be read',
    },
  }
}

/** The channels `prepareTasks` looks at: every node's triggers, and the queued Sends. */
const scheduling = new WeakMap<CompiledGraph, ReadonlySet<string>>()
function schedulingChannels(graph: CompiledGraph): ReadonlySet<string> {
  let set = scheduling.get(graph)
  if (!set) {
    const names = new Set<string>([TASKS, ...Object.keys(graph.triggerToNodes)])
    for (const node of graph.nodes.values()) for (const ch of node.triggers) names.add(ch)
    scheduling.set(graph, (set = names))
  }
  return set
}

/**
 * The channels whose values decide a checkpoint's next step: the Sends and the triggers some
 * node has not seen at their version (all scheduling channels when a null write may change
 * them: see nextOf). A node's trigger it has seen never makes it run, whatever its value.
 */
function neededChannels(
  graph: CompiledGraph,
  channels: ReadonlySet<string>,
  state: Pick<RowState, 'versions' | 'seen'>,
  writes: readonly { taskId: string; channel: string }[],
): ReadonlySet<string> {
  if (writes.some((w) => w.taskId === NULL_TASK_ID && channels.has(w.channel))) return channels
  return new Set([TASKS, ...unseenTriggers(graph, state.versions, state.seen)])
}

/** Every (node, trigger) pair of a graph, flat: one pass over them per checkpoint. */
const subscriptions = new WeakMap<CompiledGraph, { node: string; channel: string }[]>()

/**
 * The last answer per version map: a timeline entry's `need` and its `next` ask about the same
 * state (the tuple shares the state's maps), so a 2,000-node graph is scanned once per entry.
 */
const unseenOf = new WeakMap<object, { seen: object; unseen: ReadonlySet<string> }>()

/** The trigger channels some node has not seen at their current version. */
function unseenTriggers(
  graph: CompiledGraph,
  versions: Readonly<Record<string, number>>,
  seenBy: Readonly<Record<string, Record<string, number>>>,
): ReadonlySet<string> {
  const known = unseenOf.get(versions)
  if (known?.seen === seenBy) return known.unseen
  let pairs = subscriptions.get(graph)
  if (!pairs) {
    pairs = []
    for (const node of graph.nodes.values())
      for (const channel of node.triggers) pairs.push({ node: node.name, channel })
    subscriptions.set(graph, pairs)
  }
  const unseen = new Set<string>()
  for (const { node, channel } of pairs)
    if ((versions[channel] ?? 0) > (seenBy[node]?.[channel] ?? 0)) unseen.add(channel)
  unseenOf.set(versions, { seen: seenBy, unseen })
  return unseen
}

/**
 * The nodes of the checkpoint's next super-step, as snapshotOf's `next`, from a tuple that
 * holds only the scheduling channels (state fields read as empty: no task reads them here).
 * Costs what may run: only the nodes with a trigger version they have not seen are
 * candidates, and only their triggers' channels (with the Sends and the fields) are built.
 */
async function nextOf(
  graph: CompiledGraph,
  t: CheckpointTuple,
  channels: ReadonlySet<string>,
): Promise<string[]> {
  // A Command's goto or Send (the null task's writes) can change what runs next; its state
  // update cannot (versions are not bumped here), so no reducer runs for it.
  const nullWrites = t.pendingWrites
    .filter(([tid, ch]) => tid === NULL_TASK_ID && channels.has(ch))
    .map(([, ch, v]): [string, unknown] => [ch, v])
  if (nullWrites.length > 0) {
    // Rare: the whole way, on copies of the version maps the null writes may touch.
    const checkpoint = {
      ...t.checkpoint,
      channel_versions: { ...t.checkpoint.channel_versions },
      versions_seen: { ...t.checkpoint.versions_seen },
    }
    const live = channelsFromCheckpoint(graph, checkpoint)
    const input = { id: '__input__', name: '__input__', triggers: [], writes: nullWrites }
    await applyWritesFolded(graph, checkpoint, live, [input], false)
    return prepareTasks(graph, checkpoint, live).map((task) => task.name)
  }
  const { checkpoint } = t
  // Channels some node has not seen at their version: only their subscribers may run.
  const unseen = unseenTriggers(graph, checkpoint.channel_versions, checkpoint.versions_seen)
  // A candidate's every trigger is looked at (a seen one reads as empty when its value was not
  // read: it cannot make the node run anyway).
  const triggers = new Set<string>()
  for (const ch of unseen)
    for (const name of graph.triggerToNodes[ch] ?? [])
      for (const t of graph.nodes.get(name)?.triggers ?? []) triggers.add(t)
  const live = someChannels(graph, checkpoint, [TASKS, ...graph.fields, ...triggers])
  const tasks = prepareTasks(graph, checkpoint, live, { updatedChannels: unseen })
  // In the order a whole scan lists them: Sends first, then nodes in the graph's order.
  const order = nodeOrder(graph)
  const rank = (t: { kind: string; name: string }) =>
    t.kind === 'push' ? -1 : (order.get(t.name) ?? order.size)
  return tasks
    .map((t, i) => ({ t, i }))
    .sort((a, b) => rank(a.t) - rank(b.t) || a.i - b.i)
    .map(({ t }) => t.name)
}

const nodeOrders = new WeakMap<CompiledGraph, Map<string, number>>()
function nodeOrder(graph: CompiledGraph): Map<string, number> {
  let order = nodeOrders.get(graph)
  if (!order)
    nodeOrders.set(graph, (order = new Map([...graph.nodes.keys()].map((n, i) => [n, i]))))
  return order
}

/** Fresh channels of `names` only, holding the checkpoint's values. */
function someChannels(
  graph: CompiledGraph,
  checkpoint: CheckpointTuple['checkpoint'],
  names: Iterable<string>,
): Channels {
  const out: Channels = {}
  const values = checkpoint.channel_values
  for (const name of names) {
    const proto = graph.channels[name]
    if (!proto || name in out) continue
    // A stored `undefined` reads back as empty, as channelsFromCheckpoint reads it.
    const v = values[name]
    out[name] = proto.fromCheckpoint(v === undefined ? EMPTY : v)
  }
  return out
}

function groupRuns(rows: TaskRunRow[]): Map<string, Map<string, TaskRunRow>> {
  const out = new Map<string, Map<string, TaskRunRow>>()
  for (const r of rows) {
    let at = out.get(r.checkpointId)
    if (!at) out.set(r.checkpointId, (at = new Map()))
    at.set(r.taskId, r)
  }
  return out
}

interface WriteSummary {
  id: string
  output: boolean
  error: boolean
  interrupt: boolean
}

/**
 * The tasks that ran from `parent`: its pending writes grouped by task (not the null task's,
 * not answers addressed to interrupt ids) and its recorded runs, in apply order.
 */
function tasksRanFrom(
  parent: CheckpointTuple,
  runs: Map<string, TaskRunRow> | undefined,
  nsOf: (taskId: string, name: string) => string | undefined,
): TimelineTask[] {
  const byTask = new Map<string, WriteSummary>()
  for (const [id, ch] of parent.pendingWrites) {
    if (id === NULL_TASK_ID) continue
    let w = byTask.get(id)
    if (!w) byTask.set(id, (w = { id, output: false, error: false, interrupt: false }))
    if (ch === ERROR) w.error = true
    else if (ch === INTERRUPT) w.interrupt = true
    else if (isTaskOutput(ch)) w.output = true
  }
  for (const id of runs?.keys() ?? [])
    if (!byTask.has(id)) byTask.set(id, { id, output: false, error: false, interrupt: false })
  const tasks = [...byTask.values()].filter(
    (w) => w.output || w.error || w.interrupt || runs?.has(w.id),
  )
  return sortByTaskPath(tasks).map((w) => {
    const run = runs?.get(w.id)
    const failed = run ? run.error !== undefined : w.error && !w.output
    const interrupted = !failed && w.interrupt && !w.output
    const name = run?.name ?? taskName(parent, w.id)
    const ns = nsOf(w.id, name)
    return {
      name,
      ...(run && { durationMs: run.durationMs }),
      ...(failed && { failed }),
      ...(interrupted && { interrupted }),
      ...(run?.warnings?.length && { warnings: run.warnings }),
      ...(ns && { ns }),
    }
  })
}

/**
 * The compiled graph whose checkpoints a namespace holds: the root's for `''`, else the
 * subgraph each graph node on its path runs. A subgraph called from node code is refused:
 * its namespace does not say which subgraph it is.
 */
export function subgraphAt(graph: CompiledGraph, ns: string | undefined): CompiledGraph {
  let g = graph
  for (const id of nsNodes(ns ?? '')) {
    const node = g.spec.nodes.find((n) => n.id === id)
    const sub = node?.kind === 'graph' && node.graph ? g.subgraph(node.graph) : undefined
    if (!sub)
      throw new WorkerRequestError(
        'UNKNOWN_NAMESPACE',
        `No subgraph of graph node \`${id}\` in ${g.spec.name}: the namespace ${ns} cannot be read (a subgraph called from node code is not shown in the debugger).`,
      )
    g = sub
  }
  return g
}

/** A task's node without a recorded run: in a PULL task's id, or the Send it came from. */
function taskName(parent: CheckpointTuple, taskId: string): string {
  if (taskId.startsWith(PULL_PREFIX)) return taskId.slice(PULL_PREFIX.length)
  const push = PUSH_ID.exec(taskId)
  const sends = parent.checkpoint.channel_values[TASKS]
  if (push && Array.isArray(sends)) {
    const node = (sends[Number(push[1])] as { node?: unknown } | undefined)?.node
    if (typeof node === 'string') return node
  }
  return taskId
}
