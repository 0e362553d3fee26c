/**
 * The content upgrades of ./db's schema versions. Each runs once, inside the upgrade
 * transaction of the version that needs it, with Dexie calls only.
 */
import type { Transaction } from 'dexie'

/**
 * The rows these upgrades read and write, as far as they touch them (the tables of older
 * versions are not declared any more; ./db's types describe the newest).
 */
interface KeyedRow {
  threadId: string
  checkpointId: string
  [field: string]: unknown
}
interface OldWriteRow extends KeyedRow {
  /** Auto-increment: the order the writes were first stored. */
  id?: number
}
interface CheckpointRow extends KeyedRow {
  writes?: object[]
  runs?: object[]
}

/** Checkpoints moved per round of reads and writes (bounds the memory an upgrade takes). */
const CHUNK = 200

/**
 * Version 4: the rows of `writes` and `taskRuns` (one per pending write, one per task run)
 * become entries of their checkpoint's row (`writes` in the order they were first stored,
 * `runs`). Rows whose checkpoint is not stored were unreadable before; they are dropped.
 */
export async function writesIntoCheckpoints(tx: Transaction): Promise<void> {
  const writes = tx.table<OldWriteRow>('writes')
  const runs = tx.table<KeyedRow>('taskRuns')
  const checkpoints = tx.table<CheckpointRow>('checkpoints')
  const keyed = new Map<string, [string, string]>()
  for (const key of [
    ...(await writes.orderBy('[threadId+checkpointId]').uniqueKeys()),
    ...(await runs.orderBy('[threadId+checkpointId]').uniqueKeys()),
  ]) {
    const k = key as unknown as [string, string]
    keyed.set(`${k[0]}\0${k[1]}`, k)
  }
  const keys = [...keyed.values()]
  for (let i = 0; i < keys.length; i += CHUNK) {
    const chunk = keys.slice(i, i + CHUNK)
    const [writeRows, runRows, rows] = await Promise.all([
      writes.where('[threadId+checkpointId]').anyOf(chunk).toArray(),
      runs.where('[threadId+checkpointId]').anyOf(chunk).toArray(),
      checkpoints.bulkGet(chunk),
    ])
    const byKey = new Map<string, CheckpointRow>()
    for (const r of rows) if (r) byKey.set(`${r.threadId}\0${r.checkpointId}`, r)
    writeRows.sort((a, b) => (a.id ?? 0) - (b.id ?? 0))
    for (const w of writeRows) {
      const row = byKey.get(`${w.threadId}\0${w.checkpointId}`)
      if (!row) continue
      const { id: _id, threadId: _t, checkpointId: _c, ...entry } = w
      ;(row.writes ??= []).push(entry)
    }
    for (const r of runRows) {
      const row = byKey.get(`${r.threadId}\0${r.checkpointId}`)
      if (!row) continue
      const { threadId: _t, checkpointId: _c, ...entry } = r
      ;(row.runs ??= []).push(entry)
    }
    await checkpoints.bulkPut([...byKey.values()])
  }
}
