import { isQuotaError } from '../lib/quota'

export { isQuotaError }

/** Why a checkpoint write failed: the browser's storage is full, or anything else. */
export type CheckpointStorageErrorCode = 'QUOTA_EXCEEDED' | 'WRITE_FAILED'

/**
 * A write to checkpoint storage that did not happen. The transaction was rolled back, so
 * everything stored before it is intact and readable. Match it by `name` and `code` (it may
 * cross `postMessage`); `cause` is the error IndexedDB or Dexie raised.
 */
export class CheckpointStorageError extends Error {
  override readonly name = 'CheckpointStorageError'
  readonly code: CheckpointStorageErrorCode
  readonly threadId: string
  readonly checkpointId: string | undefined

  constructor(
    code: CheckpointStorageErrorCode,
    message: string,
    where: { threadId: string; checkpointId?: string },
    cause: unknown,
  ) {
    super(message, { cause })
    this.code = code
    this.threadId = where.threadId
    this.checkpointId = where.checkpointId
  }
}

/**
 * Wraps whatever a failed storage transaction threw into a CheckpointStorageError whose
 * message says what failed (`what`, e.g. "store checkpoint 1f… on thread t"), with which
 * thread and checkpoint, and why.
 */
export function toStorageError(
  error: unknown,
  what: string,
  where: { threadId: string; checkpointId?: string },
): CheckpointStorageError {
  if (error instanceof CheckpointStorageError) return error
  const quota = isQuotaError(error)
  const cause = describe(error).replace(/\.$/, '')
  const why = quota ? `the browser's storage quota is exceeded (${cause})` : cause
  return new CheckpointStorageError(
    quota ? 'QUOTA_EXCEEDED' : 'WRITE_FAILED',
    `Could not ${what}: ${why}. Nothing of this write was stored; earlier checkpoints are intact.`,
    where,
    error,
  )
}

interface ErrorLike {
  name?: unknown
  message?: unknown
  inner?: unknown
  cause?: unknown
  failures?: unknown
}

/** "AbortError: … ← QuotaExceededError: …", following `inner`/`cause`/`failures[0]`. */
function describe(error: unknown): string {
  const parts: string[] = []
  let e: unknown = error
  for (let depth = 0; depth < 8 && e !== undefined && e !== null; depth++) {
    if (typeof e !== 'object') {
      parts.push(String(e))
      break
    }
    const x = e as ErrorLike
    const name = typeof x.name === 'string' ? x.name : 'Error'
    // Dexie appends the inner error's message on a new line; the chain prints it anyway.
    const message = typeof x.message === 'string' ? (x.message.split('\n')[0] ?? '').trim() : ''
    const line = message ? `${name}: ${message}` : name
    if (parts.at(-1) !== line) parts.push(line)
    e = x.inner ?? x.cause ?? (Array.isArray(x.failures) ? (x.failures as unknown[])[0] : undefined)
  }
  return parts.join(' ← ') || 'unknown error'
}
