import { EMPTY } from '../channels'
import type { CompiledGraph } from '../compile/compileGraph'
import type { Checkpoint } from '../checkpoint/types'
import { applyWrites, sortByTaskPath, type Channels, type Task } from './algo'

type WriteTask = Pick<Task, 'id' | 'name' | 'triggers' | 'writes'>

/**
 * Custom reducers that run in a sandbox cannot be called inside apply_writes (which is
 * synchronous), so their writes are folded first, in apply order, and replaced by one
 * `{ __overwrite__: folded }` write: the channel then ends with exactly the folded value.
 * Returns new task objects; the given ones (whose writes are stored as pending) are untouched.
 */
export async function foldRemoteWrites<T extends WriteTask>(
  graph: CompiledGraph,
  channels: Channels,
  tasks: readonly T[],
): Promise<T[]> {
  if (graph.remoteFolds.size === 0) return [...tasks]
  const sorted = sortByTaskPath(tasks)
  const byField = new Map<string, unknown[]>()
  for (const t of sorted) {
    for (const [ch, v] of t.writes) {
      if (graph.remoteFolds.has(ch)) byField.set(ch, [...(byField.get(ch) ?? []), v])
    }
  }
  if (byField.size === 0) return [...tasks]
  const folded = new Map<string, unknown>()
  for (const [field, values] of byField) {
    const current = channels[field]?.get()
    const fold = graph.remoteFolds.get(field) as NonNullable<
      ReturnType<typeof graph.remoteFolds.get>
    >
    folded.set(field, await fold(current === EMPTY ? undefined : current, values))
  }
  const placed = new Set<string>()
  return sorted.map((t) => {
    if (!t.writes.some(([ch]) => folded.has(ch))) return t
    const writes: [string, unknown][] = []
    for (const [ch, v] of t.writes) {
      if (!folded.has(ch)) writes.push([ch, v])
      else if (!placed.has(ch)) {
        placed.add(ch)
        writes.push([ch, { __overwrite__: folded.get(ch) }])
      }
    }
    return { ...t, writes }
  })
}

/** apply_writes, after folding what sandboxed reducers must fold (see foldRemoteWrites). */
export async function applyWritesFolded(
  graph: CompiledGraph,
  checkpoint: Checkpoint,
  channels: Channels,
  tasks: readonly WriteTask[],
  bumpVersions = true,
  bumped?: Set<string>,
): Promise<Set<string>> {
  const folded = await foldRemoteWrites(graph, channels, tasks)
  return applyWrites(checkpoint, channels, folded, graph.triggerToNodes, bumpVersions, bumped)
}
