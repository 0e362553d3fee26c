/**
 * The ambient clock and id source, given to the pure core from outside so that tests can
 * pass a fake clock and a counter and get byte-identical checkpoints.
 */
export interface RuntimeEnv {
  /** ISO-8601 timestamp of "now". */
  now: () => string
  /** A fresh unique id (checkpoint ids, generated message ids). */
  newId: () => string
  /** Milliseconds from a monotonic clock, for task durations (optional). */
  monotonic?: () => number
}

/** The last ISO time made and its millisecond: a run saves many checkpoints a millisecond. */
let lastMs = NaN
let lastIso = ''

export const systemEnv: RuntimeEnv = {
  now: () => {
    const ms = Date.now()
    if (ms !== lastMs) {
      lastMs = ms
      lastIso = new Date(ms).toISOString()
    }
    return lastIso
  },
  newId: () => globalThis.crypto.randomUUID(),
  monotonic: () => globalThis.performance.now(),
}

/** A deterministic env for tests: a fixed clock and UUID-shaped counter ids. */
export function createCountingEnv(start = 0): RuntimeEnv {
  let n = start
  return {
    now: () => new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
    newId: () => {
      n += 1
      return `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`
    },
  }
}
