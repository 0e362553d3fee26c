import { describe, expect, it } from 'vitest'
import type { TaskRunRow } from '../persistence/db'
import { TaskRunRecorder } from './taskRunRecorder'

/** A write the test settles by hand, one call at a time. */
function heldWrites() {
  const calls: { rows: TaskRunRow[]; settle: (error?: Error) => void }[] = []
  const write = (rows: TaskRunRow[]) =>
    new Promise<void>((resolve, reject) => {
      calls.push({ rows, settle: (error) => (error ? reject(error) : resolve()) })
    })
  return { calls, write }
}

const tick = () => new Promise((r) => setTimeout(r, 0))

/** Records step `step`'s one task, run from checkpoint `from`, and flushes it. */
function recordStep(r: TaskRunRecorder, step: number, from: string) {
  r.ranFrom(from)
  r.task(step, { taskId: `t${step}`, name: 'inc', durationMs: step, logs: [] })
  r.flush()
}

describe('TaskRunRecorder', () => {
  it('writes the first step at once and the steps that end during that write together next', async () => {
    const { calls, write } = heldWrites()
    const warnings: string[] = []
    const r = new TaskRunRecorder({
      threadId: 'th',
      batchMs: 0,
      write,
      warn: (_, m) => warnings.push(m),
    })
    recordStep(r, 1, 'c0')
    await tick()
    expect(calls.map((c) => c.rows.map((x) => x.taskId))).toEqual([['t1']])
    recordStep(r, 2, 'c1')
    recordStep(r, 3, 'c2')
    await tick()
    expect(calls).toHaveLength(1) // steps 2 and 3 wait for step 1's write

    let settled = false
    void r.settled().then(() => (settled = true))
    calls[0]?.settle()
    await tick()
    expect(calls[1]?.rows.map((x) => [x.taskId, x.checkpointId])).toEqual([
      ['t2', 'c1'],
      ['t3', 'c2'],
    ])
    expect(settled).toBe(false) // the second write is still in flight
    calls[1]?.settle()
    await tick()
    expect(settled).toBe(true)
    expect(calls).toHaveLength(2)
    expect(warnings).toEqual([])
  })

  it('says which steps a failed write lost, each of them, and goes on writing', async () => {
    const { calls, write } = heldWrites()
    const warned: [number, string][] = []
    const r = new TaskRunRecorder({
      threadId: 'th',
      batchMs: 0,
      write,
      warn: (s, m) => warned.push([s, m]),
    })
    recordStep(r, 1, 'c0')
    await tick()
    recordStep(r, 2, 'c1')
    recordStep(r, 3, 'c2')
    await tick()
    calls[0]?.settle()
    await tick()
    calls[1]?.settle(new Error('disk on fire'))
    await tick()
    expect(warned.map(([s]) => s)).toEqual([2, 3])
    expect(warned[0]?.[1]).toContain('disk on fire')
    recordStep(r, 4, 'c3')
    await tick()
    expect(calls[2]?.rows.map((x) => x.taskId)).toEqual(['t4'])
    calls[2]?.settle()
    await r.settled()
  })

  it('steps flushed within batchMs share one write; settled() writes at once', async () => {
    const { calls, write } = heldWrites()
    const r = new TaskRunRecorder({ threadId: 'th', batchMs: 60_000, write, warn: () => undefined })
    recordStep(r, 1, 'c0')
    recordStep(r, 2, 'c1')
    recordStep(r, 3, 'c2')
    await tick()
    expect(calls).toHaveLength(0) // waiting for more steps
    const done = r.settled() // a pause or the run's end: no waiting for the timer
    await tick()
    expect(calls.map((c) => c.rows.map((x) => x.taskId))).toEqual([['t1', 't2', 't3']])
    calls[0]?.settle()
    await done
  })

  it('discarding the current step keeps the steps already flushed', async () => {
    const { calls, write } = heldWrites()
    const r = new TaskRunRecorder({ threadId: 'th', batchMs: 0, write, warn: () => undefined })
    recordStep(r, 1, 'c0')
    await tick()
    recordStep(r, 2, 'c1')
    r.ranFrom('c2')
    r.task(3, { taskId: 't3', name: 'inc', durationMs: 3, logs: [] })
    r.discard() // step 3 was abandoned
    r.flush()
    const done = r.settled()
    calls[0]?.settle()
    await tick()
    calls[1]?.settle()
    await done
    expect(calls.flatMap((c) => c.rows.map((x) => x.taskId))).toEqual(['t1', 't2'])
  })
})
