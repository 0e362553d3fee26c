/**
 * What the Dexie saver's tests share: a fresh fake-indexeddb database, small checkpoints, and
 * a count of the read-write transactions a database starts. Test code only.
 */
// Before Dexie loads: it takes the global IndexedDB when it does (worker tests use it).
import 'fake-indexeddb/auto'
import { indexedDB, IDBKeyRange } from 'fake-indexeddb'
import { Dexie } from 'dexie'
import type { Checkpoint } from '../core/checkpoint/types'
import { taskRunsOf, writesOf } from './checkpointRows'
import { SuperstepDb, type CheckpointRow, type TaskRunRow, type WriteRow } from './db'

let dbCount = 0

/** A new, empty database (named `superstep-<prefix>-<n>`). */
export function freshDb(prefix: string): SuperstepDb {
  return new SuperstepDb(`superstep-${prefix}-${++dbCount}`, { indexedDB, IDBKeyRange })
}

export const meta = (step: number) => ({ source: 'loop' as const, step, parents: {} })

/** A checkpoint whose one channel `n` has value and version `n`. */
export const ck = (id: string, n: number): Checkpoint => ({
  v: 1,
  id,
  ts: `2026-01-01T00:00:${id.padStart(2, '0')}Z`,
  channel_values: { n },
  channel_versions: { n },
  versions_seen: {},
})

/** Counts the read-write transactions the database starts. */
export function countTransactions(db: SuperstepDb) {
  const counts = { rw: 0 }
  db.use({
    stack: 'dbcore',
    name: 'count-transactions',
    create: (down) => ({
      ...down,
      transaction: (stores, mode, options) => {
        if (mode === 'readwrite') counts.rw++
        return down.transaction(stores, mode, options)
      },
    }),
  })
  return counts
}

/** Makes writes to `table` fail (quota exceeded) while the returned switch's `on` is set. */
export function failWritesTo(db: SuperstepDb, table: string): { on: boolean } {
  const fail = { on: false }
  db.use({
    stack: 'dbcore',
    name: `fail-${table}`,
    create: (down) => ({
      ...down,
      table: (name) => {
        const t = down.table(name)
        return {
          ...t,
          mutate: (req) =>
            name === table && fail.on
              ? Promise.reject(new Dexie.QuotaExceededError('full'))
              : t.mutate(req),
        }
      },
    }),
  })
  return fail
}

/**
 * The pending writes stored in the database (of one thread, or all), as rows, in checkpoint
 * key order, then the order each checkpoint's were first stored.
 */
export async function storedWrites(db: SuperstepDb, threadId?: string): Promise<WriteRow[]> {
  return (await rowsOf(db, threadId)).flatMap((r) => writesOf(r).rows)
}

/** The task runs stored in the database (of one thread, or all). */
export async function storedRuns(db: SuperstepDb, threadId?: string): Promise<TaskRunRow[]> {
  return (await rowsOf(db, threadId)).flatMap((r) => taskRunsOf(r).rows)
}

function rowsOf(db: SuperstepDb, threadId?: string): Promise<CheckpointRow[]> {
  return threadId === undefined
    ? db.checkpoints.toArray()
    : db.checkpoints
        .where('[threadId+checkpointId]')
        .between([threadId, Dexie.minKey], [threadId, Dexie.maxKey])
        .toArray()
}

/** Removes every recorded task run (as a database from before task runs were recorded). */
export async function clearRuns(db: SuperstepDb): Promise<void> {
  await db.checkpoints.toCollection().modify((r) => {
    delete r.runs
  })
}
