import type { TaskRun } from '../../core/debug/types'
import { END } from '../../core/graph/constants'
import type { GraphSpec } from '../../core/graph/schema'
import { branchTargets } from '../../core/graph/wiring'
import { endsEdgeId, fixedEdgeId, joinInEdgeId, joinOutEdgeId, pathEdgeId } from './flowTypes'

const BRANCH = 'branch:to:'

/**
 * The canvas edges that fired in a super-step, from the writes of the tasks that ran: a
 * write to `branch:to:X` by task A fired A's fixed edges, paths and `ends` into X; a write
 * to a join's barrier fired that source's join edge (and the join's last edge once the
 * barrier is complete, which the target running shows). A node that finished without error
 * fired its fixed edges to END. Edge ids are the canvas's (flowTypes.ts).
 */
export function firedEdges(doc: GraphSpec, ran: readonly TaskRun[]): string[] {
  const out = new Set<string>()
  const ranNames = new Set(ran.map((t) => t.name))
  for (const task of ran) {
    const from = task.name
    for (const w of task.writes) {
      if (w.channel.startsWith(BRANCH)) markInto(doc, from, w.channel.slice(BRANCH.length), out)
      else if (w.channel.startsWith('join:')) markJoin(doc, from, w.channel, out)
    }
    if (!task.error && task.interrupts.length === 0) {
      doc.edges.forEach((e, i) => {
        if (e.from === from && e.to === END) out.add(fixedEdgeId(i))
      })
    }
  }
  // A join's target ran: its barrier was complete, so the marker's edge fired into it.
  doc.edges.forEach((e, i) => {
    if (Array.isArray(e.from) && ranNames.has(e.to)) out.add(joinOutEdgeId(i))
  })
  return [...out]
}

function markInto(doc: GraphSpec, from: string, to: string, out: Set<string>): void {
  doc.edges.forEach((e, i) => {
    if (e.from === from && e.to === to) out.add(fixedEdgeId(i))
  })
  doc.branches?.forEach((b, i) => {
    if (b.from !== from || !b.paths) return
    for (const [key, target] of branchTargets(b.paths))
      if (target === to) out.add(pathEdgeId(i, key))
  })
  const node = doc.nodes.find((n) => n.id === from)
  if (node?.ends?.includes(to)) out.add(endsEdgeId(from, to))
}

function markJoin(doc: GraphSpec, from: string, channel: string, out: Set<string>): void {
  doc.edges.forEach((e, i) => {
    if (!Array.isArray(e.from)) return
    if (`join:${e.from.join('+')}:${e.to}` === channel) out.add(joinInEdgeId(i, from))
  })
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
