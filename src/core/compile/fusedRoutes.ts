/**
 * A node and the routers of its conditional edges in one call of a code host (one sandbox
 * round trip per task instead of two). The host runs the node, computes the state its
 * routers read (task.ts's `freshState`: the state the step began with, with the node's
 * update written) and runs the routers on it; the runtime then takes each router's answer
 * instead of calling the host again. Only where the host can compute that state exactly as
 * the runtime does (see {@link routerState}); anywhere else the runtime routes as before.
 */
import type { FieldSpec } from '../graph/schema'
import type { NodeCallContext } from './compiledTypes'
import type { FieldFold, RouteRequest } from './host'

export type { FieldFold, RouteRequest }

/** A field's fold (see {@link FieldFold}). */
export function fieldFold(f: FieldSpec): FieldFold {
  if (f.channel) return null
  switch (f.reducer) {
    case undefined:
    case 'overwrite':
      return 'last'
    case 'append':
    case 'add':
    case 'union':
    case 'merge':
      return f.reducer
    default:
      return null
  }
}

/**
 * The state a node's routers read, computed where the node ran: `state` (a copy of the state
 * the step began with, the node's input before it ran) with `output` (a copy of the node's
 * return value) written into it as the runtime writes a node's update (task.ts's
 * `stateUpdates` and `freshStateLocal`): fields in document order, a reducer field that ends
 * without a value left out. Null where the runtime would do something else than write an
 * object's keys (a Command or Send, a list, a non-object that fails the task) or where a
 * written field's fold is the runtime's alone; null too when a reducer throws (the runtime
 * then raises it itself). Self-contained (no outer references): the sandbox embeds its source.
 */
export function routerState(
  state: Record<string, unknown>,
  output: unknown,
  fields: readonly (readonly [string, FieldFold])[],
  reducers: Record<string, (a: unknown, b: unknown) => unknown>,
  fold: (
    reducer: (a: unknown, b: unknown) => unknown,
    current: unknown,
    values: readonly unknown[],
    fail: (message: string) => never,
  ) => unknown,
): Record<string, unknown> | null {
  if (output && (typeof output !== 'object' || Array.isArray(output) || 'lg_name' in output))
    return null
  const written = (output || {}) as Record<string, unknown>
  const has = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k)
  const fail = (message: string): never => {
    throw new Error(message)
  }
  const out: Record<string, unknown> = {}
  try {
    for (const [name, how] of fields) {
      if (!has(written, name)) {
        if (has(state, name)) out[name] = state[name]
        continue
      }
      if (how === null) return null
      if (how === 'last') {
        out[name] = written[name]
        continue
      }
      const reducer = reducers[how]
      if (!reducer) return null
      const value = fold(reducer, state[name], [written[name]], fail)
      if (value !== undefined) out[name] = value
    }
  } catch {
    return null
  }
  return out
}

/**
 * The routers of one node that run in its host calls, and the answers a task's call brought
 * back, until each router of that task takes its own (`take`).
 */
export class RouteFusion {
  readonly routers: string[] = []
  private readonly answers = new WeakMap<NodeCallContext, ((() => unknown) | undefined)[]>()

  constructor(readonly fields: [string, FieldFold][]) {}

  /** Adds a router to run with the node; its index among them. */
  add(code: string): number {
    this.routers.push(code)
    return this.routers.length - 1
  }

  /** What the node's call sends (null: no router to run with it). */
  request(): RouteRequest | null {
    return this.routers.length ? { routers: this.routers, fields: this.fields } : null
  }

  /** The answers of a task's call (none: the routers will call the host themselves). */
  keep(call: NodeCallContext, answers: (() => unknown)[] | undefined): void {
    if (answers?.length) this.answers.set(call, [...answers])
    else this.answers.delete(call)
  }

  /** The `index`-th router's answer for this task, once; undefined when there is none. */
  take(call: NodeCallContext | undefined, index: number): (() => unknown) | undefined {
    if (!call) return undefined
    const list = this.answers.get(call)
    const answer = list?.[index]
    if (list && answer) list[index] = undefined
    return answer
  }
}
