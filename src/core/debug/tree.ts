import type { CheckpointSource } from '../checkpoint/types'
import type { TreeRow } from './types'

/** One checkpoint of a thread's history, as `layoutHistoryTree` needs it. */
export interface HistoryItem {
  checkpointId: string
  parentId?: string
  step: number
  source: CheckpointSource
}

/**
 * Places a thread's checkpoints (newest first, all branches interleaved, as getStateHistory
 * lists them) in lanes like a git graph, rows in the same order. The oldest root's line is
 * lane 0 and runs through each checkpoint's first (oldest) child; every later child starts a
 * branch that keeps one lane from its fork point to its tip: the lowest lane no other branch
 * holds anywhere in that span, so lines never cross. A parent missing from `items` (history
 * cut by a limit) makes its child a root.
 */
export function layoutHistoryTree(items: readonly HistoryItem[]): TreeRow[] {
  const n = items.length
  // Rows by age: 0 is the oldest (put order).
  const age = (row: number) => n - 1 - row
  const byId = new Map(items.map((item, row) => [item.checkpointId, age(row)]))
  const oldest = [...items].reverse()
  const parentOf = oldest.map((item, t) => {
    const p = item.parentId === undefined ? undefined : byId.get(item.parentId)
    return p !== undefined && p < t ? p : undefined
  })
  const children = oldest.map((): number[] => [])
  parentOf.forEach((p, t) => p !== undefined && children[p]?.push(t))

  const lanes = assignLanes(parentOf, children)
  const through = oldest.map((): number[] => [])
  parentOf.forEach((p, t) => {
    if (p === undefined) return
    const lane = lanes[t] as number
    for (let r = p + 1; r < t; r++) (through[r] as number[]).push(lane)
  })
  return items.map((item, row) => {
    const t = age(row)
    const p = parentOf[t]
    return {
      checkpointId: item.checkpointId,
      ...(item.parentId !== undefined ? { parentId: item.parentId } : {}),
      step: item.step,
      source: item.source,
      lane: lanes[t] as number,
      ...(p !== undefined ? { parentLane: lanes[p] as number } : {}),
      isTip: (children[t] as number[]).length === 0,
      through: [...new Set(through[t])].sort((a, b) => a - b),
    }
  })
}

/**
 * Lanes by age index. A branch is a first-child chain; it starts at a root or at a later
 * child, and holds its lane over [fork point, tip]. Branches are placed oldest start first.
 */
function assignLanes(
  parentOf: readonly (number | undefined)[],
  children: readonly (readonly number[])[],
): number[] {
  const lanes: number[] = []
  /** For each lane, the spans [from, to] already held. */
  const held: [number, number][][] = []
  const isFree = (lane: number, from: number, to: number) =>
    (held[lane] ?? []).every(([a, b]) => b < from || a > to)
  for (let start = 0; start < parentOf.length; start++) {
    const p = parentOf[start]
    if (p !== undefined && children[p]?.[0] === start) continue // continues its parent's lane
    let tip = start
    for (let next = children[tip]?.[0]; next !== undefined; next = children[tip]?.[0]) tip = next
    const from = p ?? start
    let lane = 0
    while (!isFree(lane, from, tip)) lane++
    ;(held[lane] ??= []).push([from, tip])
    for (let t = start; ; t = children[t]?.[0] as number) {
      lanes[t] = lane
      if (t === tip) break
    }
  }
  return lanes
}
