import { indexedDB, IDBKeyRange } from 'fake-indexeddb'
import { Dexie } from 'dexie'
import type { DBCoreTable } from 'dexie'
import { describe, expect, it } from 'vitest'
import type { Checkpoint, CheckpointConfig, CheckpointAddress } from '../core/checkpoint/types'
import { collectList, describeSaverContract } from '../core/checkpoint/saverContract'
import { SCHEMA_VERSION, SuperstepDb } from './db'
import { DexieCheckpointSaver } from './dexieSaver'
import { storedWrites } from './saverTestKit'
import { CheckpointStorageError, isQuotaError, toStorageError } from './storageError'

let dbCount = 0
/** A fresh database on fake-indexeddb (a new name per call, so tests never share state). */
function freshDb(): SuperstepDb {
  return new SuperstepDb(`superstep-test-${++dbCount}`, { indexedDB, IDBKeyRange })
}

describeSaverContract('DexieCheckpointSaver', () => new DexieCheckpointSaver(freshDb()))

const ts = (s: number) => `2026-01-01T00:00:${String(s).padStart(2, '0')}Z`
const meta = (step: number) => ({ source: 'loop' as const, step, parents: {} })

function ck(
  id: string,
  values: Record<string, unknown>,
  versions: Record<string, number>,
): Checkpoint {
  return {
    v: 1,
    id,
    ts: `2026-01-01T00:00:${id.padStart(2, '0')}Z`,
    channel_values: values,
    channel_versions: versions,
    versions_seen: {},
  }
}

/** Puts a chain of `n` checkpoints ('1', '2', …) where `n` changes every step. */
async function putChain(
  saver: DexieCheckpointSaver,
  threadId: string,
  n: number,
  from = 1,
): Promise<CheckpointAddress> {
  let config: CheckpointConfig = { threadId }
  for (let i = from; i < from + n; i++) {
    const first = i === from
    config = await saver.put(
      config,
      ck(String(i), first ? { n: i, fixed: 'abc' } : { n: i }, { n: i, fixed: 1 }),
      meta(i),
      first ? { n: i, fixed: 1 } : { n: i },
    )
  }
  if (!config.checkpointId) throw new Error('putChain: n must be at least 1')
  return { threadId, checkpointId: config.checkpointId }
}

/**
 * A DBCore middleware that fails the next mutation of `table` with `error` (once armed) and
 * counts the rows every read of `checkpoints` returns.
 */
function instrument(db: SuperstepDb) {
  const state = { failTable: '', error: undefined as unknown, checkpointRowsRead: 0 }
  db.use({
    stack: 'dbcore',
    name: 'test-instrument',
    create: (down) => ({
      ...down,
      table: (name: string): DBCoreTable => {
        const t = down.table(name)
        const counted = name === 'checkpoints'
        return {
          ...t,
          mutate: (req) => {
            if (state.failTable !== name) return t.mutate(req)
            state.failTable = ''
            return Promise.reject(state.error)
          },
          get: async (req) => {
            const row: unknown = await t.get(req)
            if (counted && row) state.checkpointRowsRead++
            return row
          },
          getMany: async (req) => {
            const rows = await t.getMany(req)
            if (counted) state.checkpointRowsRead += rows.filter(Boolean).length
            return rows
          },
          query: async (req) => {
            const res = await t.query(req)
            if (counted && req.values) state.checkpointRowsRead += res.result.length
            return res
          },
          openCursor: (req) => {
            if (counted) throw new Error('test: checkpoints read through a cursor')
            return t.openCursor(req)
          },
        }
      },
    }),
  })
  return state
}

describe('DexieCheckpointSaver: failed writes', () => {
  it('an uncloneable value (DataCloneError) stores nothing and leaves earlier checkpoints readable', async () => {
    const db = freshDb()
    const saver = new DexieCheckpointSaver(db)
    const last = await putChain(saver, 't', 3)
    const bytes = await saver.storedBytes()
    const bad = ck('4', { n: 4, fn: () => 1 }, { n: 4, fn: 1, fixed: 1 })
    const err = await saver.put(last, bad, meta(4), { n: 4, fn: 1 }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(CheckpointStorageError)
    expect(err).toMatchObject({
      name: 'CheckpointStorageError',
      code: 'WRITE_FAILED',
      threadId: 't',
      checkpointId: '4',
    })
    expect((err as Error).message).toMatch(
      /^Could not store checkpoint 4 on thread t: DataCloneError/,
    )
    expect((err as Error).cause).toMatchObject({ name: 'DataCloneError' })
    expect(await saver.getTuple({ threadId: 't', checkpointId: '4' })).toBeUndefined()
    expect((await saver.getTuple({ threadId: 't' }))?.checkpoint.channel_values).toEqual({
      n: 3,
      fixed: 'abc',
    })
    expect((await collectList(saver, { threadId: 't' })).map((t) => t.config.checkpointId)).toEqual(
      ['3', '2', '1'],
    )
    // The blob `n` of checkpoint 4 came before the bad one in the same transaction: rolled back.
    expect(
      await db.blobs
        .where('[threadId+checkpointId+channel]')
        .between(['t', '4'], ['t', '4', Dexie.maxKey])
        .count(),
    ).toBe(0)
    expect(await saver.storedBytes()).toBe(bytes)
    // And the saver goes on working.
    await saver.put(last, ck('5', { n: 5 }, { n: 5, fixed: 1 }), meta(5), { n: 5 })
    expect((await saver.getTuple({ threadId: 't' }))?.checkpoint.channel_values).toEqual({
      n: 5,
      fixed: 'abc',
    })
  })

  it('a checkpoint row that fails after its blobs were written takes the blobs with it', async () => {
    const db = freshDb()
    const probe = instrument(db)
    const saver = new DexieCheckpointSaver(db)
    const last = await putChain(saver, 't', 2)
    probe.failTable = 'checkpoints'
    probe.error = new Dexie.ConstraintError('simulated')
    const err = await saver
      .put(last, ck('3', { n: 3 }, { n: 3, fixed: 1 }), meta(3), { n: 3 })
      .catch((e: unknown) => e)
    expect(err).toMatchObject({ code: 'WRITE_FAILED' })
    expect(await db.blobs.count()).toBe(3) // fixed, n@1, n@2: nothing of checkpoint 3
    expect((await saver.getTuple({ threadId: 't' }))?.config.checkpointId).toBe('2')
  })

  it('reports an AbortError whose inner error is QuotaExceededError as QUOTA_EXCEEDED', async () => {
    const db = freshDb()
    const probe = instrument(db)
    const saver = new DexieCheckpointSaver(db)
    const last = await putChain(saver, 't', 2)
    // What Chromium's full disk looks like through Dexie (see NOTES.md).
    probe.failTable = 'blobs'
    probe.error = new Dexie.AbortError(
      'Transaction aborted',
      new DOMException('disk full', 'QuotaExceededError'),
    )
    const err = await saver
      .put(last, ck('3', { n: 3 }, { n: 3, fixed: 1 }), meta(3), { n: 3 })
      .catch((e: unknown) => e)
    expect(err).toMatchObject({
      name: 'CheckpointStorageError',
      code: 'QUOTA_EXCEEDED',
      threadId: 't',
      checkpointId: '3',
    })
    expect((err as Error).message).toBe(
      "Could not store checkpoint 3 on thread t: the browser's storage quota is exceeded " +
        '(AbortError: Transaction aborted ← QuotaExceededError: disk full). ' +
        'Nothing of this write was stored; earlier checkpoints are intact.',
    )
    expect((err as Error).cause).toBe(probe.error)
    expect((await saver.getTuple({ threadId: 't' }))?.config.checkpointId).toBe('2')
    expect(await saver.getTuple({ threadId: 't', checkpointId: '3' })).toBeUndefined()
  })

  it('wraps failed pending writes too, storing none of the call', async () => {
    const db = freshDb()
    const probe = instrument(db)
    const saver = new DexieCheckpointSaver(db)
    const cfg = await putChain(saver, 't', 1)
    await saver.putWrites(cfg, [['a', 1]], 'task')
    probe.failTable = 'checkpoints'
    probe.error = new Dexie.QuotaExceededError('full')
    const err = await saver
      .putWrites(
        cfg,
        [
          ['b', 2],
          ['c', 3],
        ],
        'other',
      )
      .catch((e: unknown) => e)
    expect(err).toMatchObject({ code: 'QUOTA_EXCEEDED', threadId: 't', checkpointId: '1' })
    expect((err as Error).message).toMatch(
      /^Could not store pending writes of task other on checkpoint 1 of thread t/,
    )
    expect((await saver.getTuple(cfg))?.pendingWrites).toEqual([['task', 'a', 1]])
    const clone = await saver.putWrites(cfg, [['f', () => 1]], 'task2').catch((e: unknown) => e)
    expect(clone).toMatchObject({ code: 'WRITE_FAILED' })
  })

  it('recognises quota errors however they are wrapped', () => {
    const quota = { name: 'QuotaExceededError', message: 'full' }
    expect(isQuotaError(quota)).toBe(true)
    expect(isQuotaError({ name: 'AbortError', inner: quota })).toBe(true)
    expect(
      isQuotaError({ name: 'BulkError', failures: [{ name: 'ConstraintError' }, quota] }),
    ).toBe(true)
    expect(isQuotaError(new Error('x', { cause: quota }))).toBe(true)
    expect(isQuotaError({ name: 'AbortError', inner: { name: 'UnknownError' } })).toBe(false)
    expect(isQuotaError('QuotaExceededError')).toBe(false)
    const e = toStorageError('boom', 'delete thread t', { threadId: 't' })
    expect(e).toMatchObject({
      code: 'WRITE_FAILED',
      checkpointId: undefined,
      message:
        'Could not delete thread t: boom. Nothing of this write was stored; earlier checkpoints are intact.',
    })
  })
})

describe('DexieCheckpointSaver: storage', () => {
  it('reads a 500-checkpoint thread through its indexes, never the whole history', async () => {
    const db = freshDb()
    const probe = instrument(db)
    const saver = new DexieCheckpointSaver(db)
    await putChain(saver, 't', 500)
    await putChain(saver, 'other', 3)
    probe.checkpointRowsRead = 0
    const latest = await saver.getTuple({ threadId: 't' })
    expect(latest?.config.checkpointId).toBe('500')
    expect(latest?.checkpoint.channel_values).toEqual({ n: 500, fixed: 'abc' })
    expect(probe.checkpointRowsRead).toBe(1)
    probe.checkpointRowsRead = 0
    expect(
      (await saver.getTuple({ threadId: 't', checkpointId: '250' }))?.checkpoint.channel_values.n,
    ).toBe(250)
    expect(probe.checkpointRowsRead).toBe(1)
    probe.checkpointRowsRead = 0
    const page = await collectList(saver, { threadId: 't' }, { before: '101', limit: 10 })
    expect(page.map((t) => t.config.checkpointId)).toEqual([
      '100',
      '99',
      '98',
      '97',
      '96',
      '95',
      '94',
      '93',
      '92',
      '91',
    ])
    expect(probe.checkpointRowsRead).toBe(11) // the `before` row and the page
    const all = await collectList(saver, { threadId: 't' })
    expect(all.map((t) => t.checkpoint.channel_values.n)).toEqual(
      Array.from({ length: 500 }, (_, i) => 500 - i),
    )
  })

  it('assigns put order under concurrent puts of one thread', async () => {
    const saver = new DexieCheckpointSaver(freshDb())
    const root = await putChain(saver, 't', 1)
    const ids = ['a', 'b', 'c', 'd', 'e', 'f']
    await Promise.all(
      ids.map((id, i) =>
        saver.put(root, ck(id, { n: i }, { n: 10 + i, fixed: 1 }), meta(1), { n: 10 + i }),
      ),
    )
    expect((await collectList(saver, { threadId: 't' })).map((t) => t.config.checkpointId)).toEqual(
      [...[...ids].reverse(), '1'],
    )
    expect((await saver.db.checkpoints.toArray()).map((r) => r.seq).sort((a, b) => a - b)).toEqual([
      1, 2, 3, 4, 5, 6, 7,
    ])
  })

  it('lists threads with their newest checkpoint and count, most recent first', async () => {
    const saver = new DexieCheckpointSaver(freshDb())
    expect(await saver.listThreads()).toEqual([])
    await putChain(saver, 'b', 3, 1)
    await putChain(saver, 'a', 2, 10)
    await putChain(saver, 'c', 1, 5)
    await putChain(saver, 'a:sub', 4, 20)
    expect(await saver.listThreads()).toEqual([
      { threadId: 'a:sub', latestCheckpointId: '23', latestTs: ts(23), firstTs: ts(20), count: 4 },
      { threadId: 'a', latestCheckpointId: '11', latestTs: ts(11), firstTs: ts(10), count: 2 },
      { threadId: 'c', latestCheckpointId: '5', latestTs: ts(5), firstTs: ts(5), count: 1 },
      { threadId: 'b', latestCheckpointId: '3', latestTs: ts(3), firstTs: ts(1), count: 3 },
    ])
    // A prefix lists only the threads whose id starts with it.
    expect((await saver.listThreads({ prefix: 'a:' })).map((t) => t.threadId)).toEqual(['a:sub'])
    expect((await saver.listThreads({ prefix: 'a' })).map((t) => t.threadId)).toEqual([
      'a:sub',
      'a',
    ])
    expect(await saver.listThreads({ prefix: 'z' })).toEqual([])
    expect(await saver.threadSummary('a')).toEqual({
      threadId: 'a',
      latestCheckpointId: '11',
      latestTs: ts(11),
      firstTs: ts(10),
      count: 2,
    })
    expect(await saver.threadSummary('nope')).toBeUndefined()
    await saver.deleteThread('a')
    expect((await saver.listThreads()).map((t) => t.threadId)).toEqual(['a:sub', 'c', 'b'])
  })

  it('lists a thread once, however many subgraph namespaces it has; deletes them with it', async () => {
    const saver = new DexieCheckpointSaver(freshDb())
    await putChain(saver, 'a', 2, 10)
    await putChain(saver, 'a:b', 1, 30)
    // Subgraph checkpoints of `a`, in two namespaces, written after `a:b`'s.
    for (const ns of ['team:1', 'team:2|inner:3']) {
      let cfg: CheckpointConfig = { threadId: 'a', checkpointNs: ns }
      for (let i = 40; i < 43; i++)
        cfg = await saver.put(cfg, ck(`${ns}-${i}`, { n: i }, { n: i }), meta(i), { n: i })
    }
    expect(
      (await saver.listThreads()).map((t) => [t.threadId, t.count, t.latestCheckpointId]),
    ).toEqual([
      ['a:b', 1, '30'],
      ['a', 2, '11'],
    ])
    expect((await saver.listThreads({ prefix: 'a' })).map((t) => t.threadId)).toEqual(['a:b', 'a'])
    await saver.deleteThread('a')
    expect(await saver.getTuple({ threadId: 'a', checkpointNs: 'team:1' })).toBeUndefined()
    expect(new Set((await saver.db.checkpoints.toArray()).map((r) => r.threadId))).toEqual(
      new Set(['a:b']),
    )
    expect(new Set((await saver.db.blobs.toArray()).map((r) => r.threadId))).toEqual(
      new Set(['a:b']),
    )
  })

  it('counts stored bytes once per channel version, per thread or in all', async () => {
    const saver = new DexieCheckpointSaver(freshDb())
    const big = 'x'.repeat(1000)
    let cfg = await saver.put(
      { threadId: 't' },
      ck('1', { big, n: 1 }, { big: 1, n: 1 }),
      meta(1),
      { big: 1, n: 1 },
    )
    for (let i = 2; i <= 10; i++)
      cfg = await saver.put(cfg, ck(String(i), { n: i }, { big: 1, n: i }), meta(i), { n: i })
    const expected = JSON.stringify(big).length + 9 * 1 + 2 // n = 1..9 one char, 10 two
    expect(await saver.storedBytes('t')).toBe(expected)
    await saver.put(
      { threadId: 'u' },
      ck('1', { s: 'ab', e: undefined }, { s: 1, gone: 1 }),
      meta(1),
      { s: 1, gone: 1 },
    )
    expect(await saver.storedBytes('u')).toBe(4)
    expect(await saver.storedBytes()).toBe(expected + 4)
    expect(await saver.storedBytes('none')).toBe(0)
  })

  it('deleteThread removes its checkpoints, with their writes, and their values', async () => {
    const saver = new DexieCheckpointSaver(freshDb())
    const cfg = await putChain(saver, 't', 3)
    await saver.putWrites(cfg, [['x', 1]], 'task')
    const kept = await putChain(saver, 'u', 2)
    await saver.putWrites(kept, [['y', 2]], 'task')
    await saver.deleteThread('t')
    const { checkpoints, blobs } = saver.db
    expect((await checkpoints.toArray()).map((r) => r.threadId)).toEqual(['u', 'u'])
    expect(new Set((await blobs.toArray()).map((r) => r.threadId))).toEqual(new Set(['u']))
    expect((await storedWrites(saver.db)).map((r) => r.threadId)).toEqual(['u'])
  })

  it('survives reopening the database', async () => {
    const name = `superstep-reopen-${++dbCount}`
    const first = new SuperstepDb(name, { indexedDB, IDBKeyRange })
    const cfg = await putChain(new DexieCheckpointSaver(first), 't', 3)
    await new DexieCheckpointSaver(first).putWrites(
      cfg,
      [['__interrupt__', [{ id: 'i', value: 'ask' }]]],
      'task',
    )
    first.close()
    const again = new SuperstepDb(name, { indexedDB, IDBKeyRange })
    expect(again.isOpen()).toBe(false)
    const saver = new DexieCheckpointSaver(again)
    const t = await saver.getTuple({ threadId: 't' })
    expect(again.verno).toBe(SCHEMA_VERSION)
    expect(again.tables.map((x) => x.name).sort()).toEqual([
      'blobs',
      'checkpoints',
      'graphs',
      'threads',
    ])
    expect(t?.checkpoint.channel_values).toEqual({ n: 3, fixed: 'abc' })
    expect(t?.pendingWrites).toEqual([['task', '__interrupt__', [{ id: 'i', value: 'ask' }]]])
    again.close()
  })
})
