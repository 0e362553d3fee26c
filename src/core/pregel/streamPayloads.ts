/**
 * The payloads of stream chunks, shaped as LangGraph.js shapes them (its `io.ts` and
 * `debug.ts`): a task's update, its result, its path; pure functions of what the run reported.
 */
import type { PendingWrite } from '../checkpoint/types'
import type { CompiledGraph } from '../compile/compileGraph'
import { ERROR, INTERRUPT, PULL, PUSH } from '../graph/constants'
import { errorMessage, errorName } from '../errorJson'
import { rootCause } from './errors'
import { isTaskOutput } from './loop'
import { NS_SEPARATOR } from './namespace'
import type { PreparedTask } from './streamPoints'

/** A failed task's `__error__` write: its root cause's name and message. */
export function errorOf(error: unknown): { message: string; name: string } {
  const { cause } = rootCause(error)
  return { message: errorMessage(cause), name: errorName(cause) }
}

export function nsPath(ns: string): string[] {
  return ns === '' ? [] : ns.split(NS_SEPARATOR)
}

/** LangGraph's task path: `[PULL, name]` or `[PUSH, index, false]`. */
export function pathOf(t: Pick<PreparedTask, 'kind' | 'name' | 'id'>): unknown[] {
  if (t.kind === 'pull') return [PULL, t.name]
  const index = Number(t.id.split(', ')[1] ?? 0)
  return [PUSH, index, false]
}

export interface MessageLike {
  type: string
  id?: unknown
}

export function isMessageLike(m: unknown): m is MessageLike {
  return typeof m === 'object' && m !== null && typeof (m as MessageLike).type === 'string'
}

/** A task's writes to state fields as one object; repeated channels as `{ $writes: [...] }`. */
export function mapTaskResultWrites(writes: readonly [string, unknown][]): Record<string, unknown> {
  const result: Record<string, unknown> = {}
  for (const [ch, v] of writes) {
    if (!(ch in result)) {
      result[ch] = v
      continue
    }
    const prev = result[ch]
    const list = isMultipleWrite(prev) ? prev.$writes : [prev]
    list.push(v)
    result[ch] = { $writes: list }
  }
  return result
}

function isMultipleWrite(v: unknown): v is { $writes: unknown[] } {
  return typeof v === 'object' && v !== null && Array.isArray((v as { $writes?: unknown }).$writes)
}

export function resultOf(graph: CompiledGraph | undefined, writes: readonly [string, unknown][]) {
  return mapTaskResultWrites(writes.filter(([ch]) => graph?.fieldSet.has(ch) ?? false))
}

/**
 * LangGraph's `mapOutputUpdates` for one task: `{ [node]: update }`, the update being its
 * field writes as an object, or a list of one-key objects when it wrote a field twice.
 */
export function updatesOf(
  graph: CompiledGraph | undefined,
  name: string,
  writes: readonly [string, unknown][],
): Record<string, unknown> {
  const own = writes.filter(([ch]) => graph?.fieldSet.has(ch) ?? false)
  const counts = new Map<string, number>()
  for (const [ch] of own) counts.set(ch, (counts.get(ch) ?? 0) + 1)
  if ([...counts.values()].some((n) => n > 1))
    return { [name]: own.map(([ch, v]) => ({ [ch]: v })) }
  return { [name]: Object.fromEntries(own) }
}

/**
 * A task of a `checkpoints` chunk (LangGraph's `tasksWithWrites`): what its stored writes say
 * of it (error, interrupts, result) and, for a graph node, its subgraph's namespace.
 */
export function checkpointTask(
  t: PreparedTask,
  pending: readonly PendingWrite[],
  graph: CompiledGraph | undefined,
  threadId: string,
) {
  const mine = pending.filter(([tid]) => tid === t.id)
  const error = mine.find(([, ch]) => ch === ERROR)?.[2]
  const interrupts = mine.filter(([, ch]) => ch === INTERRUPT).flatMap(([, , v]) => v as unknown[])
  const outputs = mine.filter(([, ch]) => isTaskOutput(ch))
  const fields = outputs.filter(([, ch]) => graph?.fieldSet.has(ch) ?? false)
  const result =
    outputs.length > 0 && fields.length > 0
      ? mapTaskResultWrites(fields.map(([, ch, v]): [string, unknown] => [ch, v]))
      : undefined
  const base = { id: t.id, name: t.name, path: pathOf(t) }
  if (error) return { ...base, error, interrupts, result }
  const state = t.subgraphNs && {
    configurable: { thread_id: threadId, checkpoint_ns: t.subgraphNs },
  }
  return { ...base, interrupts, ...(state && { state }), result }
}
