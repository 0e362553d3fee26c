import { isTerminalEvent, type WorkerEvent } from './protocol'
import { activeProfile, addTime, profiledSync } from './stepProfile'
import { systemTimer, type Timer } from './timer'

export interface EventBatcherOptions {
  /** Posts one batch; events in the order they were pushed. */
  post: (events: WorkerEvent[]) => void
  /** Minimum time between two posts (default 16 ms, one frame). */
  intervalMs?: number
  timer?: Timer
}

/**
 * Queues worker events and posts them in batches, at most one batch per `intervalMs`, so a
 * 1,000-step run sends a few dozen messages instead of thousands. A terminal event (a run
 * ending or pausing, the sandbox hanging) flushes at once; so does `flush()`, which the
 * worker calls before every response so that the page sees a run's events before its reply.
 */
export class EventBatcher {
  private queue: WorkerEvent[] = []
  private handle: unknown = undefined
  private lastPost = -Infinity
  private readonly intervalMs: number
  private readonly timer: Timer

  constructor(private readonly o: EventBatcherOptions) {
    this.intervalMs = o.intervalMs ?? 16
    this.timer = o.timer ?? systemTimer
  }

  push(e: WorkerEvent): void {
    this.queue.push(e)
    const profile = activeProfile()
    if (profile) addTime(profile, 'events.pushed', performance.now())
    if (isTerminalEvent(e)) {
      this.flush()
      return
    }
    if (this.handle !== undefined) return
    // Even the first event of a quiet spell waits for a macrotask: a synchronous burst of
    // events (a step's tasks finishing) then goes in one batch.
    const wait = Math.max(0, this.lastPost + this.intervalMs - this.timer.now())
    this.handle = this.timer.set(() => {
      this.handle = undefined
      this.flush()
    }, wait)
  }

  /** Posts everything queued now (nothing when the queue is empty). */
  flush(): void {
    if (this.handle !== undefined) {
      this.timer.clear(this.handle)
      this.handle = undefined
    }
    if (this.queue.length === 0) return
    const events = this.queue
    this.queue = []
    this.lastPost = this.timer.now()
    profiledSync('events.post', () => this.o.post(events))
  }

  /** How many events wait to be posted. */
  get pending(): number {
    return this.queue.length
  }
}
