import { describe, expect, it } from 'vitest'
import { EventBatcher } from './eventBatcher'
import type { WorkerEvent } from './protocol'
import type { Timer } from './timer'

/** A clock the test moves by hand; timers fire when it passes them. */
function fakeTimer() {
  let now = 0
  let timers: { at: number; fn: () => void; id: number }[] = []
  let nextId = 1
  const timer: Timer = {
    now: () => now,
    set: (fn, ms) => {
      const id = nextId++
      timers.push({ at: now + ms, fn, id })
      return id
    },
    clear: (id) => {
      timers = timers.filter((t) => t.id !== id)
    },
  }
  const advance = (ms: number) => {
    now += ms
    for (;;) {
      const due = timers.filter((t) => t.at <= now).sort((a, b) => a.at - b.at)[0]
      if (!due) return
      timers = timers.filter((t) => t !== due)
      due.fn()
    }
  }
  return { timer, advance, scheduled: () => timers.length }
}

const step = (n: number): WorkerEvent => ({
  type: 'step_started',
  threadId: 't',
  runId: 'r',
  step: n,
  tasks: [],
})
const finished: WorkerEvent = {
  type: 'run_finished',
  threadId: 't',
  runId: 'r',
  checkpointId: null,
}

function setup() {
  const clock = fakeTimer()
  const batches: WorkerEvent[][] = []
  const batcher = new EventBatcher({ post: (b) => batches.push(b), timer: clock.timer })
  return { ...clock, batches, batcher }
}

describe('EventBatcher', () => {
  it('posts a burst of events as one batch, after a macrotask', () => {
    const t = setup()
    for (let i = 0; i < 5; i++) t.batcher.push(step(i))
    expect(t.batches).toEqual([])
    t.advance(0)
    expect(t.batches).toEqual([[0, 1, 2, 3, 4].map(step)])
  })

  it('posts at most once per interval, losing nothing and keeping order', () => {
    const t = setup()
    const sent: WorkerEvent[] = []
    for (let i = 0; i < 1000; i++) {
      const e = step(i)
      sent.push(e)
      t.batcher.push(e)
      t.advance(1) // one event per millisecond: a 1,000-step run
    }
    t.advance(100)
    expect(t.batches.flat()).toEqual(sent)
    expect(t.batches.length).toBeLessThanOrEqual(Math.ceil(1000 / 16) + 1)
    expect(t.batches.length).toBeGreaterThan(50)
  })

  it('flushes at once when a run ends or pauses', () => {
    const t = setup()
    t.batcher.push(step(0))
    t.batcher.push(step(1))
    t.batcher.push(finished)
    expect(t.batches).toEqual([[step(0), step(1), finished]])
    expect(t.scheduled()).toBe(0) // the pending timer was cancelled
    t.advance(100)
    expect(t.batches).toHaveLength(1)
  })

  it('flush() posts what is queued and nothing when empty', () => {
    const t = setup()
    t.batcher.flush()
    expect(t.batches).toEqual([])
    t.batcher.push(step(0))
    expect(t.batcher.pending).toBe(1)
    t.batcher.flush()
    expect(t.batches).toEqual([[step(0)]])
    expect(t.batcher.pending).toBe(0)
  })

  it('waits out the rest of the interval after a post', () => {
    const t = setup()
    t.batcher.push(step(0))
    t.advance(0)
    t.batcher.push(step(1))
    t.advance(10)
    expect(t.batches).toHaveLength(1)
    t.advance(6)
    expect(t.batches).toEqual([[step(0)], [step(1)]])
  })
})
