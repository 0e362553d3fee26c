import 'fake-indexeddb/auto'
import { indexedDB, IDBKeyRange } from 'fake-indexeddb'
import { expect, it } from 'vitest'
import type { Checkpoint } from '../core/checkpoint/types'
import { SuperstepDb } from '../persistence/db'
import type { DexieCheckpointSaver } from '../persistence/dexieSaver'
import { storedRuns, storedWrites } from '../persistence/saverTestKit'
import { closeAll, setup } from './serviceHarness'
import { openDexieStorage } from './storage'

const ck = (id: string, n: number): Checkpoint => ({
  v: 1,
  id,
  ts: '2026-01-01T00:00:00Z',
  channel_values: { n },
  channel_versions: { n },
  versions_seen: {},
})
const meta = (step: number) => ({ source: 'loop' as const, step, parents: {} })

it("a run's checkpoints, pending writes and task runs commit together; the timeline reads them all", async () => {
  const db = new SuperstepDb('superstep-storage-test', { indexedDB, IDBKeyRange })
  const { saver, taskRuns, timeline } = openDexieStorage(db)
  const run = saver.batched?.()
  if (!run) throw new Error('the worker saver commits in batches')
  const c1 = await run.put({ threadId: 't' }, ck('c1', 1), meta(0), { n: 1 })
  await run.putWrites(c1, [['n', 2]], 'task')
  await run.put(c1, ck('c2', 2), meta(1), { n: 2 })
  // A failing step: its error write has no checkpoint after it.
  await run.putWrites({ threadId: 't', checkpointId: 'c2' }, [['__error__', { m: 1 }]], 'x')
  const recorded = taskRuns.record([
    { threadId: 't', checkpointId: 'c1', taskId: 'task', name: 'a', durationMs: 1, logs: [] },
  ])
  expect(await db.checkpoints.count()).toBe(1) // c2 waits in memory with its writes
  // What the page reads around the saver (the timeline) has everything.
  const read = await timeline.read('t', { channels: new Set(['n']) })
  expect(read.page.map((r) => r.row.checkpointId)).toEqual(['c2', 'c1'])
  await recorded
  expect(await storedWrites(db)).toHaveLength(2)
  expect(await storedRuns(db)).toHaveLength(1)
})

it("a run's steps are stored as deltas of their parents (the saver is incremental through the run's gate)", async () => {
  const t = await setup()
  const graphId = await t.compile()
  await t.client.request('run', { graphId, threadId: 'g:main', input: { x: 'in' }, mode: 'toEnd' })
  const db = (t.storage().saver as DexieCheckpointSaver).db
  const rows = await db.checkpoints
    .where('[threadId+seq]')
    .between(['g:main', 0], ['g:main', Infinity])
    .toArray()
  expect(rows.length).toBeGreaterThan(2)
  // The input checkpoint is whole; every step after it stores what it changed.
  expect(rows[0]?.delta).toBeUndefined()
  expect(rows.slice(1).map((r) => r.delta?.depth)).toEqual(rows.slice(1).map((_, i) => i + 1))
  const timeline = await t.client.request('getTimeline', { graphId, threadId: 'g:main' })
  expect(timeline.map((e) => e.checkpointId)).toEqual(rows.map((r) => r.checkpointId).reverse())
  expect(timeline.at(-1)?.next).toEqual(['__start__'])
  expect(timeline[0]?.next).toEqual([])
  await closeAll()
})
