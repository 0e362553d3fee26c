import { Dexie } from 'dexie'
import type { CheckpointRow, SuperstepDb, ThreadRow } from './db'
import { blobKey, checkpointRowDamage, missingValue, taskRunsOf, writesOf } from './checkpointRows'
import { rowDamage, type CheckpointDamage } from './damage'
import { ownOwner } from './rowStates'
import { toStorageError } from './storageError'

/** What a repair cut, or why it cut nothing. */
export type RepairOutcome =
  | {
      ok: true
      /** The checkpoints removed, oldest first: the damaged ones and every one after them. */
      removed: string[]
      /** Why each removed checkpoint went: its own damage, or the damaged checkpoint it follows. */
      reasons: CheckpointDamage[]
      kept: number
      writesRemoved: number
      taskRunsRemoved: number
      threadRowRepaired: boolean
    }
  /** The thread's first checkpoint is damaged: nothing would be left, so nothing was removed. */
  | { ok: false; root: CheckpointDamage; damaged: number }

/**
 * Cuts the damaged part of a thread (see ./damage) in one transaction, so what is left is a
 * consistent thread: every kept checkpoint readable, its parent kept, the first one kept.
 * Removes each damaged checkpoint (its own row, or a value row it names is missing), every
 * checkpoint whose parent is removed or missing, and their value rows, pending writes and
 * task runs; removes damaged pending writes and task runs of kept checkpoints (a task whose
 * write is removed runs again when the thread continues from there); rewrites a damaged
 * thread row with what of it is readable. Refuses, removing nothing, when the thread's first
 * checkpoint would go.
 */
export class ThreadRepair {
  constructor(private readonly db: SuperstepDb) {}

  /** Repairs `threadId`; a damaged thread row falls back to `graph` and the time `now`. */
  async repair(threadId: string, o: { graph: string; now: string }): Promise<RepairOutcome> {
    const { checkpoints, blobs, threads } = this.db
    try {
      return await this.db.transaction('rw', [checkpoints, blobs, threads], async () => {
        const lo = [threadId, Dexie.minKey]
        const hi = [threadId, Dexie.maxKey]
        // By primary key: a row without a seq is not in the [threadId+seq] index.
        const rows = await checkpoints.where('[threadId+checkpointId]').between(lo, hi).toArray()
        const sorted = rows.sort((a, b) => seqOf(a) - seqOf(b))
        const keys = await blobs
          .where('[threadId+checkpointId+channel]')
          .between(lo, hi)
          .primaryKeys()
        const stored = new Set(keys.map((k) => blobKey(String(k[1]), String(k[2]))))
        // And the values delta rows hold themselves.
        for (const r of rows)
          for (const ch of Object.keys(r.values ?? {})) stored.add(blobKey(r.checkpointId, ch))
        const cut = planCut(sorted, stored)
        if (!cut.ok) return cut
        const gone = new Set(cut.removed)
        // The pending writes and task runs the cut removes: all of a removed checkpoint's,
        // the damaged ones of a kept checkpoint (whose row is written again without them).
        let writesRemoved = 0
        let taskRunsRemoved = 0
        const rewritten: CheckpointRow[] = []
        for (const r of rows) {
          const writes = entries(r.writes)
          const runs = entries(r.runs)
          if (gone.has(r.checkpointId)) {
            writesRemoved += writes
            taskRunsRemoved += runs
            continue
          }
          const goodWrites = writesOf(r).rows
          const goodRuns = taskRunsOf(r).rows
          if (goodWrites.length === writes && goodRuns.length === runs) continue
          writesRemoved += writes - goodWrites.length
          taskRunsRemoved += runs - goodRuns.length
          const fixed: CheckpointRow = { ...r }
          delete fixed.writes
          delete fixed.runs
          if (goodWrites.length)
            fixed.writes = goodWrites.map(({ taskId, key, channel, value }) => ({
              taskId,
              key,
              channel,
              value,
            }))
          if (goodRuns.length)
            fixed.runs = goodRuns.map(({ threadId: _t, checkpointId: _c, ...run }) => run)
          rewritten.push(fixed)
        }
        await checkpoints.bulkDelete(cut.removed.map((id) => [threadId, id]))
        if (rewritten.length) await checkpoints.bulkPut(rewritten)
        for (const id of cut.removed)
          await blobs
            .where('[threadId+checkpointId+channel]')
            .between([threadId, id, Dexie.minKey], [threadId, id, Dexie.maxKey])
            .delete()
        const row = await threads.get(threadId)
        const firstTs = sorted.find((r) => typeof r.ts === 'string')?.ts
        const fixed = row && repairedRow(row, threadId, o.graph, firstTs ?? o.now)
        if (fixed) await threads.put(fixed)
        return {
          ...cut,
          kept: rows.length - cut.removed.length,
          writesRemoved,
          taskRunsRemoved,
          threadRowRepaired: fixed !== undefined,
        }
      })
    } catch (e) {
      throw toStorageError(e, `repair thread ${threadId}`, { threadId })
    }
  }
}

/** How many entries a row's list of writes or runs holds (one, for a damaged non-list). */
function entries(list: unknown): number {
  return Array.isArray(list) ? list.length : list === undefined ? 0 : 1
}

/** Put order; a damaged row without a seq sorts last. */
function seqOf(r: CheckpointRow): number {
  return typeof r.seq === 'number' ? r.seq : Infinity
}

/**
 * Which of `sorted` (oldest first) go: the damaged ones, and every one whose parent goes or
 * is missing. Refused when the first checkpoint goes.
 */
function planCut(
  sorted: CheckpointRow[],
  stored: ReadonlySet<string>,
):
  | { ok: true; removed: string[]; reasons: CheckpointDamage[] }
  | Extract<RepairOutcome, { ok: false }> {
  const ids = new Set(sorted.map((r) => r.checkpointId))
  const children = new Map<string, CheckpointRow[]>()
  const reasons = new Map<string, CheckpointDamage>()
  for (const r of sorted) {
    // A delta row names only the value rows it introduced; those it inherits are named by the
    // rows before it, which go (and it with them) when one is missing.
    const own = checkpointRowDamage(r) ?? missingValue(r, ownOwner(r), (k) => stored.has(k))
    if (own) {
      reasons.set(r.checkpointId, own)
      continue // its parent is not trusted
    }
    if (r.parentId === undefined) continue
    if (!ids.has(r.parentId))
      reasons.set(r.checkpointId, {
        threadId: r.threadId,
        checkpointId: r.checkpointId,
        table: 'checkpoints',
        field: 'parentId',
        reason: `its parent checkpoint ${r.parentId} is missing`,
      })
    else children.set(r.parentId, [...(children.get(r.parentId) ?? []), r])
  }
  const damaged = reasons.size
  // Everything after a checkpoint that goes goes too: its state was made from it.
  const queue = [...reasons.values()]
  for (let d = queue.shift(); d; d = queue.shift())
    for (const child of children.get(d.checkpointId) ?? [])
      if (!reasons.has(child.checkpointId)) {
        const after: CheckpointDamage = {
          threadId: child.threadId,
          checkpointId: child.checkpointId,
          table: 'checkpoints',
          field: 'parentId',
          reason: `it follows damaged checkpoint ${d.checkpointId}`,
        }
        reasons.set(child.checkpointId, after)
        queue.push(after)
      }
  const first = sorted[0]
  const root = first && reasons.get(first.checkpointId)
  if (root) return { ok: false, root, damaged }
  const removed = sorted.filter((r) => reasons.has(r.checkpointId)).map((r) => r.checkpointId)
  return { ok: true, removed, reasons: removed.map((id) => reasons.get(id) as CheckpointDamage) }
}

/**
 * A damaged thread row with its readable fields kept and the others from the thread's id
 * and first checkpoint; undefined when the row is readable.
 */
function repairedRow(
  row: ThreadRow,
  threadId: string,
  graph: string,
  createdAt: string,
): ThreadRow | undefined {
  if (!rowDamage('threads', row)) return undefined
  const r = row as Partial<Record<keyof ThreadRow, unknown>>
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined)
  const fixed: ThreadRow = {
    threadId,
    graph: str(r.graph) ?? graph,
    name: str(r.name) ?? threadId.slice(threadId.indexOf(':') + 1),
    createdAt: str(r.createdAt) ?? createdAt,
  }
  // Settings are kept only when readable: the defaults otherwise.
  if (r.settings !== undefined && !rowDamage('threads', { ...fixed, settings: r.settings }))
    fixed.settings = row.settings
  return fixed
}
