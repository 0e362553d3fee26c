/**
 * What the Dexie saver's tests share: a fresh fake-indexeddb database, small checkpoints, and
 * a count of the read-write transactions a database starts. Test code only.
 */
import { indexedDB, IDBKeyRange } from 'fake-indexeddb'
import { Dexie } from 'dexie'
import type { Checkpoint } from '../core/checkpoint/types'
import { SuperstepDb } from './db'

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
