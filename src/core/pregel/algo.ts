import { EMPTY, InvalidUpdateError, type Channel } from '../channels'
import type { Checkpoint, ChannelVersions } from '../checkpoint/types'
import { TASKS, type CompiledGraph, type CompiledNode } from '../compile/compileGraph'
import type { TaskLog } from '../compile/host'
import {
  ERROR,
  INTERRUPT,
  NO_WRITES,
  PULL as PULL_NAME,
  PUSH as PUSH_NAME,
  RESUME,
  RETURN,
  START,
} from '../graph/constants'
import { isSendPacket } from './types'

export const PUSH = PUSH_NAME
export const PULL = PULL_NAME
/** Channels written by the machinery that apply_writes never folds. */
const IGNORED = new Set([NO_WRITES, PUSH, RESUME, INTERRUPT, RETURN, ERROR])
const RESERVED = new Set([...IGNORED, TASKS])

export type Channels = Record<string, Channel>

/** Kinds whose `update([])` can change them: a step's writes clear what they held. */
const CLEARED_BY_A_STEP = new Set<Channel['kind']>(['EphemeralValue', 'Topic'])
/**
 * Of each channel set, those of the kinds a step clears that may hold a value (all that do,
 * and some that no longer do): a step clears these, not every such channel of the graph (a
 * graph has one per node). Only applyWrites changes a set's channels, and it keeps this.
 */
const mayHoldAValue = new WeakMap<Channels, Set<string>>()

function clearable(channels: Channels): Set<string> {
  let live = mayHoldAValue.get(channels)
  if (!live) {
    live = new Set()
    for (const ch in channels) {
      const channel = channels[ch] as Channel
      if (CLEARED_BY_A_STEP.has(channel.kind) && channel.isAvailable()) live.add(ch)
    }
    mayHoldAValue.set(channels, live)
  }
  return live
}

/** A unit of work of one super-step: a node triggered by an edge (PULL) or a Send (PUSH). */
export interface Task {
  /** Unique within a checkpoint: `~__pregel_pull, name` or `~__pregel_push, 0000000003, 0000000000`. */
  id: string
  name: string
  kind: 'pull' | 'push'
  /**
   * The channel whose version made the task run (PUSH tasks: `__pregel_push`). Shared by
   * the tasks of a node (frozen): copy it before handing it out.
   */
  triggers: string[]
  input: unknown
  node: CompiledNode
  writes: [string, unknown][]
  /** What the task's code logged (sandboxed runs only). */
  logs?: TaskLog[]
}

/** LangGraph's `taskPathStr` for the two task kinds: also the apply order of writes. */
export function taskId(kind: 'pull' | 'push', nameOrIndex: string | number): string {
  if (kind === 'push' && typeof nameOrIndex === 'number') return pushTaskId(nameOrIndex)
  return kind === 'pull'
    ? `~${PULL}, ${nameOrIndex}`
    : `~${PUSH}, ${String(nameOrIndex).padStart(10, '0')}, 0000000000`
}

/** The ids of the first PUSH tasks, made once: a fan-out's every step needs the same ones. */
const pushIds: string[] = []

function pushTaskId(i: number): string {
  if (i >= 4096) return `~${PUSH}, ${String(i).padStart(10, '0')}, 0000000000`
  let id = pushIds[i]
  if (id === undefined)
    bmpIds.add((pushIds[i] = id = `~${PUSH}, ${String(i).padStart(10, '0')}, 0000000000`))
  return id
}

/** Each node's PULL task id, made once per graph. */
const pullIds = new WeakMap<CompiledNode, string>()

function pullTaskId(node: CompiledNode): string {
  let id = pullIds.get(node)
  if (id === undefined) {
    pullIds.set(node, (id = taskId('pull', node.name)))
    if (!SURROGATE.test(id) && bmpIds.size < 65536) bmpIds.add(id)
  }
  return id
}

/** Task ids made here and known to hold no surrogates (sortByTaskPath need not test them). */
const bmpIds = new Set<string>()

/** A PUSH task's `triggers` (shared: never mutated). */
const PUSH_TRIGGERS: string[] = Object.freeze([PUSH]) as unknown as string[]
/** Each node's PULL `triggers` for each trigger channel, made once (shared: never mutated). */
const pullTriggers = new WeakMap<CompiledNode, Map<string, string[]>>()

function pullTriggersOf(node: CompiledNode, trigger: string): string[] {
  let byChannel = pullTriggers.get(node)
  if (!byChannel) pullTriggers.set(node, (byChannel = new Map()))
  let triggers = byChannel.get(trigger)
  if (!triggers)
    byChannel.set(trigger, (triggers = Object.freeze([trigger]) as unknown as string[]))
  return triggers
}

/** Fresh channels holding a checkpoint's values. */
export function channelsFromCheckpoint(graph: CompiledGraph, checkpoint: Checkpoint): Channels {
  const out: Channels = {}
  const values = checkpoint.channel_values
  for (const [name, proto] of Object.entries(graph.channels)) {
    // A stored `undefined` reads back as empty, as it does after LangGraph's serialisation.
    const v = values[name]
    out[name] = proto.fromCheckpoint(v === undefined ? EMPTY : v)
  }
  return out
}

/** The state fields that hold a value: what a node receives and a snapshot shows. */
export function readState(graph: CompiledGraph, channels: Channels): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const f of graph.fields) {
    const v = (channels[f] as Channel).get()
    if (v !== EMPTY) out[f] = v
  }
  return out
}

/** Each channel's checkpointed value (empty channels omitted), or only those in `only`. */
export function checkpointValues(channels: Channels, only?: object): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const name in only ?? channels) {
    const channel = channels[name]
    const v = channel ? channel.checkpoint() : EMPTY
    if (v !== EMPTY) out[name] = v
  }
  return out
}

/**
 * The highest version of each versions object applyWrites last left: only applyWrites
 * writes versions, so a step need not scan every channel to find the next version.
 */
const knownMax = new WeakMap<ChannelVersions, number>()

function maxVersion(versions: ChannelVersions): number | undefined {
  let max = knownMax.get(versions)
  if (max !== undefined) return max
  for (const k in versions) {
    const v = versions[k] as number
    if (max === undefined || v > max) max = v
  }
  return max
}

const nextVersion = (v: number | undefined): number => (v === undefined ? 1 : v + 1)

function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0
  const ia = a[Symbol.iterator]()
  const ib = b[Symbol.iterator]()
  for (;;) {
    const x = ia.next()
    const y = ib.next()
    if (x.done) return y.done ? 0 : -1
    if (y.done) return 1
    const cx = x.value.codePointAt(0) as number
    const cy = y.value.codePointAt(0) as number
    if (cx !== cy) return cx - cy
  }
}

/** Tasks in the order their writes are applied: by task path, code point by code point. */
export function sortByTaskPath<T extends { id: string }>(tasks: readonly T[]): T[] {
  // Usually in order already (a fan-out's PUSH tasks, then PULL tasks by name): a copy.
  if (isSortedBmp(tasks)) return tasks.slice()
  // UTF-16 order equals code-point order unless a string holds surrogates (astral characters).
  const astral = tasks.some((t) => /[\uD800-\uDFFF]/.test(t.id))
  const byUnits = (a: T, b: T) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  return [...tasks].sort(astral ? (a, b) => compareCodePoints(a.id, b.id) : byUnits)
}

/** Whether the ids ascend in UTF-16 order and hold no surrogates (then also by code point). */
function isSortedBmp(tasks: readonly { id: string }[]): boolean {
  for (let i = 0; i < tasks.length; i++) {
    const id = (tasks[i] as { id: string }).id
    if (i > 0 && !((tasks[i - 1] as { id: string }).id < id)) return false
    if (!bmpIds.has(id) && SURROGATE.test(id)) return false
  }
  return true
}

const SURROGATE = /[\uD800-\uDFFF]/

/**
 * Applies one super-step's writes (LangGraph's `_applyWrites`): tasks in path order,
 * versions_seen recorded, consumed triggers and written channels bumped past the max
 * version, untouched ephemeral channels cleared, `finish()` when nothing triggers next.
 * Mutates `checkpoint` and `channels`; returns the channels that were updated, and adds
 * every channel whose version it bumped to `bumped`.
 */
export function applyWrites(
  checkpoint: Checkpoint,
  channels: Channels,
  tasks: readonly Pick<Task, 'id' | 'name' | 'triggers' | 'writes'>[],
  triggerToNodes: CompiledGraph['triggerToNodes'] | undefined,
  /** False to apply values without touching versions (LangGraph's snapshots do this). */
  bumpVersions = true,
  bumped?: Set<string>,
): Set<string> {
  const sorted = tasks.length === 1 ? tasks : sortByTaskPath(tasks)
  const versions = checkpoint.channel_versions
  let bumpStep = false
  // Trigger channels to consume; one may come twice (consuming again changes nothing).
  const toConsume: string[] = []
  // The entries this call made: not saved yet, so the node's later tasks (a fan-out's
  // Sends) update them instead of copying them again.
  const made = sorted.length > 1 ? new Set<string>() : undefined
  for (const task of sorted) {
    if (task.triggers.length > 0) bumpStep = true
    // Replaced, never mutated: saved checkpoints share these objects.
    const seen = made?.has(task.name)
      ? (checkpoint.versions_seen[task.name] as ChannelVersions)
      : { ...checkpoint.versions_seen[task.name] }
    made?.add(task.name)
    for (const ch of task.triggers) {
      if (ch in versions) seen[ch] = versions[ch] as number
      if (!RESERVED.has(ch)) toConsume.push(ch)
    }
    checkpoint.versions_seen[task.name] = seen
  }
  const before = maxVersion(versions)
  let max = before
  let wroteNv = false
  let consumed: number | undefined
  for (const ch of toConsume) {
    if (channels[ch]?.consume() && bumpVersions) {
      consumed ??= nextVersion(max)
      versions[ch] = consumed
      bumped?.add(ch)
    }
  }
  if (max !== undefined && consumed !== undefined) max = consumed
  const nv = nextVersion(max)
  const updated = new Set<string>()
  const live = clearable(channels)
  const update = (ch: string, vals: readonly unknown[]): void => {
    const channel = channels[ch] as Channel
    if (updateChannel(ch, channel, vals) && bumpVersions) {
      versions[ch] = nv
      wroteNv = true
      bumped?.add(ch)
      if (channel.isAvailable()) updated.add(ch)
    }
    if (CLEARED_BY_A_STEP.has(channel.kind) && channel.isAvailable()) live.add(ch)
  }
  const single = sorted.length === 1 ? (sorted[0] as (typeof sorted)[number]).writes : undefined
  if (single && single.length <= 8 && hasDistinctChannels(single)) {
    // One task writing each channel once (a chain, a cycle): each value is the update.
    for (const [ch, v] of single) if (!IGNORED.has(ch) && ch in channels) update(ch, [v])
  } else {
    const byChannel = new Map<string, unknown[]>()
    for (const task of sorted) {
      for (const [ch, v] of task.writes) {
        if (IGNORED.has(ch) || !(ch in channels)) continue
        let list = byChannel.get(ch)
        if (!list) byChannel.set(ch, (list = []))
        list.push(v)
      }
    }
    for (const [ch, vals] of byChannel) update(ch, vals)
  }
  if (bumpStep) {
    // Only some kinds change on an empty update, and only while they hold a value.
    for (const ch of live) {
      const channel = channels[ch] as Channel
      if (!channel.isAvailable()) {
        live.delete(ch)
        continue
      }
      if (!updated.has(ch) && channel.update([]) && bumpVersions) {
        versions[ch] = nv
        wroteNv = true
        bumped?.add(ch)
        if (channel.isAvailable()) updated.add(ch)
      }
      if (!channel.isAvailable()) live.delete(ch)
    }
    if (!triggersNextStep(updated, triggerToNodes)) {
      for (const ch in channels) {
        const channel = channels[ch] as Channel
        if (channel.finish() && bumpVersions) {
          versions[ch] = nv
          wroteNv = true
          bumped?.add(ch)
          if (channel.isAvailable()) updated.add(ch)
        }
        if (CLEARED_BY_A_STEP.has(channel.kind) && channel.isAvailable()) live.add(ch)
      }
    }
  }
  // Every version written is nv, or consumed below it: the new highest is known.
  const top = wroteNv ? nv : (consumed ?? before)
  if (top !== undefined) knownMax.set(versions, top)
  return updated
}

/** `channel.update(vals)`, its InvalidUpdateError naming the channel and the values. */
function updateChannel(ch: string, channel: Channel, vals: readonly unknown[]): boolean {
  try {
    return channel.update(vals)
  } catch (e) {
    if (e instanceof InvalidUpdateError) {
      const wrapped = new InvalidUpdateError(
        `Invalid update for channel "${ch}" with values ${JSON.stringify(vals)}: ${e.message}`,
      )
      wrapped.lc_error_code = e.lc_error_code
      throw wrapped
    }
    throw e
  }
}

/** Whether no two of a few writes are to the same channel. */
function hasDistinctChannels(writes: readonly (readonly [string, unknown])[]): boolean {
  for (let i = 1; i < writes.length; i++) {
    const ch = (writes[i] as readonly [string, unknown])[0]
    for (let j = 0; j < i; j++)
      if ((writes[j] as readonly [string, unknown])[0] === ch) return false
  }
  return true
}

function triggersNextStep(
  updated: ReadonlySet<string>,
  triggerToNodes: CompiledGraph['triggerToNodes'] | undefined,
): boolean {
  if (!triggerToNodes) return false
  for (const ch of updated) if (triggerToNodes[ch]) return true
  return false
}

export interface PrepareOptions {
  /** Channels updated by the last step: only their subscribers are candidates. */
  updatedChannels?: ReadonlySet<string>
}

/**
 * The tasks of the next super-step (LangGraph's `_prepareNextTasks`): one PUSH task per
 * pending Send, then every node whose trigger has a version it has not seen. Tasks that
 * already succeeded (pending writes) are still listed: LangGraph.js's own check for them
 * never matches (it hashes a different task path), so its snapshots list them too.
 */
export function prepareTasks(
  graph: CompiledGraph,
  checkpoint: Checkpoint,
  channels: Channels,
  opts: PrepareOptions = {},
): Task[] {
  const tasks: Task[] = []
  const tasksChannel = channels[TASKS] as Channel
  if (tasksChannel.isAvailable()) {
    const sends = tasksChannel.get() as unknown[]
    for (let i = 0; i < sends.length; i++) {
      const packet = sends[i]
      if (!isSendPacket(packet)) continue
      const node = graph.nodes.get(packet.node)
      if (!node || node.name === START) continue
      tasks.push({
        id: taskId('push', i),
        name: node.name,
        kind: 'push',
        triggers: PUSH_TRIGGERS,
        input: packet.args,
        node,
        writes: [],
      })
    }
  }
  for (const name of candidateNodes(graph, checkpoint, opts.updatedChannels)) {
    const node = graph.nodes.get(name) as CompiledNode
    const seen = checkpoint.versions_seen[name]
    const versions = checkpoint.channel_versions
    let trigger: string | undefined
    for (const ch of node.triggers) {
      if (
        (channels[ch] as Channel).isAvailable() &&
        (versions[ch] ?? 0) > ((seen && seen[ch]) ?? 0)
      ) {
        trigger = ch
        break
      }
    }
    if (trigger === undefined) continue
    tasks.push({
      id: pullTaskId(node),
      name,
      kind: 'pull',
      triggers: pullTriggersOf(node, trigger),
      input: name === START ? (channels[START] as Channel).get() : readState(graph, channels),
      node,
      writes: [],
    })
  }
  return tasks
}

const NO_NODES: readonly string[] = []

function candidateNodes(
  graph: CompiledGraph,
  checkpoint: Checkpoint,
  updated: ReadonlySet<string> | undefined,
): Iterable<string> {
  if (updated) {
    // Usually one updated channel has subscribers (a chain, a cycle; a state field has
    // none): those, often a single node, need no merging.
    let only: readonly string[] | undefined
    let several = false
    for (const ch of updated) {
      const subscribers = graph.triggerToNodes[ch]
      if (!subscribers || subscribers.length === 0) continue
      if (only) several = true
      only = subscribers
    }
    if (!only) return NO_NODES
    if (!several && only.length <= 1) return only
    const names = new Set<string>()
    for (const ch of updated) for (const n of graph.triggerToNodes[ch] ?? []) names.add(n)
    return [...names].sort()
  }
  for (const _ in checkpoint.channel_versions) return graph.nodes.keys()
  return []
}
