import { indexedDB, IDBKeyRange } from 'fake-indexeddb'
import { Dexie } from 'dexie'
import { describe, expect, it } from 'vitest'
import type { Checkpoint } from '../core/checkpoint/types'
import { describeSaverContract } from '../core/checkpoint/saverContract'
import { SuperstepDb } from './db'
import { DexieCheckpointSaver } from './dexieSaver'

let dbCount = 0
function freshDb(): SuperstepDb {
  return new SuperstepDb(`superstep-deferred-${++dbCount}`, { indexedDB, IDBKeyRange })
}

// Everything a saver promises holds when a step's pending writes wait for its next checkpoint.
describeSaverContract(
  'DexieCheckpointSaver, pending writes deferred',
  () => new DexieCheckpointSaver(freshDb(), { deferWritesMs: 20 }),
)

const meta = (step: number) => ({ source: 'loop' as const, step, parents: {} })
const ck = (id: string, n: number): Checkpoint => ({
  v: 1,
  id,
  ts: `2026-01-01T00:00:${id.padStart(2, '0')}Z`,
  channel_values: { n },
  channel_versions: { n },
  versions_seen: {},
})

/** Counts the read-write transactions the database starts. */
function countTransactions(db: SuperstepDb) {
  const counts = { rw: 0 }
  db.use({
    stack: 'dbcore',
    name: 'count-transactions',
    create: (down) => ({
      ...down,
      transaction: (stores, mode, options) => {
        if (mode === 'readwrite') counts.rw++
        return down.transaction(stores, mode, options)
      },
    }),
  })
  return counts
}

describe('deferred pending writes', () => {
  it('a step costs one transaction: its writes go in with the next checkpoint', async () => {
    const db = freshDb()
    const tx = countTransactions(db)
    const saver = new DexieCheckpointSaver(db, { deferWritesMs: 1000 })
    let cfg = await saver.put({ threadId: 't' }, ck('1', 1), meta(0), { n: 1 })
    const before = tx.rw
    for (let i = 2; i <= 6; i++) {
      await saver.putWrites(cfg, [['n', i]], `task${i}`)
      cfg = await saver.put(cfg, ck(String(i), i), meta(i), { n: i })
    }
    expect(tx.rw - before).toBe(5)
    // Every step's writes are stored against the checkpoint it ran from.
    for (let i = 2; i <= 6; i++) {
      const t = await saver.getTuple({ threadId: 't', checkpointId: String(i - 1) })
      expect(t?.pendingWrites).toEqual([[`task${i}`, 'n', i]])
    }
  })

  it('writes that no checkpoint follows (a failed or interrupted step) are stored after the delay', async () => {
    const db = freshDb()
    const saver = new DexieCheckpointSaver(db, { deferWritesMs: 10 })
    const cfg = await saver.put({ threadId: 't' }, ck('1', 1), meta(0), { n: 1 })
    await saver.putWrites(cfg, [['__error__', { message: 'boom' }]], 'task')
    expect(await db.writes.count()).toBe(0) // not yet: it waits for a checkpoint
    await new Promise((r) => setTimeout(r, 60))
    expect(await db.writes.count()).toBe(1) // read behind the saver's back, after the delay
  })

  it('a read through the saver sees the writes it accepted at once', async () => {
    const saver = new DexieCheckpointSaver(freshDb(), { deferWritesMs: 60_000 })
    const cfg = await saver.put({ threadId: 't' }, ck('1', 1), meta(0), { n: 1 })
    await saver.putWrites(cfg, [['n', 5]], 'a')
    await saver.putWrites(cfg, [['n', 6]], 'b')
    expect((await saver.getTuple(cfg))?.pendingWrites).toEqual([
      ['a', 'n', 5],
      ['b', 'n', 6],
    ])
  })

  it('writes on a checkpoint it did not just store are checked and stored at once', async () => {
    const saver = new DexieCheckpointSaver(freshDb(), { deferWritesMs: 60_000 })
    await saver.put({ threadId: 't' }, ck('1', 1), meta(0), { n: 1 })
    const missing = await saver
      .putWrites({ threadId: 't', checkpointId: 'nope' }, [['n', 1]], 'a')
      .catch((e: unknown) => e)
    expect(missing).toMatchObject({ name: 'MissingCheckpointError' })
  })

  it('an uncloneable write fails at once, as an undeferred one does', async () => {
    const saver = new DexieCheckpointSaver(freshDb(), { deferWritesMs: 5 })
    const cfg = await saver.put({ threadId: 't' }, ck('1', 1), meta(0), { n: 1 })
    const err = await saver.putWrites(cfg, [['f', () => 1]], 'a').catch((e: unknown) => e)
    expect(err).toMatchObject({ code: 'WRITE_FAILED', checkpointId: '1' })
  })

  it('a failed deferred store is thrown by the next write, not lost', async () => {
    const db = freshDb()
    const fail = { writes: false }
    db.use({
      stack: 'dbcore',
      name: 'fail-writes',
      create: (down) => ({
        ...down,
        table: (name) => {
          const t = down.table(name)
          return {
            ...t,
            mutate: (req) =>
              name === 'writes' && fail.writes
                ? Promise.reject(new Dexie.QuotaExceededError('full'))
                : t.mutate(req),
          }
        },
      }),
    })
    const saver = new DexieCheckpointSaver(db, { deferWritesMs: 5 })
    const cfg = await saver.put({ threadId: 't' }, ck('1', 1), meta(0), { n: 1 })
    fail.writes = true
    await saver.putWrites(cfg, [['n', 2]], 'a')
    await new Promise((r) => setTimeout(r, 40)) // the delayed store failed meanwhile
    fail.writes = false
    const err = await saver.put(cfg, ck('2', 2), meta(1), { n: 2 }).catch((e: unknown) => e)
    expect(err).toMatchObject({ code: 'QUOTA_EXCEEDED', checkpointId: '1' })
    expect((err as Error).message).toMatch(/pending writes of task a on checkpoint 1/)
    // The saver goes on: the next put stores.
    await saver.put(cfg, ck('2', 2), meta(1), { n: 2 })
    expect((await saver.getTuple({ threadId: 't' }))?.checkpoint.id).toBe('2')
  })
})
