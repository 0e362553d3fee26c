import { errorToJson, NodeRunError } from '../core/pregel/loop'
import type { WorkerError, WorkerErrorCode } from './protocol'

/** An error the worker raises itself (a refused request, a missing sandbox). */
export class WorkerRequestError extends Error {
  constructor(
    readonly code: WorkerErrorCode,
    message: string,
    override readonly name: string = 'WorkerRequestError',
  ) {
    super(message)
  }
}

/** Refused: the thread already has a run that is advancing or paused. */
export class ThreadBusyError extends WorkerRequestError {
  constructor(threadId: string, state: 'advancing' | 'paused') {
    super(
      'THREAD_BUSY',
      `Thread ${threadId} already has ${state === 'paused' ? 'a paused' : 'an advancing'} run; ${state === 'paused' ? 'continue it' : 'wait for it'} or stop it first.`,
      'ThreadBusyError',
    )
  }
}

/** Any thrown value as the plain `WorkerError` that crosses `postMessage`. */
export function toWorkerError(e: unknown): WorkerError {
  const node = e instanceof NodeRunError ? e.node : undefined
  const cause = e instanceof NodeRunError ? e.cause : e
  const json = errorToJson(cause)
  const own = (cause as { code?: unknown } | null)?.code
  const code = json.code ?? (typeof own === 'string' ? own : undefined)
  return {
    name: json.name,
    message: json.message,
    ...(code !== undefined && { code }),
    ...(node !== undefined && { node }),
    ...(json.line !== undefined && { line: json.line }),
    ...(json.column !== undefined && { column: json.column }),
  }
}
