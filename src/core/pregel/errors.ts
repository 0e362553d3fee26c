import { InvalidUpdateError } from '../channels/base'
import type { Command } from './types'
import { LangGraphError } from '../langGraphError'

export { InvalidUpdateError }

/** Raised when a run exceeds its recursion limit (LangGraph's GraphRecursionError). */
export class GraphRecursionError extends LangGraphError {
  override name = 'GraphRecursionError'
  constructor(limit: number) {
    super(
      `Recursion limit of ${limit} reached without hitting a stop condition. You can increase the limit by setting the "recursionLimit" config key.`,
      'GRAPH_RECURSION_LIMIT',
    )
  }
}

/** Raised when a run is started with no input and nothing to resume. */
export class EmptyInputError extends Error {
  override name = 'EmptyInputError'
}

/** LangGraph's GraphValueError (e.g. `interrupt()` where there is no checkpointer). */
export class GraphValueError extends LangGraphError {
  override name = 'GraphValueError'
}

/** Raised when compiled code is not what the graph needs (e.g. not a function). */
export class GraphCodeError extends Error {
  override name = 'GraphCodeError'
  constructor(
    message: string,
    readonly nodeId: string | undefined,
  ) {
    super(message)
  }
}

/** Thrown by `interrupt()` inside a node to pause the run. */
export class GraphInterrupt extends Error {
  override name = 'GraphInterrupt'
  constructor(readonly interrupts: { id: string; value: unknown }[] = []) {
    super(JSON.stringify(interrupts))
  }
}

/**
 * Why a run failed: the error and the node it came from (if any). Reports read the cause and
 * the node from it (see errorJson.ts).
 */
export class NodeRunError extends Error {
  constructor(
    override readonly cause: unknown,
    readonly node: string,
  ) {
    super(cause instanceof Error ? cause.message : String(cause))
  }
}

/**
 * A `Command({ graph: Command.PARENT })` on its way to the parent graph (LangGraph's
 * ParentCommand): thrown by the writers of a task inside a subgraph, it ends the subgraph's
 * run and becomes the output of the parent's task that ran the subgraph (`target`, that
 * task's namespace).
 */
export class ParentCommand extends Error {
  override name = 'ParentCommand'
  /** The namespace of the task that takes the command; set by the task that raised it. */
  target: string | undefined
  constructor(readonly command: Command) {
    super('Command.PARENT')
  }
}

/** The error a node raised, through the NodeRunErrors of the subgraphs it ran in. */
export function rootCause(e: unknown): { cause: unknown; nodes: string[] } {
  const nodes: string[] = []
  let cause = e
  while (cause instanceof NodeRunError) {
    nodes.push(cause.node)
    cause = cause.cause
  }
  return { cause, nodes }
}
