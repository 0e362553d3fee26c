import { describe, expect, it } from 'vitest'
import { FaultySaver } from './faultySaver'
import type { FaultPlan } from './faultySaver'
import { MemorySaver } from './memorySaver'
import { describeSaverContract } from './saverContract'
import type { Checkpoint } from './types'

describeSaverContract(
  'FaultySaver without faults',
  () => new FaultySaver(new MemorySaver(), { failOn: [] }),
)

const ck = (id: string): Checkpoint => ({
  v: 1,
  id,
  ts: '2026-01-01T00:00:00.000Z',
  channel_values: { n: id },
  channel_versions: { n: 1 },
  versions_seen: {},
})
const meta = { source: 'loop' as const, step: 0, parents: {} }

/** Makes `n` alternating put/putWrites calls; returns which ones failed ('p3', 'w4', …). */
async function run(plan: FaultPlan, n: number) {
  const saver = new FaultySaver(new MemorySaver(), plan)
  const failed: string[] = []
  let cfg = await saver.inner.put({ threadId: 't' }, ck('root'), meta, { n: 1 })
  for (let i = 1; i <= n; i++) {
    const label = `${i % 2 ? 'p' : 'w'}${i}`
    try {
      if (i % 2) cfg = await saver.put(cfg, ck(`c${i}`), meta, { n: 1 })
      else await saver.putWrites(cfg, [['x', i]], `task${i}`)
    } catch (e) {
      expect(e).toMatchObject({ message: 'injected fault', code: 'INJECTED_FAULT' })
      failed.push(label)
    }
  }
  return { saver, failed }
}

describe('FaultySaver', () => {
  it('fails the listed calls, counted across put and putWrites, and stores nothing for them', async () => {
    const { saver, failed } = await run({ failOn: [2, 3] }, 5)
    expect(failed).toEqual(['w2', 'p3'])
    expect(saver.faults).toEqual([
      { call: 2, method: 'putWrites' },
      { call: 3, method: 'put' },
    ])
    const ids = []
    for await (const t of saver.list({ threadId: 't' })) ids.push(t.config.checkpointId)
    expect(ids).toEqual(['c5', 'c1', 'root'])
    // w2 stored nothing; w4 went to c1 too, since p3 failed.
    expect((await saver.getTuple({ threadId: 't', checkpointId: 'c1' }))?.pendingWrites).toEqual([
      ['task4', 'x', 4],
    ])
  })

  it('counts only the chosen methods', async () => {
    const { failed, saver } = await run({ failOn: [2], methods: ['put'] }, 6)
    expect(failed).toEqual(['p3'])
    expect(saver.calls).toBe(3)
  })

  it('fails a seeded pseudo-random share of calls, the same ones for the same seed', async () => {
    const a = await run({ rate: 0.3, seed: 42 }, 200)
    const b = await run({ rate: 0.3, seed: 42 }, 200)
    const c = await run({ rate: 0.3, seed: 7 }, 200)
    expect(a.failed).toEqual(b.failed)
    expect(a.failed).not.toEqual(c.failed)
    expect(a.failed.length).toBeGreaterThan(35)
    expect(a.failed.length).toBeLessThan(85)
    expect((await run({ rate: 0, seed: 1 }, 50)).failed).toEqual([])
    expect((await run({ rate: 1, seed: 1 }, 50)).failed).toHaveLength(50)
  })
})
