/**
 * The mapping between CheckpointSaver's objects and the database rows of ./db: which value
 * rows a put writes, and the tuple a checkpoint row and its value and write rows read back as.
 * Pure: no Dexie calls.
 */
import type {
  Checkpoint,
  CheckpointMetadata,
  CheckpointTuple,
  PendingWrite,
} from '../core/checkpoint/types'
import type { BlobRow, CheckpointRow, WriteRow } from './db'
import {
  DamagedCheckpointError,
  missingValueDamage,
  rowDamage,
  type CheckpointDamage,
} from './damage'

/**
 * The row of `checkpoint` (owning, at first, what its parent owns) and a builder for the value
 * rows of the channels it introduces, which it then owns.
 */
export function buildRows(
  threadId: string,
  parentId: string | undefined,
  parent: CheckpointRow | undefined,
  seq: number,
  checkpoint: Checkpoint,
  metadata: CheckpointMetadata,
) {
  // Every channel inherits its parent's stored value but those with a new version.
  const owner: Record<string, string> = parent ? { ...parent.owner } : {}
  const row: CheckpointRow = {
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
  return {
    row,
    /** The value rows of `channels`, which this checkpoint now owns. */
    blobsFor(channels: string[]): BlobRow[] {
      return channels.map((channel) => {
        owner[channel] = checkpoint.id
        const base = { threadId, checkpointId: checkpoint.id, channel }
        return channel in checkpoint.channel_values
          ? { ...base, value: checkpoint.channel_values[channel] }
          : { ...base, empty: true }
      })
    },
  }
}

/**
 * The tuple of checkpoint row `r`, with values from `blobs` (by blobKey) and its write rows.
 * The first tuple to use a value row gets the object IndexedDB returned; later ones (`used`)
 * get a clone, so no two tuples share an object.
 */
export function toTuple(
  r: CheckpointRow,
  blobs: Map<string, BlobRow | undefined>,
  used: Set<string>,
  writeRows: WriteRow[],
): CheckpointTuple {
  const values: Record<string, unknown> = {}
  for (const [ch, owner] of Object.entries(r.owner)) {
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
      channel_versions: r.channel_versions,
      versions_seen: r.versions_seen,
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
  return (
    d && {
      threadId: String(r.threadId),
      checkpointId: String(r.checkpointId),
      table: 'checkpoints',
      ...d,
    }
  )
}

/**
 * The first channel of readable row `r` whose value row is not stored (`has` tells, by
 * blobKey), as damage; undefined when every value is there.
 */
export function missingValue(
  r: CheckpointRow,
  has: (key: string) => boolean,
): CheckpointDamage | undefined {
  for (const [ch, owner] of Object.entries(r.owner))
    if (!has(blobKey(owner, ch))) return missingValueDamage(r.threadId, r.checkpointId, ch, owner)
  return undefined
}

/** Why pending write row `w` cannot be read, as the damage of its checkpoint, or undefined. */
export function writeRowDamage(w: WriteRow): CheckpointDamage | undefined {
  const d = rowDamage('writes', w)
  if (!d) return undefined
  const task = typeof w.taskId === 'string' ? ` of task ${w.taskId}` : ''
  return {
    threadId: String(w.threadId),
    checkpointId: String(w.checkpointId),
    table: 'writes',
    field: d.field,
    reason: `pending write ${w.id ?? '?'}${task}: ${d.reason}`,
  }
}

/** A value row's identity within one thread: its owner and channel. */
export function blobKey(checkpointId: string, channel: string): string {
  return `${checkpointId}\u0000${channel}`
}
