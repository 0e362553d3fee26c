/** The clock and timers the worker's modules use; injected so tests run on a fake clock. */
export interface Timer {
  /** Milliseconds from a monotonic clock. */
  now: () => number
  set: (fn: () => void, ms: number) => unknown
  clear: (handle: unknown) => void
}

export const systemTimer: Timer = {
  now: () => performance.now(),
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
}
