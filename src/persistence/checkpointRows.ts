/**
 * The mapping between CheckpointSaver's objects and the database rows of ./db: which value
 * rows a put writes, and the tuple a checkpoint row and its value and write rows read back as.
 * Pure: no Dexie calls.
 */
import type {
  ChannelVersions,
  Checkpoint,
  CheckpointMetadata,
  CheckpointTuple,
  PendingWrite,
} from '../core/checkpoint/types'
import type {
  BlobRow,
  CheckpointRow,
  DeltaCheckpointRow,
  StoredTaskRun,
  StoredValue,
  TaskRunRow,
  WholeCheckpointRow,
  WriteRow,
} from './db'
import type { ChainPlace, RowState } from './rowStates'
import {
  DamagedCheckpointError,
  missingValueDamage,
  rowDamage,
  type CheckpointDamage,
} from './damage'

/**
 * Makes `checkpoint` the owner of the `changed` channels in `owner` (a state's owners: see
 * ./rowStates), but of those it emptied: a channel with a version and no owner has no value,
 * so nothing is stored or read for it.
 */
export function takeOwnership(
  owner: Record<string, string>,
  checkpoint: Checkpoint,
  changed: Iterable<string>,
): void {
  for (const channel of changed)
    if (channel in checkpoint.channel_values) owner[channel] = checkpoint.id
    else delete owner[channel]
}

/**
 * The whole row of `checkpoint`, owning what its parent owns (`parentOwner`) and the `changed`
 * channels: the channels with a new version, whose values it stores (see placeValues).
 */
export function buildRows(
  threadId: string,
  parentId: string | undefined,
  parentOwner: Readonly<Record<string, string>> | undefined,
  seq: number,
  checkpoint: Checkpoint,
  metadata: CheckpointMetadata,
  changed: readonly string[],
): WholeCheckpointRow {
  // Every channel inherits its parent's stored value but those with a new version.
  const owner: Record<string, string> = parentOwner ? { ...parentOwner } : {}
  takeOwnership(owner, checkpoint, changed)
  const row: WholeCheckpointRow = {
    threadId,
    checkpointId: checkpoint.id,
    seq,
    ts: checkpoint.ts,
    channel_versions: checkpoint.channel_versions,
    versions_seen: checkpoint.versions_seen,
    metadata,
    owner,
  }
  if (parentId !== undefined) row.parentId = parentId
  return row
}

/**
 * The delta row of `checkpoint` on its parent (at `place` in its chain): the channels
 * with a new version and the nodes whose `versions_seen` entry changed, read now (the caller
 * goes on mutating the checkpoint's maps after an incremental put; entries it replaces).
 */
export function buildDeltaRow(
  threadId: string,
  parentId: string,
  seq: number,
  checkpoint: Checkpoint,
  metadata: CheckpointMetadata,
  newVersions: ChannelVersions,
  changedSeen: ReadonlySet<string>,
  place: ChainPlace,
): DeltaCheckpointRow {
  const seen: Record<string, ChannelVersions> = {}
  for (const name of changedSeen) {
    const entry = checkpoint.versions_seen[name]
    if (entry) seen[name] = entry
  }
  return {
    threadId,
    checkpointId: checkpoint.id,
    seq,
    parentId,
    ts: checkpoint.ts,
    metadata,
    delta: { versions: { ...newVersions }, seen, depth: place.depth },
  }
}

/** Longest string a delta row holds itself (see placeValues). */
export const INLINE_STRING_MAX = 256

/** Whether a value is small enough for its checkpoint's own row: a primitive, a short string. */
function inlinable(value: unknown): boolean {
  return typeof value === 'string'
    ? value.length <= INLINE_STRING_MAX
    : value === null || (typeof value !== 'object' && typeof value !== 'function')
}

/**
 * Stores the values of `channels` (those `checkpoint` gives a new version, which `row` owns):
 * a delta row holds the small ones itself (`values`: one IndexedDB row for a step that sets
 * only counters, flags and triggers), and the mark of each channel it emptied, which its state
 * then has no owner for (see takeOwnership); the others, and all of a whole row's, are
 * returned as value rows. A whole row holds none, so a reader looking for a value it does not
 * find as a value row reads only delta rows, which are small (see ./valueReads); a whole row's
 * emptied channels have no owner in it, and nothing stored.
 */
export function placeValues(
  row: CheckpointRow,
  checkpoint: Checkpoint,
  channels: readonly string[],
): BlobRow[] {
  const blobs: BlobRow[] = []
  let values: Record<string, StoredValue> | undefined
  for (const channel of channels) {
    if (!(channel in checkpoint.channel_values)) {
      if (row.delta) (values ??= {})[channel] = { empty: true }
      continue
    }
    const value = checkpoint.channel_values[channel]
    if (row.delta && inlinable(value)) (values ??= {})[channel] = { value }
    else blobs.push({ threadId: row.threadId, checkpointId: checkpoint.id, channel, value })
  }
  if (values) row.values = values
  return blobs
}

/**
 * The tuple of checkpoint row `r` in state `state` (./rowStates; its maps are copied: the
 * state may be shared), with values from `blobs` (by blobKey) and its write rows. The first
 * tuple to use a value row gets the object IndexedDB returned; later ones (`used`) get a
 * clone, so no two tuples share an object.
 */
export function toTuple(
  r: CheckpointRow,
  state: RowState,
  blobs: Map<string, BlobRow | undefined>,
  used: Set<string>,
  writeRows: WriteRow[],
  /** The tuple's version maps are the state's own (a reader that never mutates them). */
  share = false,
): CheckpointTuple {
  const values: Record<string, unknown> = {}
  for (const [ch, owner] of Object.entries(state.owner)) {
    const key = blobKey(owner, ch)
    const b = blobs.get(key)
    if (!b)
      throw new DamagedCheckpointError(missingValueDamage(r.threadId, r.checkpointId, ch, owner))
    if (b.empty) continue
    // IndexedDB gave us a fresh copy; later users of the same row get their own.
    values[ch] = used.has(key) ? structuredClone(b.value) : b.value
    used.add(key)
  }
  writeRows.sort((a, b) => (a.id ?? 0) - (b.id ?? 0))
  return {
    config: { threadId: r.threadId, checkpointId: r.checkpointId },
    checkpoint: {
      v: 1,
      id: r.checkpointId,
      ts: r.ts,
      channel_values: values,
      channel_versions: share ? (state.versions as ChannelVersions) : { ...state.versions },
      versions_seen: share ? (state.seen as Record<string, ChannelVersions>) : { ...state.seen },
    },
    metadata: r.metadata,
    parentConfig: r.parentId ? { threadId: r.threadId, checkpointId: r.parentId } : undefined,
    pendingWrites: writeRows.map((w): PendingWrite => [w.taskId, w.channel, w.value]),
  }
}

/**
 * A checkpoint row read back: its tuple, and the first damage found (see ./damage). A row
 * that is damaged itself or misses a value row has no tuple; a damaged pending write is left
 * out of the tuple, which then comes with the damage.
 */
export interface ReadCheckpoint {
  row: CheckpointRow
  tuple?: CheckpointTuple
  damage?: CheckpointDamage
}

/** Why checkpoint row `r` cannot be read (see ./damage), or undefined. */
export function checkpointRowDamage(r: CheckpointRow): CheckpointDamage | undefined {
  const d = rowDamage('checkpoints', r)
  return d && damageOn(r, 'checkpoints', d.field, d.reason)
}

/**
 * The first channel of `owners` (readable row `r`'s state, or part of it) whose value row is
 * not stored (`has` tells, by blobKey), as damage; undefined when every value is there.
 */
export function missingValue(
  r: CheckpointRow,
  owners: Readonly<Record<string, string>>,
  has: (key: string) => boolean,
): CheckpointDamage | undefined {
  for (const [ch, owner] of Object.entries(owners))
    if (!has(blobKey(owner, ch))) return missingValueDamage(r.threadId, r.checkpointId, ch, owner)
  return undefined
}

/**
 * The pending writes held by checkpoint row `r`, as rows (`id`: the place in its list), with
 * the first damaged one's damage; a damaged write is left out.
 */
export function writesOf(r: CheckpointRow): { rows: WriteRow[]; damage?: CheckpointDamage } {
  return entriesOf(
    r,
    'writes',
    r.writes,
    (entry, id) => ({ ...entry, id }) as WriteRow,
    writeRowDamage,
  )
}

/**
 * The task runs held by checkpoint row `r` (the tasks that ran from it), with the first
 * damaged one's damage; a damaged run is left out.
 */
export function taskRunsOf(r: CheckpointRow): { rows: TaskRunRow[]; damage?: CheckpointDamage } {
  return entriesOf(r, 'taskRuns', r.runs, (entry) => entry as TaskRunRow, taskRunDamage)
}

/** The entries of one of `r`'s lists, each with the row's keys, and the first damage. */
function entriesOf<T>(
  r: CheckpointRow,
  table: 'writes' | 'taskRuns',
  list: unknown,
  expand: (entry: object, i: number) => T,
  damageOf: (entry: T) => CheckpointDamage | undefined,
): { rows: T[]; damage?: CheckpointDamage } {
  if (list === undefined) return { rows: [] }
  if (!Array.isArray(list)) return { rows: [], damage: listDamage(r, table, list) }
  const rows: T[] = []
  let damage: CheckpointDamage | undefined
  list.forEach((entry: unknown, i) => {
    const what = table === 'writes' ? `pending write ${i}` : `task run ${i}`
    const row = isEntry(entry)
      ? expand({ ...entry, threadId: r.threadId, checkpointId: r.checkpointId }, i)
      : undefined
    const bad = row === undefined ? entryDamage(r, table, what, entry) : damageOf(row)
    if (bad) damage ??= bad
    else rows.push(row as T)
  })
  return damage ? { rows, damage } : { rows }
}

/** Why task run `r` (as read from its checkpoint's row) cannot be read, or undefined. */
export function taskRunDamage(r: TaskRunRow): CheckpointDamage | undefined {
  const d = rowDamage('taskRuns', r)
  const task = typeof r.taskId === 'string' ? r.taskId : '?'
  return d && damageOn(r, 'taskRuns', d.field, `the task run of ${task}: ${d.reason}`)
}

const isEntry = (v: unknown): v is object =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

function listDamage(
  r: CheckpointRow,
  table: 'writes' | 'taskRuns',
  list: unknown,
): CheckpointDamage {
  const what = table === 'writes' ? 'pending writes' : 'task runs'
  const is = list === null ? 'null' : `a ${typeof list}`
  return damageOn(
    r,
    table,
    table === 'writes' ? 'writes' : 'runs',
    `its ${what} are ${is} (expected a list)`,
  )
}

function entryDamage(
  r: CheckpointRow,
  table: 'writes' | 'taskRuns',
  what: string,
  entry: unknown,
): CheckpointDamage {
  const is = entry === null ? 'null' : Array.isArray(entry) ? 'a list' : `a ${typeof entry}`
  return damageOn(r, table, '', `${what} is ${is} (expected an object)`)
}

/** Why pending write row `w` cannot be read, as the damage of its checkpoint, or undefined. */
export function writeRowDamage(w: WriteRow): CheckpointDamage | undefined {
  const d = rowDamage('writes', w)
  if (!d) return undefined
  const task = typeof w.taskId === 'string' ? ` of task ${w.taskId}` : ''
  return damageOn(w, 'writes', d.field, `pending write ${w.id ?? '?'}${task}: ${d.reason}`)
}

/** The damage of checkpoint `r`'s own row (`checkpoints`) or of an entry it holds. */
function damageOn(
  r: { threadId: unknown; checkpointId: unknown },
  table: CheckpointDamage['table'],
  field: string,
  reason: string,
): CheckpointDamage {
  return {
    threadId: String(r.threadId),
    checkpointId: String(r.checkpointId),
    table,
    field,
    reason,
  }
}

/** A value row's identity within one thread: its owner and channel. */
export function blobKey(checkpointId: string, channel: string): string {
  return `${checkpointId}\u0000${channel}`
}

/** Adds `run` to a checkpoint's runs, replacing the run of the same task. */
export function putRun(list: StoredTaskRun[], run: StoredTaskRun): void {
  const at = list.findIndex((r) => r.taskId === run.taskId)
  if (at >= 0) list[at] = run
  else list.push(run)
}
