import type { CheckpointDamage, RowDamage, ThreadInfo, TimelineEntry } from '../worker/protocol'
import type { DebugState } from './debugTypes'
import { suffixOf } from './threadName'

/** The damage the open thread shows: its damaged checkpoints (as loaded) and thread row. */
export interface ThreadDamage {
  threadName: string
  /** Damaged checkpoints among those loaded in the timeline. */
  count: number
  /** The oldest of them. */
  first: CheckpointDamage | undefined
  /** The thread's row is damaged. */
  row: RowDamage | undefined
}

const damageCache = new WeakMap<TimelineEntry[], CheckpointDamage[]>()
const readCache = new WeakMap<object, CheckpointDamage>()

/** The open thread's damage, or null when nothing loaded of it is damaged. */
export function selectThreadDamage(s: {
  timeline: TimelineEntry[]
  threads: ThreadInfo[]
  threadId: string
  readDamage: DebugState['readDamage']
}): ThreadDamage | null {
  let damaged = damageCache.get(s.timeline)
  if (!damaged) {
    damaged = s.timeline.flatMap((t) => (t.damaged ? [t.damaged] : []))
    damageCache.set(s.timeline, damaged)
  }
  const read = s.readDamage
  if (!damaged.length && read) {
    let found = readCache.get(read)
    // The same object while nothing changes: the notice compares what it picks shallowly.
    if (!found)
      readCache.set(
        read,
        (found = { ...read, threadId: s.threadId, table: 'checkpoints', field: '' }),
      )
    damaged = [found]
  }
  const info = s.threads.find((t) => t.threadId === s.threadId)
  if (!damaged.length && !info?.damaged) return null
  return {
    threadName: info?.name ?? suffixOf(s.threadId),
    count: damaged.length,
    first: damaged.at(-1), // the timeline is newest first
    row: info?.damaged,
  }
}
