import { afterEach, describe, expect, it } from 'vitest'
import { MemorySaver } from '../core/checkpoint/memorySaver'
import type { Checkpoint } from '../core/checkpoint/types'
import { GatedSaver } from './gatedSaver'
import { activeProfile, profiledSync, type StepProfile } from './stepProfile'

const scope = globalThis as { __superstepProfile?: StepProfile }

const checkpoint = (id: string): Checkpoint => ({
  v: 1,
  id,
  ts: '2026-01-01T00:00:00.000Z',
  channel_values: { n: 1 },
  channel_versions: { n: 1 },
  versions_seen: {},
})

async function putTwo(saver: GatedSaver) {
  const meta = { source: 'loop' as const, step: 0, parents: {} }
  const a = await saver.put({ threadId: 't' }, checkpoint('c1'), meta, { n: 1 })
  await saver.putWrites(a, [['n', 2]], 'task')
  await saver.put(a, checkpoint('c2'), { ...meta, step: 1 }, { n: 2 })
}

describe('the timing hook', () => {
  afterEach(() => {
    scope.__superstepProfile = undefined
  })

  it('records nothing when off', async () => {
    expect(activeProfile()).toBeUndefined()
    await putTwo(new GatedSaver(new MemorySaver()))
    expect(profiledSync('x', () => 7)).toBe(7)
    expect(scope.__superstepProfile).toBeUndefined()
  })

  it('counts each saver write and sync part when a bench switches it on', async () => {
    const profile: StepProfile = {}
    scope.__superstepProfile = profile
    await putTwo(new GatedSaver(new MemorySaver()))
    expect(profiledSync('events.post', () => 7)).toBe(7)
    expect(profile.parts?.['saver.put']?.n).toBe(2)
    expect(profile.parts?.['saver.putWrites']?.n).toBe(1)
    expect(profile.parts?.['events.post']?.n).toBe(1)
    expect(profile.last).toBeGreaterThanOrEqual(profile.first ?? Infinity)
  })
})
