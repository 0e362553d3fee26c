import { afterEach, describe, expect, it } from 'vitest'
import counter from '../../examples/counter.json'
import type { CheckpointInspection } from '../core/debug/types'
import type { RuntimeClient } from '../worker/client'
import { closeAll, setup as setupService } from '../worker/serviceHarness'
import { createAppStore } from './appStore'
import { createInspectionCache } from './inspectionCache'
import { memoryGraphs } from './memoryGraphs'

const fake = (id: string) => ({ checkpointId: id }) as unknown as CheckpointInspection

describe('createInspectionCache', () => {
  it('reads once per checkpoint, shares a read under way, and forgets the oldest past its size', async () => {
    const cache = createInspectionCache(2)
    const reads: string[] = []
    const load = (id: string) => () => {
      reads.push(id)
      return Promise.resolve(fake(id))
    }
    const [a1, a2] = [cache.read('s', 'a', load('a')), cache.read('s', 'a', load('a'))]
    expect(await a1).toBe(await a2)
    expect(cache.get('s', 'a')).toBe(await a1)
    await cache.read('s', 'b', load('b'))
    await cache.read('s', 'c', load('c'))
    expect(reads).toEqual(['a', 'b', 'c'])
    expect(cache.get('s', 'a')).toBeUndefined()
    expect(cache.get('s', 'c')?.checkpointId).toBe('c')
  })

  it('forgets everything in another scope, and keeps no failed read', async () => {
    const cache = createInspectionCache(4)
    await cache.read('s', 'a', () => Promise.resolve(fake('a')))
    expect(cache.get('t', 'a')).toBeUndefined()
    expect(cache.get('s', 'a')).toBeUndefined()
    await expect(cache.read('s', 'x', () => Promise.reject(new Error('damaged')))).rejects.toThrow()
    expect(await cache.read('s', 'x', () => Promise.resolve(fake('x')))).toEqual(fake('x'))
  })
})

afterEach(closeAll)

/** The counter run to its end over a client that counts its checkpoint reads. */
async function ranCounting() {
  const service = await setupService()
  const reads: (string | undefined)[] = []
  const answered: (string | undefined)[] = []
  const request = service.client.request.bind(service.client)
  service.client.request = ((type, params, transfer) => {
    const answer = request(type, params, transfer as Transferable[] | undefined)
    if (type !== 'inspectCheckpoint') return answer
    const id = (params as { checkpointId?: string }).checkpointId
    reads.push(id)
    return answer.then((r) => {
      answered.push(id)
      return r
    })
  }) as RuntimeClient['request']
  let id = 0
  const store = createAppStore({
    client: service.client,
    graphs: memoryGraphs(),
    examples: [{ id: 'g', name: 'g', doc: counter, trusted: true, allowNetwork: false }],
    newId: () => `id${++id}`,
  })
  await store.getState().init()
  await store.getState().run()
  return { store, reads, answered }
}

describe('picking a checkpoint the debugger read before', () => {
  it('shows a prefetched checkpoint in the same update as the pick, with no second read', async () => {
    const { store, reads, answered } = await ranCounting()
    const older = store.getState().timeline[2]?.checkpointId as string
    store.getState().prefetchCheckpoint(older)
    await expect.poll(() => answered.includes(older)).toBe(true)
    const picked = store.getState().selectCheckpoint(older)
    // Not awaited: the inspection is already the picked one.
    expect(store.getState().inspection?.checkpointId).toBe(older)
    await picked
    expect(reads.filter((r) => r === older)).toHaveLength(1)
  })

  it('reads again once the thread has grown, and never keeps its newest checkpoint', async () => {
    const { store, reads } = await ranCounting()
    const newest = store.getState().timeline[0]?.checkpointId as string
    const older = store.getState().timeline[1]?.checkpointId as string
    await store.getState().selectCheckpoint(older)
    await store.getState().selectCheckpoint(newest)
    await store.getState().selectCheckpoint(older)
    expect(reads.filter((r) => r === older)).toHaveLength(1)
    store.getState().prefetchCheckpoint(newest)
    await store.getState().selectCheckpoint(newest)
    expect(reads.filter((r) => r === newest).length).toBeGreaterThanOrEqual(2)
    // A fork from it adds a checkpoint: what was kept may have changed, so it is read again.
    expect(await store.getState().forkFrom(older, '{"log": ["x"]}', 'inc')).toBeNull()
    await store.getState().selectCheckpoint(older)
    expect(reads.filter((r) => r === older)).toHaveLength(2)
  })
})
