import { InvalidUpdateError, withTroubleshooting } from '../channels/base'

export { InvalidUpdateError }

/** Raised when a run exceeds its recursion limit (LangGraph's GraphRecursionError). */
export class GraphRecursionError extends Error {
  override name = 'GraphRecursionError'
  lc_error_code = 'GRAPH_RECURSION_LIMIT'
  constructor(limit: number) {
    super(
      withTroubleshooting(
        `Recursion limit of ${limit} reached without hitting a stop condition. You can increase the limit by setting the "recursionLimit" config key.`,
        'GRAPH_RECURSION_LIMIT',
      ),
    )
  }
}

/** Raised when a run is started with no input and nothing to resume. */
export class EmptyInputError extends Error {
  override name = 'EmptyInputError'
}

/** LangGraph's GraphValueError (e.g. `interrupt()` where there is no checkpointer). */
export class GraphValueError extends Error {
  override name = 'GraphValueError'
  lc_error_code: string | undefined
  constructor(message: string, code?: string) {
    super(code ? withTroubleshooting(message, code) : message)
    this.lc_error_code = code
  }
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

/** `lc_error_code` of an error, whatever realm it came from. */
export function errorCode(e: unknown): string | null {
  const code = (e as { lc_error_code?: unknown } | null)?.lc_error_code
  return typeof code === 'string' ? code : null
}
