/**
 * An optional timing hook for benchmarks (bench/runProfile.bench.ts): where a run's time in
 * the worker goes (sandbox calls, saver writes, task-run writes, event posts). Off unless a
 * bench sets `self.__superstepProfile = {}` in the worker; then every hooked operation adds
 * its duration to its part. When off, a hook costs one global property read.
 */

/** Time spent per part (ms, summed) and how many operations, plus the span they cover. */
export interface StepProfile {
  parts?: Record<string, { ms: number; n: number }>
  /** performance.now() of the first and of the latest hooked operation's end. */
  first?: number
  last?: number
  /**
   * Set to [] by a bench to also record marks (`mark`): [name, epoch ms] in order, across
   * the worker and (for sandbox calls, from their replies) the sandbox worker.
   */
  trace?: [string, number][]
}

interface ProfiledScope {
  __superstepProfile?: StepProfile
}

/** The active profile, or undefined (the usual case). */
export function activeProfile(): StepProfile | undefined {
  return (globalThis as ProfiledScope).__superstepProfile
}

/** Adds one operation of `part` that started at `t0` and ends now. */
export function addTime(profile: StepProfile, part: string, t0: number): void {
  const t1 = performance.now()
  const parts = (profile.parts ??= {})
  const slot = (parts[part] ??= { ms: 0, n: 0 })
  slot.ms += t1 - t0
  slot.n += 1
  profile.first ??= t0
  profile.last = t1
  const trace = profile.trace
  if (trace) {
    const origin = performance.timeOrigin
    trace.push([`${part}<`, origin + t0], [`${part}>`, origin + t1])
  }
}

/** Runs `work`; with profiling on, the time until its promise settles is added to `part`. */
export function profiled<T>(part: string, work: () => Promise<T>): Promise<T> {
  const profile = activeProfile()
  if (!profile) return work()
  const t0 = performance.now()
  const p = work()
  const done = () => addTime(profile, part, t0)
  p.then(done, done)
  return p
}

/** Runs synchronous `work`; with profiling on, its time is added to `part`. */
export function profiledSync<T>(part: string, work: () => T): T {
  const profile = activeProfile()
  if (!profile) return work()
  const t0 = performance.now()
  try {
    return work()
  } finally {
    addTime(profile, part, t0)
  }
}

/** Epoch ms (comparable across the page, the workers and the sandbox's worker). */
export function epochNow(): number {
  return performance.timeOrigin + performance.now()
}

/** With a trace on (StepProfile.trace), records `name` now (or at epoch ms `at`). */
export function mark(name: string, at?: number): void {
  const trace = activeProfile()?.trace
  if (trace) trace.push([name, at ?? epochNow()])
}

/** Whether marks are recorded now. */
export function tracing(): boolean {
  return activeProfile()?.trace !== undefined
}
