import { describe, expect, it } from 'vitest'
import type { Checkpoint, CheckpointTuple } from '../core/checkpoint/types'
import { DamagedCheckpointError } from './damage'
import type { CheckpointRow } from './db'
import { DexieCheckpointSaver } from './dexieSaver'
import { DELTA_DEPTH, MAX_DELTA_DEPTH } from './rowStates'
import { freshDb, meta } from './saverTestKit'
import { TimelineSource } from './timelineSource'

const THREAD = 't'
const id = (k: number) => `c${String(k).padStart(3, '0')}`

/**
 * Step k of a chain: node k writes `x` and its own channel `ch<k>`, having seen `x` at k - 1;
 * `pad` channels more, written at step 0 and never again (a big graph's state).
 * What a loop would hand an incremental saver: the whole maps, what changed, the step's values.
 */
function step(k: number, pad = 0) {
  const versions: Record<string, number> = { x: k + 1 }
  for (let i = 0; i < pad; i++) versions[`pad${i}`] = 1
  const seen: Record<string, Record<string, number>> = {}
  for (let i = 0; i <= k; i++) {
    versions[`ch${i}`] = i + 1
    seen[`node${i}`] = { x: i }
  }
  const checkpoint: Checkpoint = {
    v: 1,
    id: id(k),
    ts: `2026-01-01T00:00:00.${String(k).padStart(3, '0')}Z`,
    channel_values: {
      x: k,
      [`ch${k}`]: `v${k}`,
      ...(k === 0 && Object.fromEntries(Array.from({ length: pad }, (_, i) => [`pad${i}`, i]))),
    },
    channel_versions: versions,
    versions_seen: seen,
  }
  return {
    checkpoint,
    newVersions: { x: k + 1, [`ch${k}`]: k + 1 },
    changedSeen: new Set([`node${k}`]),
  }
}

/** What checkpoint k reads back as: every channel's value, as stored by its step. */
function expected(k: number, pad = 0) {
  const { checkpoint } = step(k, pad)
  const values: Record<string, unknown> = { x: k }
  for (let i = 0; i < pad; i++) values[`pad${i}`] = i
  for (let i = 0; i <= k; i++) values[`ch${i}`] = `v${i}`
  return { ...checkpoint, channel_values: values }
}

async function putChain(saver: DexieCheckpointSaver, n: number, batched = false, pad = 0) {
  const view = batched ? saver.batched() : saver
  if (!view) throw new Error('no batched view')
  for (let k = 0; k < n; k++) {
    const s = step(k, pad)
    const config = k === 0 ? { threadId: THREAD } : { threadId: THREAD, checkpointId: id(k - 1) }
    const target = k === 0 ? saver : view // a run's first checkpoint is put at once
    await target.put(
      config,
      s.checkpoint,
      meta(k),
      k === 0 ? s.checkpoint.channel_versions : s.newVersions,
      s.changedSeen,
    )
  }
  if (batched) await saver.settleBatches()
}

async function rows(saver: DexieCheckpointSaver): Promise<CheckpointRow[]> {
  return saver.db.checkpoints
    .where('[threadId+seq]')
    .between([THREAD, 0], [THREAD, Infinity])
    .toArray()
}

const stateOf = (t: CheckpointTuple | undefined) => t?.checkpoint

describe('checkpoint rows as deltas', () => {
  it.each([
    ['one put at a time', false],
    ['batched', true],
  ])(
    '%s: a step stores what it changed, a whole row every DELTA_DEPTH, every checkpoint reads back whole',
    async (_, batched) => {
      const saver = new DexieCheckpointSaver(freshDb('deltas'), { batchMs: 5 })
      const n = 2 * DELTA_DEPTH + 6
      await putChain(saver, n, batched)
      const stored = await rows(saver)
      expect(stored).toHaveLength(n)
      // seq 1 whole, then 31 deltas, a whole row, 31 deltas, …
      const depths = stored.map((r) => (r.delta ? r.delta.depth : 0))
      expect(depths.slice(0, DELTA_DEPTH + 1)).toEqual([
        ...Array.from({ length: DELTA_DEPTH }, (_, i) => i),
        0,
      ])
      expect(Math.max(...depths)).toBe(DELTA_DEPTH - 1)
      // A delta row holds the step's two channels and one node, not the graph so far.
      const late = stored[n - 2] as CheckpointRow
      expect(late.delta).toEqual({
        versions: { x: n - 1, [`ch${n - 2}`]: n - 1 },
        seen: { [`node${n - 2}`]: { x: n - 2 } },
        depth: depths[n - 2],
      })
      expect(late.owner).toBeUndefined()
      // Every checkpoint, by id and in a list (pages of 50 reach back past their page).
      for (const k of [0, 1, DELTA_DEPTH - 1, DELTA_DEPTH, n - 1])
        expect(stateOf(await saver.getTuple({ threadId: THREAD, checkpointId: id(k) }))).toEqual(
          expected(k),
        )
      // A fresh saver (no cache) reads the same.
      const cold = new DexieCheckpointSaver(saver.db)
      const listed: CheckpointTuple[] = []
      for await (const t of cold.list({ threadId: THREAD })) listed.push(t)
      expect(listed.map(stateOf)).toEqual(Array.from({ length: n }, (_, i) => expected(n - 1 - i)))
      expect(listed[0]?.parentConfig?.checkpointId).toBe(id(n - 2))
      // The tuple's maps are the reader's own: mutating them changes no later read.
      const t = await cold.getTuple({ threadId: THREAD })
      ;(t?.checkpoint.channel_versions as Record<string, number>).x = -1
      expect((await cold.getTuple({ threadId: THREAD }))?.checkpoint.channel_versions.x).toBe(n)
    },
  )

  it.each([
    ['one put at a time', false],
    ['batched', true],
  ])(
    '%s: past DELTA_DEPTH, deltas go on while they hold fewer entries than their whole row, up to MAX_DELTA_DEPTH',
    async (_, batched) => {
      const saver = new DexieCheckpointSaver(freshDb(`deltas-big-${batched}`), { batchMs: 5 })
      // A whole row of 300 channels and more: 3 entries a step fit 101 deltas (303 entries).
      const wide = 300
      await putChain(saver, 110, batched, wide)
      const depths = (await rows(saver)).map((r) => r.delta?.depth ?? 0)
      expect(depths.slice(0, 103)).toEqual([...Array.from({ length: 102 }, (_, i) => i), 0])
      const cold = new DexieCheckpointSaver(saver.db)
      for (const k of [0, 50, 101, 102, 109])
        expect(stateOf(await cold.getTuple({ threadId: THREAD, checkpointId: id(k) }))).toEqual(
          expected(k, wide),
        )
      // A saver that did not put the chain does not know what it carries: past DELTA_DEPTH,
      // its put on it is whole.
      const short = new DexieCheckpointSaver(freshDb(`deltas-cold-${batched}`), { batchMs: 5 })
      await putChain(short, 40, batched, wide)
      const s = step(40, wide)
      const cold40 = new DexieCheckpointSaver(short.db, { batchMs: 5 })
      const to = { threadId: THREAD, checkpointId: id(39) }
      await (batched ? cold40.batched() : cold40)?.put(
        to,
        s.checkpoint,
        meta(40),
        s.newVersions,
        s.changedSeen,
      )
      await cold40.settleBatches()
      expect((await rows(short)).map((r) => r.delta?.depth ?? 0).slice(38)).toEqual([38, 39, 0])
      expect(stateOf(await cold40.getTuple({ threadId: THREAD }))).toEqual(expected(40, wide))
      // A graph of 800 channels (and 3 entries a step): deltas up to MAX_DELTA_DEPTH, then a whole row.
      const huge = new DexieCheckpointSaver(freshDb(`deltas-huge-${batched}`), { batchMs: 5 })
      const n = MAX_DELTA_DEPTH + 3
      await putChain(huge, n, batched, 800)
      const deep = (await rows(huge)).map((r) => r.delta?.depth ?? 0)
      expect(deep.slice(MAX_DELTA_DEPTH - 2)).toEqual([
        MAX_DELTA_DEPTH - 2,
        MAX_DELTA_DEPTH - 1,
        0,
        1,
        2,
      ])
      const listed: CheckpointTuple[] = []
      for await (const t of new DexieCheckpointSaver(huge.db).list({ threadId: THREAD }))
        listed.push(t)
      expect(listed.map(stateOf)).toEqual(
        Array.from({ length: n }, (_, i) => expected(n - 1 - i, 800)),
      )
    },
  )

  it('the timeline reads a page of deltas with the channels it asks for', async () => {
    const saver = new DexieCheckpointSaver(freshDb('deltas-timeline'))
    await putChain(saver, 40)
    const read = await new TimelineSource(saver.db).read(THREAD, {
      limit: 5,
      channels: new Set(['x', 'ch0']),
    })
    expect(read.page.map((p) => p.row.checkpointId)).toEqual([39, 38, 37, 36, 35].map(id))
    const t = read.byId.get(id(37))
    expect(t?.checkpoint.channel_values).toEqual({ x: 37, ch0: 'v0' })
    expect(t?.checkpoint.channel_versions).toEqual(expected(37).channel_versions)
    expect(t?.checkpoint.versions_seen).toEqual(expected(37).versions_seen)
  })

  it('reads a database the previous build wrote (whole rows), and continues it with deltas', async () => {
    const db = freshDb('deltas-old')
    // The rows the previous build's put wrote: whole maps, owner by channel, no delta.
    for (let k = 0; k < 5; k++) {
      const s = step(k)
      const owner: Record<string, string> = {}
      for (let i = 0; i <= k; i++) owner[`ch${i}`] = id(i)
      owner.x = id(k)
      await db.checkpoints.put({
        threadId: THREAD,
        checkpointId: id(k),
        seq: k + 1,
        ...(k > 0 && { parentId: id(k - 1) }),
        ts: s.checkpoint.ts,
        channel_versions: s.checkpoint.channel_versions,
        versions_seen: s.checkpoint.versions_seen,
        metadata: meta(k),
        owner,
      } as CheckpointRow)
      const changed = k === 0 ? s.checkpoint.channel_versions : s.newVersions
      await db.blobs.bulkPut(
        Object.keys(changed).map((channel) => ({
          threadId: THREAD,
          checkpointId: id(k),
          channel,
          value: s.checkpoint.channel_values[channel],
        })),
      )
    }
    const saver = new DexieCheckpointSaver(db)
    for (let k = 0; k < 5; k++)
      expect(stateOf(await saver.getTuple({ threadId: THREAD, checkpointId: id(k) }))).toEqual(
        expected(k),
      )
    for (let k = 5; k < 8; k++) {
      const s = step(k)
      await saver.put(
        { threadId: THREAD, checkpointId: id(k - 1) },
        s.checkpoint,
        meta(k),
        s.newVersions,
        s.changedSeen,
      )
    }
    expect((await rows(saver)).map((r) => r.delta?.depth ?? 0)).toEqual([0, 0, 0, 0, 0, 1, 2, 3])
    const cold = new DexieCheckpointSaver(db)
    for (let k = 0; k < 8; k++)
      expect(stateOf(await cold.getTuple({ threadId: THREAD, checkpointId: id(k) }))).toEqual(
        expected(k),
      )
  })

  it('a damaged delta names itself; the checkpoints stored on it name it; metadata damage spares them', async () => {
    const db = freshDb('deltas-damage')
    await putChain(new DexieCheckpointSaver(db), 10)
    await db.checkpoints.update([THREAD, id(5)], { metadata: null as never })
    const saver = new DexieCheckpointSaver(db)
    await expect(saver.getTuple({ threadId: THREAD, checkpointId: id(5) })).rejects.toMatchObject({
      checkpointId: id(5),
      field: 'metadata',
    })
    // Its versions are readable: the checkpoints after it are too.
    expect(stateOf(await saver.getTuple({ threadId: THREAD, checkpointId: id(6) }))).toEqual(
      expected(6),
    )

    await db.checkpoints.update([THREAD, id(5)], { metadata: meta(5), delta: null as never })
    const fresh = new DexieCheckpointSaver(db)
    const five = fresh.getTuple({ threadId: THREAD, checkpointId: id(5) })
    await expect(five).rejects.toBeInstanceOf(DamagedCheckpointError)
    await expect(five).rejects.toMatchObject({ checkpointId: id(5), field: 'delta' })
    await expect(fresh.getTuple({ threadId: THREAD, checkpointId: id(7) })).rejects.toMatchObject({
      checkpointId: id(7),
      field: 'parentId',
      message: expect.stringContaining(
        `its versions are stored as changes on checkpoint ${id(6)}, which is damaged`,
      ),
    })
    await expect(fresh.getTuple({ threadId: THREAD, checkpointId: id(6) })).rejects.toThrow(
      `its versions are stored as changes on checkpoint ${id(5)}, which is damaged`,
    )
    // A history holds the readable ones.
    const listed: string[] = []
    for await (const t of fresh.list({ threadId: THREAD })) listed.push(t.checkpoint.id)
    expect(listed).toEqual([4, 3, 2, 1, 0].map(id))

    await db.checkpoints.delete([THREAD, id(2)])
    await expect(
      new DexieCheckpointSaver(db).getTuple({ threadId: THREAD, checkpointId: id(3) }),
    ).rejects.toThrow(`its versions are stored as changes on checkpoint ${id(2)}, which is missing`)
  })
})

describe('getTupleAndParent', () => {
  it('reads a checkpoint and its parent as two getTuples would, in one read', async () => {
    const db = freshDb('tuple-and-parent')
    await putChain(new DexieCheckpointSaver(db), 40)
    const saver = new DexieCheckpointSaver(db)
    for (const k of [39, 33, 32, 1]) {
      const config = { threadId: THREAD, checkpointId: id(k) }
      const both = await saver.getTupleAndParent(config)
      expect(both?.tuple).toEqual(await saver.getTuple(config))
      expect(both?.parent).toEqual(
        await saver.getTuple({ threadId: THREAD, checkpointId: id(k - 1) }),
      )
      // Values the two share are the reader's own in each.
      expect(both?.tuple.checkpoint.channel_values.ch0).toBe('v0')
      if (both?.parent) both.parent.checkpoint.channel_values.ch0 = 'changed'
      expect(both?.tuple.checkpoint.channel_values.ch0).toBe('v0')
    }
    expect((await saver.getTupleAndParent({ threadId: THREAD }))?.tuple.checkpoint.id).toBe(id(39))
    expect((await saver.getTupleAndParent({ threadId: THREAD, checkpointId: id(0) }))?.parent).toBe(
      undefined,
    )
    expect(await saver.getTupleAndParent({ threadId: THREAD, checkpointId: 'none' })).toBe(
      undefined,
    )
    // A damaged parent reads as none; a damaged checkpoint throws, as getTuple does.
    await db.checkpoints.update([THREAD, id(20)], { metadata: null as never })
    const fresh = new DexieCheckpointSaver(db)
    const next = await fresh.getTupleAndParent({ threadId: THREAD, checkpointId: id(21) })
    expect([next?.tuple.checkpoint.id, next?.parent]).toEqual([id(21), undefined])
    await expect(
      fresh.getTupleAndParent({ threadId: THREAD, checkpointId: id(20) }),
    ).rejects.toBeInstanceOf(DamagedCheckpointError)
  })
})
