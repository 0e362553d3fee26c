import { indexedDB, IDBKeyRange } from 'fake-indexeddb'
import { Dexie } from 'dexie'
import { describe, expect, it } from 'vitest'
import type { Checkpoint, CheckpointConfig } from '../core/checkpoint/types'
import { collectList } from '../core/checkpoint/saverContract'
import { INLINE_STRING_MAX } from './checkpointRows'
import { SuperstepDb, type BlobRow } from './db'
import { DexieCheckpointSaver } from './dexieSaver'
import { resolveStates, StateCache } from './rowStates'
import { TimelineSource } from './timelineSource'

let dbCount = 0
const freshDb = () => new SuperstepDb(`values-test-${++dbCount}`, { indexedDB, IDBKeyRange })

const LONG = 'x'.repeat(INLINE_STRING_MAX + 1)
const SHORT = 'y'.repeat(INLINE_STRING_MAX)

/** Checkpoint `id` with `values`, every channel in `versions` (an empty one has no value). */
function ck(id: number, values: Record<string, unknown>, versions: Record<string, number>) {
  return {
    v: 1,
    id: String(id).padStart(3, '0'),
    ts: new Date(Date.UTC(2026, 0, 1, 0, 0, id)).toISOString(),
    channel_values: values,
    channel_versions: versions,
    versions_seen: { node: { n: id } },
  } satisfies Checkpoint
}

/**
 * A thread of `steps` checkpoints as a run stores them (whole first, then deltas on their
 * parent): step 1 sets every channel (`none` to no value), step 2 sets the small `flag` and
 * the big `doc` and empties `gone`, every later step only the counter `n`.
 */
async function runLike(saver: DexieCheckpointSaver, steps: number) {
  const values: Record<string, unknown> = {}
  const versions: Record<string, number> = {}
  let config: CheckpointConfig = { threadId: 't' }
  for (let i = 1; i <= steps; i++) {
    const changed: Record<string, unknown> =
      i === 1
        ? { n: 1, text: SHORT, flag: false, doc: { a: 1 }, none: undefined, gone: 0 }
        : i === 2
          ? { n: 2, flag: true, doc: { a: 2 }, long: LONG, gone: undefined }
          : { n: i }
    const newVersions: Record<string, number> = {}
    for (const [ch, v] of Object.entries(changed)) {
      newVersions[ch] = i
      // A version without a value: an empty channel.
      if (v === undefined) delete values[ch]
      else values[ch] = v
    }
    Object.assign(versions, newVersions)
    const seen = i === 1 ? undefined : new Set(['node'])
    config = await saver.put(
      config,
      ck(i, { ...values }, { ...versions }),
      {
        source: 'loop',
        step: i,
        parents: {},
      },
      newVersions,
      seen,
    )
  }
  return { values, ids: Array.from({ length: steps }, (_, i) => String(i + 1).padStart(3, '0')) }
}

const blobsOf = async (db: SuperstepDb, id: string) =>
  (
    await db.blobs
      .where('[threadId+checkpointId+channel]')
      .between(['t', id, Dexie.minKey], ['t', id, Dexie.maxKey])
      .toArray()
  ).map((b) => b.channel)

describe('values held by delta rows (storage version 5)', () => {
  it('a delta row holds its small values and empty marks; big values and whole rows use value rows', async () => {
    const db = freshDb()
    const saver = new DexieCheckpointSaver(db)
    const { ids } = await runLike(saver, 3)
    const [first, second, third] = await db.checkpoints.bulkGet(ids.map((id) => ['t', id]))
    // The first checkpoint is a whole row: every value is a value row; an empty channel has
    // none, and no owner.
    expect(first?.delta).toBeUndefined()
    expect(first?.values).toBeUndefined()
    expect((await blobsOf(db, ids[0]!)).sort()).toEqual(['doc', 'flag', 'gone', 'n', 'text'])
    expect(first?.owner).not.toHaveProperty('none')
    expect(first?.channel_versions).toHaveProperty('none', 1)
    // A delta row holds a number, a flag and the mark of the channel it emptied; an object and
    // a long string (one past INLINE_STRING_MAX) are value rows.
    expect(second?.delta).toBeDefined()
    expect(second?.values).toEqual({
      n: { value: 2 },
      flag: { value: true },
      gone: { empty: true },
    })
    expect((await blobsOf(db, ids[1]!)).sort()).toEqual(['doc', 'long'])
    // A step that changes only small values adds one row.
    expect(third?.values).toEqual({ n: { value: 3 } })
    expect(await blobsOf(db, ids[2]!)).toEqual([])
  })

  it('reads values held by rows outside what it read, through the saver and the timeline', async () => {
    const db = freshDb()
    const saver = new DexieCheckpointSaver(db)
    const { values, ids } = await runLike(saver, 40) // past MAX_DELTA_DEPTH: a second whole row
    const expected = { n: 40, text: SHORT, flag: true, doc: { a: 2 }, long: LONG }
    expect(values).toEqual(expected)
    // The newest checkpoint alone: `flag` is held by checkpoint 2's row, `text` is a value row.
    const latest = await saver.getTuple({ threadId: 't' })
    expect(latest?.checkpoint.channel_values).toEqual(expected)
    expect('gone' in (latest?.checkpoint.channel_values ?? {})).toBe(false)
    expect(latest?.checkpoint.channel_versions).toMatchObject({ gone: 2, none: 1 })
    // An empty channel has no owner in the state: nothing is read for it.
    const newest = await db.checkpoints.get(['t', ids.at(-1)!])
    const resolved = (await resolveStates(db, 't', [newest!], new StateCache())).get(ids.at(-1)!)
    expect(resolved && 'state' in resolved && Object.keys(resolved.state.owner).sort()).toEqual([
      'doc',
      'flag',
      'long',
      'n',
      'text',
    ])
    // Every checkpoint reads back with the values it had.
    const all = await collectList(saver, { threadId: 't' })
    expect(all.map((t) => t.checkpoint.channel_values.n)).toEqual(
      Array.from({ length: 40 }, (_, i) => 40 - i),
    )
    expect(all.at(-2)?.checkpoint.channel_values).toEqual({
      n: 2,
      text: SHORT,
      flag: true,
      doc: { a: 2 },
      long: LONG,
    })
    // The timeline's page of one reads the small values it asks for the same way.
    const read = await new TimelineSource(db).read('t', {
      limit: 1,
      channels: new Set(['flag', 'n']),
    })
    expect(read.page[0]?.damage).toBeUndefined()
    expect(read.page[0]?.tuple?.checkpoint.channel_values).toEqual({ n: 40, flag: true })
    // Nothing in between was stored as a value row.
    const middle = await Promise.all(ids.slice(2).map((id) => blobsOf(db, id)))
    expect(middle.flat()).toEqual(['n']) // the second whole row's (checkpoint 33) only
  })

  it('a row whose held values are damaged loses them: a later checkpoint that reads one says where it was', async () => {
    const db = freshDb()
    const saver = new DexieCheckpointSaver(db)
    const { ids } = await runLike(saver, 5)
    // Checkpoint 2 holds `flag`, which no later step sets; its held values are overwritten.
    const [, second] = ids as [string, string]
    const row = await db.checkpoints.get(['t', second])
    expect(row?.values?.flag).toEqual({ value: true })
    await db.checkpoints.update(['t', second], { values: 'x' as never })
    const fresh = new DexieCheckpointSaver(db)
    const { page } = await new TimelineSource(db).read('t', { channels: new Set() })
    expect(page.find((c) => c.row.checkpointId === second)?.damage?.field).toBe('values')
    await expect(fresh.getTuple({ threadId: 't' })).rejects.toThrow(
      `the value of channel flag (stored with checkpoint ${second}) is missing`,
    )
  })

  it('reads a database stored before version 5 (every value a value row) as before', async () => {
    const db = freshDb()
    const saver = new DexieCheckpointSaver(db)
    await runLike(saver, 40)
    const before = await collectList(saver, { threadId: 't' })
    // As an older app stored the same history: the held values as value rows.
    const rows = await db.checkpoints.toArray()
    const blobs: BlobRow[] = rows.flatMap((r) =>
      Object.entries(r.values ?? {}).map(([channel, v]) => ({
        threadId: r.threadId,
        checkpointId: r.checkpointId,
        channel,
        ...v,
      })),
    )
    expect(blobs.length).toBeGreaterThan(38)
    await db.blobs.bulkPut(blobs)
    await db.checkpoints.bulkPut(rows.map(({ values: _, ...r }) => r))
    const fresh = new DexieCheckpointSaver(db) // no cached states
    expect(await collectList(fresh, { threadId: 't' })).toEqual(before)
  })
})
