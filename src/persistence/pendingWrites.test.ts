import { describe, expect, it } from 'vitest'
import { describeSaverContract } from '../core/checkpoint/saverContract'
import { ck, countTransactions, failWritesTo, freshDb, meta, storedWrites } from './saverTestKit'
import { DexieCheckpointSaver } from './dexieSaver'

// Everything a saver promises holds when a step's pending writes wait for its next checkpoint.
describeSaverContract(
  'DexieCheckpointSaver, pending writes deferred',
  () => new DexieCheckpointSaver(freshDb('deferred'), { deferWritesMs: 20 }),
)

describe('deferred pending writes', () => {
  it('a step costs one transaction: its writes go in with the next checkpoint', async () => {
    const db = freshDb('deferred')
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
    const db = freshDb('deferred')
    const saver = new DexieCheckpointSaver(db, { deferWritesMs: 10 })
    const cfg = await saver.put({ threadId: 't' }, ck('1', 1), meta(0), { n: 1 })
    await saver.putWrites(cfg, [['__error__', { message: 'boom' }]], 'task')
    expect(await storedWrites(db)).toHaveLength(0) // not yet: it waits for a checkpoint
    await new Promise((r) => setTimeout(r, 60))
    expect(await storedWrites(db)).toHaveLength(1) // read behind the saver's back, after the delay
  })

  it('a read through the saver sees the writes it accepted at once', async () => {
    const saver = new DexieCheckpointSaver(freshDb('deferred'), { deferWritesMs: 60_000 })
    const cfg = await saver.put({ threadId: 't' }, ck('1', 1), meta(0), { n: 1 })
    await saver.putWrites(cfg, [['n', 5]], 'a')
    await saver.putWrites(cfg, [['n', 6]], 'b')
    expect((await saver.getTuple(cfg))?.pendingWrites).toEqual([
      ['a', 'n', 5],
      ['b', 'n', 6],
    ])
  })

  it('writes on a checkpoint it did not just store are checked and stored at once', async () => {
    const saver = new DexieCheckpointSaver(freshDb('deferred'), { deferWritesMs: 60_000 })
    await saver.put({ threadId: 't' }, ck('1', 1), meta(0), { n: 1 })
    const missing = await saver
      .putWrites({ threadId: 't', checkpointId: 'nope' }, [['n', 1]], 'a')
      .catch((e: unknown) => e)
    expect(missing).toMatchObject({ name: 'MissingCheckpointError' })
  })

  it('an uncloneable write fails at once, as an undeferred one does', async () => {
    const saver = new DexieCheckpointSaver(freshDb('deferred'), { deferWritesMs: 5 })
    const cfg = await saver.put({ threadId: 't' }, ck('1', 1), meta(0), { n: 1 })
    const err = await saver.putWrites(cfg, [['f', () => 1]], 'a').catch((e: unknown) => e)
    expect(err).toMatchObject({ code: 'WRITE_FAILED', checkpointId: '1' })
  })

  it('a failed deferred store is thrown by the next write, not lost', async () => {
    const db = freshDb('deferred')
    const fail = failWritesTo(db, 'checkpoints')
    const saver = new DexieCheckpointSaver(db, { deferWritesMs: 5 })
    const cfg = await saver.put({ threadId: 't' }, ck('1', 1), meta(0), { n: 1 })
    fail.on = true
    await saver.putWrites(cfg, [['n', 2]], 'a')
    await new Promise((r) => setTimeout(r, 40)) // the delayed store failed meanwhile
    fail.on = false
    const err = await saver.put(cfg, ck('2', 2), meta(1), { n: 2 }).catch((e: unknown) => e)
    expect(err).toMatchObject({ code: 'QUOTA_EXCEEDED', checkpointId: '1' })
    expect((err as Error).message).toMatch(/pending writes of task a on checkpoint 1/)
    // The saver goes on: the next put stores.
    await saver.put(cfg, ck('2', 2), meta(1), { n: 2 })
    expect((await saver.getTuple({ threadId: 't' }))?.checkpoint.id).toBe('2')
  })
})
