import { GraphInterrupt } from './errors'

/**
 * Pauses the running node with a payload for a human (LangGraph's `interrupt`). The
 * runtime carries the task context explicitly; outside a task this throws.
 */
export interface InterruptContext {
  /** Resume values for this task, in order of the `interrupt()` calls. */
  resumes: unknown[]
  /** How many `interrupt()` calls this execution made so far. */
  calls: number
  taskId: string
}

let current: InterruptContext | null = null

/** Runs `fn` with `ctx` as the interrupt context of the synchronous part of a task. */
export function withInterruptContext<T>(ctx: InterruptContext | null, fn: () => T): T {
  const prev = current
  current = ctx
  try {
    return fn()
  } finally {
    current = prev
  }
}

export function interrupt(value: unknown): unknown {
  const ctx = current
  if (!ctx) throw new Error('Called interrupt() outside the context of a graph.')
  const i = ctx.calls++
  if (i < ctx.resumes.length) return ctx.resumes[i]
  throw new GraphInterrupt([{ id: ctx.taskId, value }])
}
