import { Dexie } from 'dexie'
import type { CheckpointTuple } from '../core/checkpoint/types'
import type { BlobRow, CheckpointRow, SuperstepDb, TaskRunRow, WriteRow } from './db'
import {
  blobKey,
  checkpointRowDamage,
  missingValue,
  taskRunsOf,
  toTuple,
  writesOf,
  type ReadCheckpoint,
} from './checkpointRows'
import type { CheckpointDamage } from './damage'
import { storedThreadId } from './namespaces'
import { resolveStates, StateCache, type RowState } from './rowStates'
import { readValues, type ValueKey } from './valueReads'

/** What a timeline of a thread is drawn from, read in one transaction. */
export interface TimelineRead {
  /**
   * The page of checkpoints, newest first, each with its tuple (values hold only the
   * asked-for channels; its version maps are shared, never to be mutated) or, when it cannot be read, without one; either way with the first
   * damage found in its rows (its own, its pending writes', its task runs').
   */
  page: ReadCheckpoint[]
  /** The readable checkpoints of the page and the parents of its `loop` ones, by id. */
  byId: Map<string, CheckpointTuple>
  /** The readable task runs recorded on those parents. */
  taskRuns: TaskRunRow[]
}

/**
 * Reads a thread's history for the timeline without its state: checkpoint rows, the values
 * of a few channels only (the small ones that decide what runs next: triggers, Sends), the
 * pending writes and the task runs, each in one bulk read of one read transaction. A whole
 * thread is read by key ranges; a page by its keys.
 */
export class TimelineSource {
  /** `states`: rebuilt row states, shared with the saver (./rowStates). */
  constructor(
    private readonly db: SuperstepDb,
    private readonly states = new StateCache(),
  ) {}

  async read(
    thread: string,
    o: {
      limit?: number
      before?: string
      channels: ReadonlySet<string>
      checkpointNs?: string
      /**
       * The channels (of `channels`) whose values a checkpoint's tuple needs, given its state
       * and pending writes; absent: all of `channels`. Values are read after the writes.
       */
      need?: (state: RowState, writes: readonly WriteRow[]) => ReadonlySet<string>
    },
  ): Promise<TimelineRead> {
    // A subgraph's namespace is read as a thread of its own (namespaces.ts).
    const threadId = storedThreadId(thread, o.checkpointNs)
    const { checkpoints, blobs } = this.db
    const entire = o.limit === undefined && o.before === undefined
    const lo = [threadId, Dexie.minKey]
    return this.db.transaction('r', [checkpoints, blobs], async () => {
      let below = Infinity
      if (o.before !== undefined) {
        const before = await checkpoints.get([threadId, o.before])
        if (!before || typeof before.seq !== 'number')
          return { page: [], byId: new Map(), taskRuns: [] }
        below = before.seq
      }
      let rows = checkpoints
        .where('[threadId+seq]')
        .between(lo, [threadId, below], true, false)
        .reverse()
      if (o.limit !== undefined) rows = rows.limit(o.limit)
      const page = await rows.toArray()
      const damage = new Map<string, CheckpointDamage>()
      const readable = (r: CheckpointRow) => {
        const d = checkpointRowDamage(r)
        if (d) damage.set(r.checkpointId, d)
        return !d
      }
      const ids = new Set(page.map((r) => r.checkpointId))
      const parentIds = new Set<string>()
      for (const r of page.filter(readable))
        if (r.metadata.source === 'loop' && r.parentId) parentIds.add(r.parentId)
      const outside = [...parentIds].filter((id) => !ids.has(id))
      const extra = await checkpoints.bulkGet(outside.map((id) => [threadId, id]))
      const all = [...page, ...extra.filter((r): r is CheckpointRow => r !== undefined)].filter(
        (r) => !damage.has(r.checkpointId) && readable(r),
      )
      // Delta rows are read from the rows before them (cached when read lately).
      const resolved = await resolveStates(this.db, threadId, all, this.states)
      const stateOf = new Map<string, RowState>()
      for (const [id, r] of resolved)
        if ('state' in r) stateOf.set(id, r.state)
        else damage.set(id, r.damage)
      const whole = all.filter((r) => stateOf.has(r.checkpointId))
      // A damaged write or task run is left out; its checkpoint is marked (unless it is already).
      const note = (d: CheckpointDamage | undefined) =>
        d && !damage.has(d.checkpointId) && damage.set(d.checkpointId, d)
      const byCheckpoint = new Map<string, WriteRow[]>()
      for (const r of whole) {
        const writes = writesOf(r)
        note(writes.damage)
        byCheckpoint.set(r.checkpointId, writes.rows)
      }
      // The runs from the loop checkpoints' parents (read with the page, or just after it);
      // a whole thread's damaged runs are all marked.
      const goodRuns: TaskRunRow[] = []
      for (const r of [...page, ...extra]) {
        const parent = r !== undefined && parentIds.has(r.checkpointId)
        if (!r || !(parent || entire)) continue
        const runs = taskRunsOf(r)
        note(runs.damage)
        if (parent) goodRuns.push(...runs.rows)
      }
      // Each checkpoint's channels to read (all asked for, or what `need` says it needs).
      const needs = new Map<string, ReadonlySet<string>>()
      for (const r of whole) {
        const state = stateOf.get(r.checkpointId) as RowState
        const rows = byCheckpoint.get(r.checkpointId) ?? []
        needs.set(r.checkpointId, o.need ? o.need(state, rows) : o.channels)
      }
      const values = await this.values(whole, stateOf, needs)
      const used = new Set<string>()
      const byId = new Map<string, CheckpointTuple>()
      for (const r of whole) {
        const state = stateOf.get(r.checkpointId) as RowState
        // Only the values read are checked: checking every value row of a page costs more than
        // the page (a missing state value shows when the checkpoint is inspected or run).
        const owner = pick(state.owner, needs.get(r.checkpointId) as ReadonlySet<string>)
        const missing = missingValue(r, owner, (k) => values.get(k) !== undefined)
        if (missing) {
          damage.set(r.checkpointId, missing)
          continue
        }
        const rows = byCheckpoint.get(r.checkpointId) ?? []
        // The version maps are shared with the cache: readers copy what they change.
        const t = toTuple(r, { ...state, owner }, values, used, rows, true)
        byId.set(r.checkpointId, t)
      }
      return {
        page: page.map((row): ReadCheckpoint => {
          const tuple = byId.get(row.checkpointId)
          const d = damage.get(row.checkpointId)
          return { row, ...(tuple && { tuple }), ...(d && { damage: d }) }
        }),
        byId,
        taskRuns: goodRuns,
      }
    })
  }

  /** The value rows of each checkpoint's channels (`needs`), each read once. */
  private async values(
    rows: CheckpointRow[],
    states: ReadonlyMap<string, RowState>,
    needs: ReadonlyMap<string, ReadonlySet<string>>,
  ): Promise<Map<string, BlobRow | undefined>> {
    const keys = new Map<string, ValueKey>()
    for (const r of rows) {
      const owners = (states.get(r.checkpointId) as RowState).owner
      for (const ch of needs.get(r.checkpointId) as ReadonlySet<string>) {
        const owner = owners[ch]
        if (owner !== undefined) keys.set(blobKey(owner, ch), [r.threadId, owner, ch])
      }
    }
    return readValues(this.db, keys, rows)
  }
}

function pick(
  owner: Readonly<Record<string, string>>,
  channels: ReadonlySet<string>,
): Record<string, string> {
  const out: Record<string, string> = {}
  for (const ch of channels) {
    const id = owner[ch]
    if (id !== undefined) out[ch] = id
  }
  return out
}
