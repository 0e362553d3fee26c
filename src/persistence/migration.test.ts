import 'fake-indexeddb/auto'
import { Dexie } from 'dexie'
import { describe, expect, it } from 'vitest'
import { SuperstepDb } from './db'
import { DexieCheckpointSaver } from './dexieSaver'
import { GraphRepository } from './graphRepository'
import { openProblem } from './openCheck'
import { TaskRunLog } from './taskRunLog'

/**
 * The database as the previous release left it (schema version 3, graph rows without a
 * revision or a bin): opened by this version, everything is still there and editable.
 */
async function previousRelease(name: string, fill?: (old: Dexie) => Promise<void>) {
  const old = new Dexie(name)
  old.version(1).stores({
    checkpoints: '[threadId+checkpointId], [threadId+seq]',
    blobs: '[threadId+checkpointId+channel]',
    writes: '++id, [threadId+checkpointId], &[threadId+checkpointId+taskId+key]',
  })
  old.version(2).stores({ graphs: 'id, updatedAt' })
  old.version(3).stores({
    threads: 'threadId, graph',
    taskRuns: '[threadId+checkpointId+taskId], [threadId+checkpointId]',
  })
  await old.open()
  const doc = { superstep: 1, name: 'kept', state: [], nodes: [], edges: [] }
  await old.table('graphs').put({
    id: 'g1',
    name: 'kept',
    doc,
    trusted: true,
    allowNetwork: false,
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
  })
  await old.table('threads').put({
    threadId: 'g1:main',
    graph: 'g1',
    name: 'main',
    createdAt: '2026-11-01T00:00:00.000Z',
  })
  await fill?.(old)
  old.close()
  return doc
}

describe("the previous release's database", () => {
  it('opens with its graphs and threads; a graph without a revision saves as revision 0', async () => {
    const doc = await previousRelease('migration-1')
    const db = new SuperstepDb('migration-1')
    expect(await openProblem(db)).toBeNull()
    const repo = new GraphRepository(db)
    expect((await repo.list()).map((g) => g.name)).toEqual(['kept'])
    expect(await repo.listBin()).toEqual([])
    expect((await db.threads.toArray()).map((t) => t.threadId)).toEqual(['g1:main'])
    const saved = await repo.saveOver(
      {
        id: 'g1',
        name: 'kept',
        doc: { ...doc, nodes: [{ id: 'a' }] },
        trusted: true,
        allowNetwork: false,
      },
      0,
      '2026-12-03T00:00:00.000Z',
    )
    expect(saved).toMatchObject({
      ok: true,
      row: { rev: 1, createdAt: '2026-11-01T00:00:00.000Z' },
    })
    db.close()
  })

  it('version 4 moves each pending write and task run into its checkpoint’s row, in order', async () => {
    await previousRelease('migration-3', async (old) => {
      const whole = (id: string, seq: number, n: number) => ({
        threadId: 'g1:main',
        checkpointId: id,
        seq,
        ...(seq > 1 && { parentId: 'c1' }),
        ts: `2026-11-01T00:00:0${seq}.000Z`,
        metadata: { source: 'loop', step: seq - 1, parents: {} },
        channel_versions: { n },
        versions_seen: {},
        owner: { n: id },
      })
      await old.table('checkpoints').bulkPut([whole('c1', 1, 1), whole('c2', 2, 2)])
      await old.table('blobs').bulkPut([
        { threadId: 'g1:main', checkpointId: 'c1', channel: 'n', value: 1 },
        { threadId: 'g1:main', checkpointId: 'c2', channel: 'n', value: 2 },
      ])
      const write = (taskId: string, key: string, channel: string, value: unknown) => ({
        threadId: 'g1:main',
        checkpointId: 'c1',
        taskId,
        key,
        channel,
        value,
      })
      // Stored in this order (ids 1, 2, 3): task b's write came between two of task a's.
      await old.table('writes').add(write('a', '0', 'n', 10))
      await old.table('writes').add(write('b', '0', 'n', 20))
      await old.table('writes').add(write('a', '__error__', '__error__', { message: 'x' }))
      // Of a checkpoint that is not stored: unreadable before, dropped now.
      await old.table('writes').add({ ...write('a', '0', 'n', 0), checkpointId: 'gone' })
      await old.table('taskRuns').bulkPut([
        {
          threadId: 'g1:main',
          checkpointId: 'c1',
          taskId: 'a',
          name: 'A',
          durationMs: 1,
          logs: [],
        },
        {
          threadId: 'g1:main',
          checkpointId: 'c1',
          taskId: 'b',
          name: 'B',
          durationMs: 2,
          logs: [],
        },
        {
          threadId: 'g1:main',
          checkpointId: 'gone',
          taskId: 'a',
          name: 'A',
          durationMs: 3,
          logs: [],
        },
      ])
    })
    const db = new SuperstepDb('migration-3')
    expect(await openProblem(db)).toBeNull()
    expect(db.tables.map((t) => t.name).sort()).toEqual([
      'blobs',
      'checkpoints',
      'graphs',
      'threads',
    ])
    const saver = new DexieCheckpointSaver(db)
    const c1 = await saver.getTuple({ threadId: 'g1:main', checkpointId: 'c1' })
    expect(c1?.pendingWrites).toEqual([
      ['a', 'n', 10],
      ['b', 'n', 20],
      ['a', '__error__', { message: 'x' }],
    ])
    expect(c1?.checkpoint.channel_values).toEqual({ n: 1 })
    expect((await saver.getTuple({ threadId: 'g1:main' }))?.checkpoint.id).toBe('c2')
    const runs = new TaskRunLog(db)
    expect((await runs.ofThread('g1:main')).map((r) => [r.checkpointId, r.name])).toEqual([
      ['c1', 'A'],
      ['c1', 'B'],
    ])
    // What is stored from now on goes in the rows too.
    await saver.putWrites({ threadId: 'g1:main', checkpointId: 'c2' }, [['n', 5]], 'c')
    expect((await db.checkpoints.get(['g1:main', 'c2']))?.writes).toEqual([
      { taskId: 'c', key: '0', channel: 'n', value: 5 },
    ])
    db.close()
  })

  it("a newer version's database is refused, said so, and left as it was", async () => {
    const newer = new Dexie('migration-2')
    newer.version(9).stores({ graphs: 'id, updatedAt', somethingNew: 'id' })
    await newer.open()
    await newer.table('graphs').put({ id: 'x', name: 'from the future' })
    newer.close()
    const db = new SuperstepDb('migration-2')
    const problem = await openProblem(db)
    expect(problem?.title).toMatch(/newer version of Superstep/)
    expect(problem?.detail).toMatch(/at version 9; this version of Superstep reads up to version 5/)
    const again = new Dexie('migration-2')
    again.version(9).stores({ graphs: 'id, updatedAt', somethingNew: 'id' })
    expect(await again.table('graphs').get('x')).toMatchObject({ name: 'from the future' })
    again.close()
  })
})
