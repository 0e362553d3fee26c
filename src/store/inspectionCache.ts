import type { CheckpointInspection } from '../core/debug/types'

/**
 * The inspections of a few checkpoints read lately (the most recent `size`), and the reads
 * under way, within ONE scope: a click on a checkpoint the pointer rested on (prefetched) or
 * came back to shows its channels in the frame of the click, with no round trip to the
 * worker. The caller names the scope so that it changes whenever a kept inspection could
 * (the debugger: graph, thread and the thread's newest checkpoint, since a run, a replay or a
 * fork adds checkpoints and pending writes) and keeps only checkpoints that cannot change
 * within it (not the newest, not a subgraph's).
 */
export function createInspectionCache(size: number) {
  let scope = ''
  const done = new Map<string, CheckpointInspection>()
  const reading = new Map<string, Promise<CheckpointInspection | null>>()
  /** Another scope: everything kept is forgotten. */
  const enter = (next: string) => {
    if (next === scope) return
    scope = next
    done.clear()
    reading.clear()
  }
  return {
    /** The inspection of `id` if it was read, else undefined (and it becomes the most recent). */
    get(within: string, id: string): CheckpointInspection | undefined {
      enter(within)
      const hit = done.get(id)
      if (hit) {
        done.delete(id)
        done.set(id, hit)
      }
      return hit
    },
    /** The inspection of `id`: kept, being read, or read now with `load` (and kept). */
    read(
      within: string,
      id: string,
      load: () => Promise<CheckpointInspection | null>,
    ): Promise<CheckpointInspection | null> {
      const hit = this.get(within, id)
      if (hit) return Promise.resolve(hit)
      const pending = reading.get(id)
      if (pending) return pending
      const started = scope
      const p = load().then(
        (inspection) => {
          if (scope !== started) return inspection
          reading.delete(id)
          if (inspection) {
            done.set(id, inspection)
            if (done.size > size) done.delete(done.keys().next().value as string)
          }
          return inspection
        },
        (e: unknown) => {
          if (scope === started) reading.delete(id)
          throw e
        },
      )
      reading.set(id, p)
      return p
    },
  }
}

export type InspectionCache = ReturnType<typeof createInspectionCache>
