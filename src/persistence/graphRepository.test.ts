import 'fake-indexeddb/auto'
import { describe, expect, it } from 'vitest'
import { SuperstepDb } from './db'
import { GraphRepository } from './graphRepository'

let n = 0
const repo = () => new GraphRepository(new SuperstepDb(`graphs-test-${++n}`))
const doc = { superstep: 1, name: 'g', state: [], nodes: [], edges: [] }

describe('GraphRepository', () => {
  it('saves, lists newest first, trusts and deletes graphs', async () => {
    const r = repo()
    await r.save(
      { id: 'a', name: 'A', doc, trusted: false, allowNetwork: false },
      '2026-01-01T00:00:00.000Z',
    )
    await r.save(
      { id: 'b', name: 'B', doc, trusted: true, allowNetwork: false },
      '2026-01-02T00:00:00.000Z',
    )
    expect((await r.list()).map((g) => g.id)).toEqual(['b', 'a'])
    await r.trust('a')
    expect((await r.get('a'))?.trusted).toBe(true)
    await r.delete('b')
    expect((await r.list()).map((g) => g.id)).toEqual(['a'])
  })

  it('keeps createdAt across saves', async () => {
    const r = repo()
    const first = await r.save(
      { id: 'a', name: 'A', doc, trusted: true, allowNetwork: false },
      '2026-01-01T00:00:00.000Z',
    )
    const again = await r.save({ ...first, name: 'A2' }, '2026-01-03T00:00:00.000Z')
    expect(again.createdAt).toBe('2026-01-01T00:00:00.000Z')
    expect((await r.get('a'))?.name).toBe('A2')
  })
})
