import { indexedDB, IDBKeyRange } from 'fake-indexeddb'
import { expect, it } from 'vitest'
import type { Checkpoint } from '../core/checkpoint/types'
import { SuperstepDb } from '../persistence/db'
import { openDexieStorage } from './storage'

it('recording task runs stores the pending writes still waiting for a checkpoint first', async () => {
  const db = new SuperstepDb('superstep-storage-test', { indexedDB, IDBKeyRange })
  const { saver, taskRuns } = openDexieStorage(db)
  const ck: Checkpoint = {
    v: 1,
    id: 'c1',
    ts: '2026-01-01T00:00:00Z',
    channel_values: { n: 1 },
    channel_versions: { n: 1 },
    versions_seen: {},
  }
  const cfg = await saver.put({ threadId: 't' }, ck, { source: 'loop', step: 0, parents: {} }, {})
  // A failing step: its error write has no checkpoint after it to ride with.
  await saver.putWrites(cfg, [['__error__', { message: 'boom' }]], 'task')
  expect(await db.writes.count()).toBe(0)
  await taskRuns.record([
    { threadId: 't', checkpointId: 'c1', taskId: 'task', name: 'a', durationMs: 1, logs: [] },
  ])
  // What the page reads around the saver (the timeline) now has both.
  expect(await db.writes.count()).toBe(1)
  expect(await db.taskRuns.count()).toBe(1)
})
