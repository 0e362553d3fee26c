/**
 * Superstep's IndexedDB database. Checkpoints are stored the way MemorySaver keeps them: one
 * row per checkpoint (metadata, versions and which checkpoint stored each channel's value,
 * whole or as the change on its parent; with the pending writes on it and the task runs from
 * it) and one row per channel value per version. IndexedDB's cost is per row, far more than
 * per byte: a delta row holds its own small values (a number, a flag, a short string), so a
 * step that sets only such values adds one row; a channel with no value (emptied) has no
 * owner, and nothing is stored for it.
 */
import { Dexie } from 'dexie'
import type { DexieOptions, Table } from 'dexie'
import type { ChannelVersions, CheckpointMetadata } from '../core/checkpoint/types'
import type { TaskLog } from '../core/compile/host'
import { writesIntoCheckpoints } from './migrations'

export const DEFAULT_DB_NAME = 'superstep'

/** The newest schema version below (a database at a higher one is a newer app's). */
export const SCHEMA_VERSION = 5

/** What every checkpoint row holds, whole or delta. */
interface CheckpointRowBase {
  threadId: string
  checkpointId: string
  /** Per-thread put order (1, 2, …): "newest" means highest seq, whatever the ids look like. */
  seq: number
  parentId?: string
  ts: string
  metadata: CheckpointMetadata
  /** The pending writes on this checkpoint, in the order first stored (absent: none). */
  writes?: StoredWrite[]
  /** The runs of the tasks that ran from this checkpoint (absent: none). */
  runs?: StoredTaskRun[]
  /**
   * The small values this checkpoint owns, held in its own row rather than as value rows
   * (delta rows only: see `placeValues` in ./checkpointRows). Absent: none.
   */
  values?: Record<string, StoredValue>
}

/** A channel's value at one version, or the mark that the version has none. */
export interface StoredValue {
  /** The version is empty (e.g. a cleared ephemeral channel): no value to restore. */
  empty?: true
  value?: unknown
}

/** A pending write as its checkpoint row holds it (see WriteRow). */
export interface StoredWrite {
  taskId: string
  /** A special channel's name, or the write's index in its `putWrites` call (see writeKey). */
  key: string
  channel: string
  value: unknown
}

/** A task run as the row of the checkpoint it ran from holds it (see TaskRunRow). */
export type StoredTaskRun = Omit<TaskRunRow, 'threadId' | 'checkpointId'>

/**
 * A checkpoint stored whole: every channel's version, every node's `versions_seen`, and which
 * checkpoint stored each channel's value. Every row written before delta rows is one, so is
 * a thread's first checkpoint and one at least every MAX_DELTA_DEPTH after (./rowStates).
 */
export interface WholeCheckpointRow extends CheckpointRowBase {
  channel_versions: ChannelVersions
  versions_seen: Record<string, ChannelVersions>
  /** For each versioned channel, the checkpoint whose put stored its value (its BlobRow). */
  owner: Record<string, string>
  delta?: undefined
}

/**
 * A checkpoint stored as what changed on its parent (`parentId`, same stored thread): read
 * back by applying the deltas from the nearest whole row up (./rowStates).
 */
export interface DeltaCheckpointRow extends CheckpointRowBase {
  parentId: string
  delta: CheckpointDelta
  channel_versions?: undefined
  versions_seen?: undefined
  owner?: undefined
}

/** What a delta row changes on its parent. */
export interface CheckpointDelta {
  /** The channels with a new version; this checkpoint stored their values (it owns them). */
  versions: ChannelVersions
  /** The nodes whose `versions_seen` entry changed, with the whole new entry. */
  seen: Record<string, ChannelVersions>
  /** Rows between this one and the whole row it is read from (1: its parent is whole). */
  depth: number
}

export type CheckpointRow = WholeCheckpointRow | DeltaCheckpointRow

/** One channel's value at one version, keyed by the checkpoint that introduced the version. */
export interface BlobRow extends StoredValue {
  threadId: string
  checkpointId: string
  channel: string
}

/** A pending write read back: its checkpoint's row's entry, with the row's keys. */
export interface WriteRow {
  /** Its place in the checkpoint's writes: the order first stored (an upsert keeps it). */
  id?: number
  threadId: string
  checkpointId: string
  taskId: string
  /** A special channel's name, or the write's index in its `putWrites` call (see writeKey). */
  key: string
  channel: string
  value: unknown
}

/** A graph document saved in this browser. */
export interface GraphRow {
  id: string
  name: string
  /** The graph document (format v1) as the user last saved it. */
  doc: unknown
  /**
   * False for a document that came from elsewhere (a file, a link): none of its code runs
   * until the user trusts it once.
   */
  trusted: boolean
  /** The owner allowed the graph's code nodes to reach the network. */
  allowNetwork: boolean
  /** The run input last typed for the graph (JSON text); not indexed. */
  input?: string
  createdAt: string
  updatedAt: string
  /**
   * How many times the document was saved (absent: 0, rows from before revisions). A tab
   * saves only over the revision it read: a save over a newer one is another tab's change,
   * merged or shown, never overwritten.
   */
  rev?: number
  /** In the bin since then (ISO-8601): not listed, restorable until the bin is emptied. */
  deletedAt?: string
  /** The tab that saved this revision and when it opened (`<tab>@<ms>`); see docSync's recover. */
  writer?: string
}

/**
 * A thread the user created or named. Threads without a row (the default `${graphId}:main`,
 * threads from before version 3) are still listed, from their checkpoints.
 */
export interface ThreadRow {
  /** `${graph}:${suffix}`; the default thread of a graph is `${graph}:main`. */
  threadId: string
  /** The id of the graph document (GraphRow.id) the thread belongs to. */
  graph: string
  name: string
  createdAt: string
  /** The settings its runs go with, as last set in the page (absent: the defaults). */
  settings?: ThreadSettings
  /**
   * Set while an import writes the thread (when its last batch was written): a row still
   * marked after its importer is gone is an interrupted import, deleted with its rows.
   * Not indexed (no new version).
   */
  importing?: string
}

/** A thread's run settings. */
export interface ThreadSettings {
  /** Super-steps a run may take (LangGraph's recursionLimit). */
  recursionLimit?: number
  /** Wall time a run may take, in ms (0: no limit). */
  timeoutMs?: number
  /** The thread's own values of the graph's declared settings (`config.configurable`). */
  configurable?: Record<string, string | number | boolean>
}

/**
 * What the worker saw of one task's run: how long it took, what its code logged, how it
 * failed. Stored, like the task's pending writes, with the checkpoint the task ran from (the
 * parent of the checkpoint its step produced).
 */
export interface TaskRunRow {
  threadId: string
  /** The checkpoint the task ran from; its pending writes are stored against the same id. */
  checkpointId: string
  taskId: string
  /** The node. */
  name: string
  durationMs: number
  logs: TaskLog[]
  error?: { name: string; message: string }
  /** What the runtime warned about the task (a write to a key that is no field, …). */
  warnings?: TaskWarning[]
}

/** A runtime warning about one task, as recorded with its run. */
export interface TaskWarning {
  code: string
  /** The state field, for a warning about one. */
  field?: string
  message: string
}

/**
 * The database. Schema changes go in a new `version(n)` block, never by editing an old one.
 * version(1): checkpoints (written only by the runtime worker); version(2): graph documents;
 * version(3): named threads and task runs (durations and logs; runtime worker only);
 * version(4): pending writes and task runs move into their checkpoint's row (./migrations);
 * version(5): a delta row may hold its small values (`values`); no rows change, but an older
 * app would not find those values, so it must not open the database.
 */
export class SuperstepDb extends Dexie {
  checkpoints!: Table<CheckpointRow, [string, string]>
  blobs!: Table<BlobRow, [string, string, string]>
  graphs!: Table<GraphRow, string>
  threads!: Table<ThreadRow, string>

  constructor(name: string = DEFAULT_DB_NAME, options?: DexieOptions) {
    super(name, options)
    // Nothing reads this database through liveQuery: Dexie's change tracking (the key ranges
    // each write touched, then a broadcast to every context per transaction) and its query
    // cache would only add to the cost of every write of a run.
    this.unuse({ stack: 'dbcore', name: 'Observability' })
    this.unuse({ stack: 'dbcore', name: 'Cache' })
    this.version(1).stores({
      // By id; latest / history pages through [threadId+seq] (.last(), reverse().limit(n)).
      checkpoints: '[threadId+checkpointId], [threadId+seq]',
      // Read with bulkGet of exact keys; a thread's rows are a prefix range of the key.
      blobs: '[threadId+checkpointId+channel]',
      // One checkpoint's writes by [threadId+checkpointId]; the unique key finds the row an
      // upsert replaces.
      writes: '++id, [threadId+checkpointId], &[threadId+checkpointId+taskId+key]',
    })
    this.version(2).stores({ graphs: 'id, updatedAt' })
    this.version(3).stores({
      // A graph's threads by `graph`.
      threads: 'threadId, graph',
      // One step's runs by [threadId+checkpointId]; a thread's are a prefix range of the key.
      taskRuns: '[threadId+checkpointId+taskId], [threadId+checkpointId]',
    })
    this.version(4)
      .stores({ writes: null, taskRuns: null })
      .upgrade((tx) => writesIntoCheckpoints(tx))
    this.version(5).stores({})
  }
}
