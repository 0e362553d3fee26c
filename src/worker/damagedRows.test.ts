import { afterEach, describe, expect, it } from 'vitest'
import type { SuperstepDb } from '../persistence/db'
import type { DexieCheckpointSaver } from '../persistence/dexieSaver'
import { storedWrites } from '../persistence/saverTestKit'
import { closeAll, setup } from './serviceHarness'

afterEach(closeAll)

const THREAD = 'g:main'

/** A finished run of the chain graph: input, __start__, a, b (oldest first). */
async function ranChain() {
  const t = await setup()
  const graphId = await t.compile()
  await t.client.request('run', { graphId, threadId: THREAD, input: { x: 'in' }, mode: 'toEnd' })
  const timeline = await t.client.request('getTimeline', { graphId, threadId: THREAD })
  const ids = timeline.map((e) => e.checkpointId).reverse()
  expect(ids).toHaveLength(4)
  const db = (t.storage().saver as DexieCheckpointSaver).db
  return { t, graphId, ids, db }
}

type Damage = (db: SuperstepDb, checkpointId: string) => Promise<unknown>

/** Removes the value of `channel` that checkpoint `id` stored: a value row or held by its row. */
async function dropValue(db: SuperstepDb, id: string, channel: string) {
  const blob = await db.blobs.get([THREAD, id, channel])
  const row = await db.checkpoints.get([THREAD, id])
  const values = { ...row?.values }
  // The damage must be real: the value was stored, in one place or the other.
  expect(blob !== undefined || channel in values).toBe(true)
  delete values[channel]
  await db.blobs.delete([THREAD, id, channel])
  await db.checkpoints.update([THREAD, id], { values })
}

/**
 * The ways a checkpoint's own rows break: its state can no longer be read. The field named,
 * or null where the timeline does not see it (a value it does not read: inspection does).
 */
const ROW_DAMAGE: [string, string | null, Damage][] = [
  [
    'null metadata',
    'metadata',
    (db, id) => db.checkpoints.update([THREAD, id], { metadata: null as never }),
  ],
  [
    'null owner',
    'owner',
    (db, id) => db.checkpoints.update([THREAD, id], { owner: null as never }),
  ],
  [
    'a bare row',
    'ts',
    async (db, id) => {
      const row = await db.checkpoints.get([THREAD, id])
      await db.checkpoints.put({ threadId: THREAD, checkpointId: id, seq: row?.seq } as never)
    },
  ],
  [
    'null versions_seen',
    'versions_seen',
    (db, id) => db.checkpoints.update([THREAD, id], { versions_seen: null as never }),
  ],
  [
    'held values that are not values',
    'values',
    (db, id) => db.checkpoints.update([THREAD, id], { values: 'x' as never }),
  ],
  ['a missing state value', null, (db, id) => dropValue(db, id, 'x')],
  [
    'a missing value the timeline reads',
    'owner.branch:to:b',
    (db, id) => dropValue(db, id, 'branch:to:b'),
  ],
]

describe('a damaged checkpoint row', () => {
  it.each(ROW_DAMAGE)(
    '%s is listed as damaged, never read, and cut by repair',
    async (what, field, damage) => {
      const { t, graphId, ids, db } = await ranChain()
      const [, start, a, b] = ids as [string, string, string, string]
      await damage(db, a)

      // The timeline lists every checkpoint; the damaged one says which field and why.
      const timeline = await t.client.request('getTimeline', { graphId, threadId: THREAD })
      expect(timeline.map((e) => e.checkpointId)).toEqual([...ids].reverse())
      const entry = timeline.find((e) => e.checkpointId === a)
      if (field === null) expect(timeline.filter((e) => e.damaged)).toHaveLength(0)
      else {
        expect(entry?.damaged).toMatchObject({
          threadId: THREAD,
          checkpointId: a,
          table: 'checkpoints',
          field,
        })
        expect(timeline.filter((e) => e.damaged)).toHaveLength(1)
        // The checkpoint after it is readable; the step that made it is not known.
        expect(timeline.find((e) => e.checkpointId === b)).toMatchObject({ step: 2, ran: [] })
      }

      // A history (and an export) holds the readable checkpoints.
      const history = await t.client.request('getHistory', { graphId, threadId: THREAD })
      expect(history.map((h) => h.config.checkpointId)).toEqual([b, start, ids[0]])
      const file = await t.client.request('exportThread', { threadId: THREAD })
      expect(file.checkpoints.map((c) => c.config.checkpointId)).toEqual([ids[0], start, b])

      // Reading, running and forking from it fail with a message naming thread and checkpoint.
      const inspected = t.client.request('inspectCheckpoint', {
        graphId,
        threadId: THREAD,
        checkpointId: a,
      })
      await expect(inspected).rejects.toMatchObject({ code: 'DAMAGED_CHECKPOINT' })
      await expect(inspected).rejects.toThrow(
        new RegExp(`checkpoint ${a} on thread ${THREAD} is damaged.*Repair thread`),
      )
      await expect(
        t.client.request('inspectCheckpoint', { graphId, threadId: THREAD, checkpointId: b }),
      ).resolves.toMatchObject({ checkpointId: b, ran: [] })
      const replay = await t.client.request('run', {
        graphId,
        threadId: THREAD,
        input: null,
        checkpointId: a,
        mode: 'toEnd',
      })
      expect(replay).toMatchObject({ status: 'failed', error: { code: 'DAMAGED_CHECKPOINT' } })
      const fork = t.client.request('updateState', {
        graphId,
        threadId: THREAD,
        checkpointId: a,
        values: { x: 'f' },
      })
      await expect(fork).rejects.toMatchObject({ code: 'DAMAGED_CHECKPOINT' })
      await expect(fork).rejects.toThrow(a)

      // Repair cuts it and what came after it; the thread continues from what is left.
      const repaired = await t.client.request('repairThread', { threadId: THREAD })
      // Removed with it: the run from it (a bare row has lost its runs with the rest of it).
      expect(repaired).toMatchObject({
        removed: [a, b],
        kept: 2,
        taskRunsRemoved: what === 'a bare row' ? 0 : 1,
      })
      const after = await t.client.request('getTimeline', { graphId, threadId: THREAD })
      expect(after.map((e) => e.checkpointId)).toEqual([start, ids[0]])
      expect(after.some((e) => e.damaged)).toBe(false)
      expect(
        await db.blobs
          .where('[threadId+checkpointId+channel]')
          .between([THREAD, a, ''], [THREAD, a, '\uffff'])
          .count(),
      ).toBe(0)
      expect(
        (await storedWrites(db, THREAD)).filter(
          (w) => w.checkpointId === a || w.checkpointId === b,
        ),
      ).toEqual([])
      const more = await t.client.request('run', {
        graphId,
        threadId: THREAD,
        input: null,
        mode: 'toEnd',
      })
      expect(more).toMatchObject({ status: 'done' })
      const state = await t.client.request('getState', { graphId, threadId: THREAD })
      expect(state?.values).toMatchObject({ x: 'b', log: ['a', 'b'] })
    },
  )

  it('refuses to repair a thread whose first checkpoint is damaged, and removes nothing', async () => {
    const { t, ids, db } = await ranChain()
    await db.checkpoints.update([THREAD, ids[0] as string], { metadata: null as never })
    const repair = t.client.request('repairThread', { threadId: THREAD })
    await expect(repair).rejects.toMatchObject({ code: 'DAMAGED_ROOT' })
    await expect(repair).rejects.toThrow(
      new RegExp(`first checkpoint ${ids[0]} of thread ${THREAD}.*Nothing was removed`),
    )
    expect(await db.checkpoints.count()).toBe(4)
  })

  it('the latest checkpoint damaged: threads list, a run says what to do', async () => {
    const { t, graphId, ids, db } = await ranChain()
    const latest = ids[3] as string
    await db.checkpoints.put({ threadId: THREAD, checkpointId: latest, seq: 4 } as never)
    const threads = await t.client.request('listThreads', { graph: 'g' })
    expect(threads).toMatchObject([{ threadId: THREAD, count: 4, latestCheckpointId: latest }])
    const run = await t.client.request('run', {
      graphId,
      threadId: THREAD,
      input: { x: 'again' },
      mode: 'toEnd',
    })
    expect(run).toMatchObject({ status: 'failed', error: { code: 'DAMAGED_CHECKPOINT' } })
    expect(await t.client.request('repairThread', { threadId: THREAD })).toMatchObject({
      removed: [latest],
      kept: 3,
    })
    const again = await t.client.request('run', {
      graphId,
      threadId: THREAD,
      input: { x: 'again' },
      mode: 'toEnd',
    })
    expect(again).toMatchObject({ status: 'done' })
  })

  it('a checkpoint whose parent is missing is cut with everything after it', async () => {
    const { t, ids, db } = await ranChain()
    await db.checkpoints.delete([THREAD, ids[1] as string])
    const out = await t.client.request('repairThread', { threadId: THREAD })
    expect(out).toMatchObject({ removed: [ids[2], ids[3]], kept: 1 })
  })
})

describe('damaged write, task run and thread rows', () => {
  it('a damaged pending write is left out of reads, blocks running from its checkpoint, and is removed', async () => {
    const { t, graphId, ids, db } = await ranChain()
    const [, , a, b] = ids as [string, string, string, string]
    // The writes of the task that ran from `a` (node b).
    const row = await db.checkpoints.get([THREAD, a])
    expect(row?.writes?.length).toBeGreaterThan(0)
    await db.checkpoints.put({
      ...row,
      writes: row?.writes?.map((w, i) => (i ? w : { ...w, channel: null })),
    } as never)
    const timeline = await t.client.request('getTimeline', { graphId, threadId: THREAD })
    expect(timeline).toHaveLength(4)
    expect(timeline.find((e) => e.checkpointId === a)?.damaged).toMatchObject({
      table: 'writes',
      field: 'channel',
    })
    expect(timeline.find((e) => e.checkpointId === a)?.damaged?.reason).toMatch(
      /pending write \d+ of task .*: channel is null/,
    )
    const history = await t.client.request('getHistory', { graphId, threadId: THREAD })
    expect(history).toHaveLength(4)
    const replay = await t.client.request('run', {
      graphId,
      threadId: THREAD,
      input: null,
      checkpointId: a,
      mode: 'toEnd',
    })
    expect(replay).toMatchObject({ status: 'failed', error: { code: 'DAMAGED_CHECKPOINT' } })
    const out = await t.client.request('repairThread', { threadId: THREAD })
    expect(out).toEqual({
      removed: [],
      kept: 4,
      writesRemoved: 1,
      taskRunsRemoved: 0,
      threadRowRepaired: false,
    })
    const again = await t.client.request('getTimeline', { graphId, threadId: THREAD })
    expect(again.some((e) => e.damaged)).toBe(false)
    // The task whose write went runs again from there.
    const rerun = await t.client.request('run', {
      graphId,
      threadId: THREAD,
      input: null,
      checkpointId: a,
      mode: 'toEnd',
    })
    expect(rerun).toMatchObject({ status: 'done' })
    expect(await t.client.request('getState', { graphId, threadId: THREAD })).toMatchObject({
      values: { x: 'b' },
    })
    expect(b).toBeDefined()
  })

  it('a damaged task run is left out of the timeline, inspection and export, and is removed', async () => {
    const { t, graphId, ids, db } = await ranChain()
    const [, start, a] = ids as [string, string, string]
    const row = await db.checkpoints.get([THREAD, start])
    expect(row?.runs).toHaveLength(1)
    await db.checkpoints.put({
      ...row,
      runs: row?.runs?.map((r) => ({ ...r, logs: null })),
    } as never)
    const timeline = await t.client.request('getTimeline', { graphId, threadId: THREAD })
    expect(timeline.find((e) => e.checkpointId === start)?.damaged).toMatchObject({
      table: 'taskRuns',
      field: 'logs',
    })
    // The step still shows the task (from its writes), without the unreadable record.
    expect(timeline.find((e) => e.checkpointId === a)?.ran).toEqual([{ name: 'a' }])
    const inspection = await t.client.request('inspectCheckpoint', {
      graphId,
      threadId: THREAD,
      checkpointId: a,
    })
    expect(inspection?.ran.map((r) => [r.name, r.logs])).toEqual([['a', undefined]])
    const file = await t.client.request('exportThread', { threadId: THREAD })
    expect(file.taskRuns).toHaveLength(2)
    expect(await t.client.request('repairThread', { threadId: THREAD })).toMatchObject({
      removed: [],
      taskRunsRemoved: 1,
    })
  })

  it('a damaged thread row is listed as if it had none, and rewritten by repair', async () => {
    const { t, db } = await ranChain()
    await db.threads.put({ threadId: THREAD, graph: 'g', name: null, createdAt: 'then' } as never)
    const [info] = await t.client.request('listThreads', { graph: 'g' })
    expect(info).toMatchObject({
      threadId: THREAD,
      name: 'main',
      count: 4,
      damaged: { field: 'name' },
    })
    await db.threads.put({
      threadId: THREAD,
      graph: null,
      name: 'mine',
      createdAt: 'then',
    } as never)
    // Not in the graph's index: still the graph's thread (its id says so).
    expect(await t.client.request('listThreads', { graph: 'g' })).toMatchObject([
      { threadId: THREAD, damaged: { field: 'graph' } },
    ])
    expect(await t.client.request('repairThread', { threadId: THREAD })).toMatchObject({
      removed: [],
      threadRowRepaired: true,
    })
    expect(await db.threads.get(THREAD)).toEqual({
      threadId: THREAD,
      graph: 'g',
      name: 'mine',
      createdAt: 'then',
    })
    const [fixed] = await t.client.request('listThreads', { graph: 'g' })
    expect(fixed).toMatchObject({ name: 'mine' })
    expect(fixed?.damaged).toBeUndefined()
  })
})
