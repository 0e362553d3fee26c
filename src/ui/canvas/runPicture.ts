import type { TaskRun } from '../../core/debug/types'
import { END } from '../../core/graph/constants'
import type { GraphSpec } from '../../core/graph/schema'
import { branchTargets } from '../../core/graph/wiring'
import { endsEdgeId, fixedEdgeId, joinInEdgeId, joinOutEdgeId, pathEdgeId } from './flowTypes'

const BRANCH = 'branch:to:'

/** Where a task's writes lead on the canvas, indexed once per document. */
interface EdgeIndex {
  /** `from\0to` to the canvas ids of the edges, paths and `ends` from `from` into `to`. */
  into: Map<string, string[]>
  /** A join's barrier channel to its edge's index. */
  joins: Map<string, number>
  /** A node to its joins' outgoing edges, by index. */
  joinOut: Map<string, number[]>
  /** A node to its fixed edges into END. */
  toEnd: Map<string, string[]>
}

const indexes = new WeakMap<GraphSpec, EdgeIndex>()

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key)
  if (list) list.push(value)
  else map.set(key, [value])
}

function indexOf(doc: GraphSpec): EdgeIndex {
  const hit = indexes.get(doc)
  if (hit) return hit
  const index: EdgeIndex = {
    into: new Map(),
    joins: new Map(),
    joinOut: new Map(),
    toEnd: new Map(),
  }
  const key = (from: string, to: string) => `${from}\u0000${to}`
  doc.edges.forEach((e, i) => {
    if (Array.isArray(e.from)) {
      index.joins.set(`join:${e.from.join('+')}:${e.to}`, i)
      push(index.joinOut, e.to, i)
      return
    }
    push(index.into, key(e.from, e.to), fixedEdgeId(i))
    if (e.to === END) push(index.toEnd, e.from, fixedEdgeId(i))
  })
  doc.branches?.forEach((b, i) => {
    for (const [k, target] of branchTargets(b.paths))
      push(index.into, key(b.from, target), pathEdgeId(i, k))
  })
  for (const n of doc.nodes)
    for (const to of n.ends ?? []) push(index.into, key(n.id, to), endsEdgeId(n.id, to))
  indexes.set(doc, index)
  return index
}

/**
 * The canvas edges that fired in a super-step, from the writes of the tasks that ran: a
 * write to `branch:to:X` by task A fired A's fixed edges, paths and `ends` into X; a write
 * to a join's barrier fired that source's join edge (and the join's last edge once the
 * barrier is complete, which the target running shows). A node that finished without error
 * fired its fixed edges to END. Edge ids are the canvas's (flowTypes.ts). Costs what the
 * tasks wrote, not the graph's size: the document's edges are indexed once.
 */
export function firedEdges(doc: GraphSpec, ran: readonly TaskRun[]): string[] {
  const index = indexOf(doc)
  const out = new Set<string>()
  const add = (ids: readonly string[] | undefined) => ids?.forEach((id) => out.add(id))
  for (const task of ran) {
    const from = task.name
    for (const w of task.writes) {
      if (w.channel.startsWith(BRANCH))
        add(index.into.get(`${from}\u0000${w.channel.slice(BRANCH.length)}`))
      else if (w.channel.startsWith('join:')) {
        const i = index.joins.get(w.channel)
        if (i !== undefined) out.add(joinInEdgeId(i, from))
      }
    }
    if (!task.error && task.interrupts.length === 0) add(index.toEnd.get(from))
    // A join's target ran: its barrier was complete, so the marker's edge fired into it.
    index.joinOut.get(from)?.forEach((i) => out.add(joinOutEdgeId(i)))
  }
  return [...out]
}

/** What the timeline knows of one checkpoint, for the step badges. */
export interface RanAt {
  checkpointId: string
  parentId?: string
  step: number
  ran: readonly { name: string }[]
}

/**
 * The step each node last ran at, seen from checkpoint `at`: walks `at`'s ancestors (its
 * own branch only, not the thread's other forks) and records the first time each node shows.
 */
export function lastRunSteps(
  entries: readonly RanAt[],
  at: string | undefined,
): Record<string, number> {
  const byId = new Map(entries.map((e) => [e.checkpointId, e]))
  const out: Record<string, number> = {}
  let cur = at === undefined ? undefined : byId.get(at)
  const seen = new Set<string>()
  while (cur && !seen.has(cur.checkpointId)) {
    seen.add(cur.checkpointId)
    // A checkpoint's tasks ran in the super-step of the checkpoint before it.
    for (const t of cur.ran) if (!(t.name in out) && t.name !== '__start__') out[t.name] = cur.step
    cur = cur.parentId === undefined ? undefined : byId.get(cur.parentId)
  }
  return out
}
