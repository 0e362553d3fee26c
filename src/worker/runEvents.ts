import type { ChannelVersions } from '../core/checkpoint/types'
import type { TaskLog } from '../core/compile/host'
import type { LoopEvent, TaskInterrupt } from '../core/pregel/loop'
import type { StateSnapshot } from '../core/pregel/state'
import { assertNever } from '../lib/assertNever'
import { toWorkerError } from './errors'
import { toJsonSafe } from './jsonSafe'
import type { InterruptInfo, WorkerEvent } from './protocol'

/**
 * What the loop observed, as the event the page receives: with the thread and run, values
 * made JSON-safe, errors made plain. `elapsed` gives a task's duration when the loop's env
 * has no monotonic clock.
 */
export function toWorkerEvent(
  e: LoopEvent,
  base: { threadId: string; runId: string },
  elapsed: () => number,
  /** A checkpoint's changed versions (what its put was told); absent: the event's own. */
  changedOf?: (checkpointId: string) => ChannelVersions | undefined,
): WorkerEvent {
  switch (e.type) {
    case 'step_started':
      return { ...base, type: 'step_started', step: e.step, tasks: e.tasks }
    case 'task_finished':
      return {
        ...base,
        type: 'task_finished',
        step: e.step,
        taskId: e.taskId,
        name: e.name,
        writes: toJsonSafe(e.writes),
        logs: toJsonSafe(e.logs),
        durationMs: e.durationMs ?? elapsed(),
      }
    case 'task_failed':
      return {
        ...base,
        type: 'task_failed',
        step: e.step,
        taskId: e.taskId,
        name: e.name,
        error: { ...toWorkerError(e.error), node: e.name },
      }
    case 'task_interrupted':
      return {
        ...base,
        type: 'task_interrupted',
        step: e.step,
        taskId: e.taskId,
        name: e.name,
        interrupts: toJsonSafe(e.interrupts),
      }
    case 'checkpoint_saved':
      return {
        ...base,
        type: 'checkpoint_saved',
        checkpointId: e.checkpointId,
        step: e.step,
        source: e.source,
        // Only what this checkpoint changed: a page never needs every channel's version, and
        // posting them all costs a pass over every channel each super-step (2,000 on a
        // 2,000-node chain). The loop's map is never mutated again, so it needs no copy.
        versions: changedOf?.(e.checkpointId) ?? e.versions,
      }
    case 'warning':
      return { ...base, type: 'warning', step: e.step, warning: e.warning }
    default:
      return assertNever(e, 'loop event')
  }
}

/** A run's pending interrupts as plain data, each with where it was raised when known. */
export function toInterruptInfo(
  list: readonly TaskInterrupt[],
  places: ReadonlyMap<string, InterruptPlace> = new Map(),
): InterruptInfo[] {
  return list.map((i) => {
    const place = places.get(i.id)
    return {
      id: i.id,
      value: toJsonSafe(i.value),
      node: i.node,
      taskId: i.taskId,
      ...(place && place.path.length > 1 && { path: place.path, ns: place.ns }),
    }
  })
}

/** Where an interrupt was raised: node ids from the root down, and that graph's namespace. */
export interface InterruptPlace {
  path: string[]
  ns: string
}

/**
 * Where each pending interrupt of a snapshot read with its subgraphs' states was raised:
 * an interrupt inside a subgraph surfaces, with the same id, on every task up to the root,
 * so the deepest task that holds it is where `interrupt()` was called.
 */
export function interruptPlaces(snapshot: StateSnapshot): Map<string, InterruptPlace> {
  const out = new Map<string, InterruptPlace>()
  const walk = (snap: StateSnapshot, above: string[]) => {
    for (const t of snap.tasks) {
      const path = [...above, t.name]
      for (const i of t.interrupts) out.set(i.id, { path, ns: snap.config.checkpointNs ?? '' })
      if (t.state) walk(t.state, path)
    }
  }
  walk(snapshot, [])
  return out
}

/** The thread's pending interrupts at its latest checkpoint, each with where it was raised. */
export function pendingInterruptsOf(snapshot: StateSnapshot | undefined): InterruptInfo[] {
  if (!snapshot) return []
  const places = interruptPlaces(snapshot)
  const list: TaskInterrupt[] = snapshot.tasks.flatMap((t) =>
    t.interrupts.map((i) => ({ ...i, node: t.name, taskId: t.id })),
  )
  return toInterruptInfo(list, places)
}

/** What a failed task's code logged before it threw (the sandbox sends it with the error). */
export function logsOf(error: unknown): TaskLog[] {
  const logs = (error as { logs?: unknown } | null)?.logs
  return Array.isArray(logs) ? toJsonSafe(logs as TaskLog[]) : []
}
