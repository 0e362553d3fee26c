import { errorToPosted } from '../core/errorJson'
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
export const toWorkerError: (e: unknown) => WorkerError = errorToPosted
