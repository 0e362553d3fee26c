/**
 * Whether `error` is, or wraps, a QuotaExceededError. Chromium reports a full disk as an
 * AbortError whose `inner` is the QuotaExceededError; Dexie's BulkError lists it among its
 * `failures`; other wrappers use `cause`.
 */
export function isQuotaError(error: unknown): boolean {
  return someInChain(error, (e) => e.name === 'QuotaExceededError')
}

interface ErrorLike {
  name?: unknown
  inner?: unknown
  cause?: unknown
  failures?: unknown
}

function someInChain(error: unknown, test: (e: ErrorLike) => boolean, depth = 0): boolean {
  if (depth > 8 || typeof error !== 'object' || error === null) return false
  const e = error as ErrorLike
  if (test(e)) return true
  const failures = Array.isArray(e.failures) ? (e.failures as unknown[]) : []
  return [e.inner, e.cause, ...failures].some((x) => someInChain(x, test, depth + 1))
}
