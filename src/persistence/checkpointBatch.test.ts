import { describe, expect, it } from 'vitest'
import { collectList, describeSaverContract } from '../core/checkpoint/saverContract'
import { CheckpointBatches } from './checkpointBatch'
import {
  ck,
  countTransactions,
  failWritesTo,
  freshDb,
  meta,
  storedRuns,
  storedWrites,
} from './saverTestKit'
import { DexieCheckpointSaver } from './dexieSaver'

// Everything a saver promises holds for a run's view that commits in batches.
describeSaverContract('DexieCheckpointSaver, batched view', () => {
  const view = new DexieCheckpointSaver(freshDb('batched'), { batchMs: 20 }).batched()
  if (!view) throw new Error('no batched view')
  return view
})

/** A database whose checkpoint writes fail while `fail.on`. */
function failingDb() {
  const db = freshDb('batched')
  return { db, fail: failWritesTo(db, 'checkpoints') }
}

/** Puts checkpoints `from`..`to` after `cfg`, each with one pending write on its parent. */
async function steps(
  saver: NonNullable<ReturnType<DexieCheckpointSaver['batched']>>,
  cfg: { threadId: string; checkpointId: string },
  from: number,
  to: number,
) {
  for (let i = from; i <= to; i++) {
    await saver.putWrites(cfg, [['n', i]], `task${i}`)
    cfg = await saver.put(cfg, ck(String(i), i), meta(i), { n: i })
  }
  return cfg
}

describe('checkpoints committed in batches', () => {
  it('a run of steps costs one transaction per batch, and reads the same as saved one by one', async () => {
    const db = freshDb('batched')
    const tx = countTransactions(db)
    const base = new DexieCheckpointSaver(db, { batchMs: 60_000 })
    const saver = base.batched()
    if (!saver) throw new Error('no batched view')
    const first = await saver.put({ threadId: 't' }, ck('1', 1), meta(0), { n: 1 })
    const before = tx.rw
    const last = await steps(saver, first, 2, 9)
    expect(tx.rw - before).toBe(0) // held in memory
    expect(await db.checkpoints.count()).toBe(1)
    expect(saver.isPending('9')).toBe(true)
    await saver.flush()
    expect(tx.rw - before).toBe(1)
    expect(saver.isPending('9')).toBe(false)
    expect(last.checkpointId).toBe('9')

    // The same steps through the plain saver, one transaction each.
    const plain = new DexieCheckpointSaver(freshDb('batched'))
    let cfg = await plain.put({ threadId: 't' }, ck('1', 1), meta(0), { n: 1 })
    for (let i = 2; i <= 9; i++) {
      await plain.putWrites(cfg, [['n', i]], `task${i}`)
      cfg = await plain.put(cfg, ck(String(i), i), meta(i), { n: i })
    }
    expect(await collectList(base, { threadId: 't' })).toEqual(
      await collectList(plain, { threadId: 't' }),
    )
    const seqs = (await db.checkpoints.toArray()).sort((a, b) => a.seq - b.seq)
    expect(seqs.map((r) => [r.checkpointId, r.seq])).toEqual(
      Array.from({ length: 9 }, (_, i) => [String(i + 1), i + 1]),
    )
  })

  it('reads commit first: a read during a run sees every checkpoint put', async () => {
    const db = freshDb('batched')
    const base = new DexieCheckpointSaver(db, { batchMs: 60_000 })
    const saver = base.batched()
    if (!saver) throw new Error('no batched view')
    const first = await saver.put({ threadId: 't' }, ck('1', 1), meta(0), { n: 1 })
    await steps(saver, first, 2, 4)
    expect((await base.getTuple({ threadId: 't' }))?.checkpoint.id).toBe('4')
    expect((await base.listThreads()).map((t) => t.count)).toEqual([4])
    expect(await db.checkpoints.count()).toBe(4) // and they are stored
  })

  it('commits by itself after the delay, and says so to whoever listens', async () => {
    const db = freshDb('batched')
    const saver = new DexieCheckpointSaver(db, { batchMs: 10 }).batched()
    if (!saver) throw new Error('no batched view')
    const heard: boolean[] = []
    saver.onSettled(() => heard.push(saver.isPending('3')))
    const first = await saver.put({ threadId: 't' }, ck('1', 1), meta(0), { n: 1 })
    await steps(saver, first, 2, 3)
    expect(await db.checkpoints.count()).toBe(1)
    await new Promise((r) => setTimeout(r, 80))
    expect(await db.checkpoints.count()).toBe(3)
    expect(heard).toEqual([false])
  })

  it('a failed commit loses its batch whole, is thrown by the next put and by flush once', async () => {
    const { db, fail } = failingDb()
    const saver = new DexieCheckpointSaver(db, { batchMs: 60_000 }).batched()
    if (!saver) throw new Error('no batched view')
    const first = await saver.put({ threadId: 't' }, ck('1', 1), meta(0), { n: 1 })
    const cfg = await steps(saver, first, 2, 4)
    fail.on = true
    await expect(saver.flush()).rejects.toMatchObject({ code: 'QUOTA_EXCEEDED' })
    fail.on = false
    expect(saver.isLost('4')).toBe(true)
    expect(saver.isPending('4')).toBe(false)
    await saver.flush() // said once
    // Nothing of the batch is stored, not even its pending writes on the stored checkpoint.
    expect((await db.checkpoints.toArray()).map((r) => r.checkpointId)).toEqual(['1'])
    expect(await storedWrites(db)).toEqual([])
    // The saver goes on from what is stored.
    await saver.put(first, ck('5', 5), meta(1), { n: 5 })
    await saver.flush()
    expect((await db.checkpoints.toArray()).map((r) => r.checkpointId).sort()).toEqual(['1', '5'])
    expect(cfg.checkpointId).toBe('4')
  })

  it('the failure of a commit no one awaited is thrown by the run’s next put', async () => {
    const { db, fail } = failingDb()
    const saver = new DexieCheckpointSaver(db, { batchMs: 5 }).batched()
    if (!saver) throw new Error('no batched view')
    const first = await saver.put({ threadId: 't' }, ck('1', 1), meta(0), { n: 1 })
    fail.on = true
    const cfg = await steps(saver, first, 2, 3)
    await new Promise((r) => setTimeout(r, 50))
    fail.on = false
    const err = await saver.put(cfg, ck('4', 4), meta(4), { n: 4 }).catch((e: unknown) => e)
    expect(err).toMatchObject({ code: 'QUOTA_EXCEEDED' })
  })

  it('an uncloneable value fails at its put, as an unbatched one does', async () => {
    const saver = new DexieCheckpointSaver(freshDb('batched'), { batchMs: 60_000 }).batched()
    if (!saver) throw new Error('no batched view')
    const first = await saver.put({ threadId: 't' }, ck('1', 1), meta(0), { n: 1 })
    const bad = { ...ck('2', 2), channel_values: { n: () => 1 } }
    const err = await saver.put(first, bad, meta(1), { n: 2 }).catch((e: unknown) => e)
    expect(err).toMatchObject({ code: 'WRITE_FAILED', checkpointId: '2' })
  })

  it('task runs commit with the checkpoints of their batch', async () => {
    const db = freshDb('batched')
    const saver = new DexieCheckpointSaver(db, { batchMs: 60_000 }).batched()
    if (!saver) throw new Error('no batched view')
    const first = await saver.put({ threadId: 't' }, ck('1', 1), meta(0), { n: 1 })
    await steps(saver, first, 2, 2)
    const recorded = saver.recordTaskRuns([
      { threadId: 't', checkpointId: '1', taskId: 'task2', name: 'a', durationMs: 1, logs: [] },
    ])
    expect(await storedRuns(db)).toEqual([])
    await saver.flush()
    await recorded
    expect((await storedRuns(db)).map((r) => [r.checkpointId, r.taskId])).toEqual([['1', 'task2']])
    expect(await db.checkpoints.count()).toBe(2)
  })
})

describe('a run faster than its commits', () => {
  it('waits for room once two full batches are pending', async () => {
    const db = freshDb('batched')
    const batches = new CheckpointBatches(db, 60_000, 2)
    const row = (id: string, seq: number) => ({
      threadId: 't',
      checkpointId: id,
      seq,
      ts: '',
      channel_versions: {},
      versions_seen: {},
      metadata: meta(seq),
      owner: {},
    })
    batches.addCheckpoint(row('1', 1), [])
    batches.addCheckpoint(row('2', 2), []) // a full batch: its commit starts
    batches.addCheckpoint(row('3', 3), [])
    batches.addCheckpoint(row('4', 4), []) // and the next one's, behind it
    let roomy = false
    const room = batches.room().then(() => (roomy = true))
    expect(roomy).toBe(false)
    await room
    expect(batches.isPending('2')).toBe(false) // there is room once a batch is stored
    expect(await db.checkpoints.count()).toBeGreaterThanOrEqual(2)
  })
})
