import 'fake-indexeddb/auto'
import { Dexie } from 'dexie'
import { describe, expect, it } from 'vitest'
import { SuperstepDb } from './db'
import { GraphRepository } from './graphRepository'
import { openProblem } from './openCheck'

/**
 * The database as the previous release left it (schema version 3, graph rows without a
 * revision or a bin): opened by this version, everything is still there and editable.
 */
async function previousRelease(name: string) {
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

  it("a newer version's database is refused, said so, and left as it was", async () => {
    const newer = new Dexie('migration-2')
    newer.version(9).stores({ graphs: 'id, updatedAt', somethingNew: 'id' })
    await newer.open()
    await newer.table('graphs').put({ id: 'x', name: 'from the future' })
    newer.close()
    const db = new SuperstepDb('migration-2')
    const problem = await openProblem(db)
    expect(problem?.title).toMatch(/newer version of Superstep/)
    expect(problem?.detail).toMatch(/at version 9; this version of Superstep reads up to version 3/)
    const again = new Dexie('migration-2')
    again.version(9).stores({ graphs: 'id, updatedAt', somethingNew: 'id' })
    expect(await again.table('graphs').get('x')).toMatchObject({ name: 'from the future' })
    again.close()
  })
})
