/**
 * What "damaged" means for a stored row, in one place: a row is damaged when a field the app
 * reads is missing or of the wrong type (a hand-edited or half-written database, a bug of an
 * older version). Every read of checkpoints, pending writes, task runs and thread rows asks
 * `rowDamage`; a checkpoint is also damaged when a channel value it names is not stored.
 * Pure: no Dexie calls.
 */

/** The tables whose rows are checked. */
export type DamageTable = 'checkpoints' | 'writes' | 'taskRuns' | 'threads'

/** Which field of a row is unreadable, and why. */
export interface RowDamage {
  /** The field's path in the row, e.g. `metadata.step`, `owner.x`, `logs`. */
  field: string
  /** A sentence for the user: what the field holds and what was expected. */
  reason: string
}

/** A damaged checkpoint: the checkpoint, its thread, and the first unreadable field. */
export interface CheckpointDamage extends RowDamage {
  threadId: string
  checkpointId: string
  /**
   * Which row is damaged: the checkpoint's own row (its state cannot be read), one of its
   * pending writes, or one of the task runs recorded on it (its state is intact).
   */
  table: 'checkpoints' | 'writes' | 'taskRuns'
}

/**
 * A checkpoint whose rows cannot be read. Its state is unknown, so nothing runs, continues or
 * forks from it; the thread's other checkpoints are readable. Match it by `name`/`code` (it
 * may cross `postMessage`).
 */
export class DamagedCheckpointError extends Error {
  override readonly name = 'DamagedCheckpointError'
  readonly code = 'DAMAGED_CHECKPOINT'
  readonly threadId: string
  readonly checkpointId: string
  readonly field: string

  constructor(d: CheckpointDamage) {
    super(damagedCheckpointMessage(d))
    this.threadId = d.threadId
    this.checkpointId = d.checkpointId
    this.field = d.field
  }
}

/** What the user reads about a damaged checkpoint, and what they can do. */
export function damagedCheckpointMessage(d: CheckpointDamage): string {
  const row =
    d.table === 'checkpoints' ? '' : d.table === 'writes' ? 'a pending write of ' : 'a task run of '
  return (
    `Stored data of ${row}checkpoint ${d.checkpointId} on thread ${d.threadId} is damaged: ${d.reason}. ` +
    `Nothing can run, continue or fork from it. Use "Repair thread" to cut the damaged part ` +
    `(export the thread first to keep what is readable).`
  )
}

type Check = (v: unknown) => boolean
interface Field {
  path: string
  check: Check
  expected: string
  optional?: true
}

const isString: Check = (v) => typeof v === 'string'
const isId: Check = (v) => typeof v === 'string' && v.length > 0
const isNumber: Check = (v) => typeof v === 'number' && Number.isFinite(v)
const isInteger: Check = (v) => Number.isInteger(v)
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)
const recordOf =
  (each: Check): Check =>
  (v) =>
    isObject(v) && Object.values(v).every(each)
const arrayOf =
  (each: Check): Check =>
  (v) =>
    Array.isArray(v) && v.every(each)
const shape =
  (fields: Field[]): Check =>
  (v) =>
    isObject(v) && firstBad(v, fields) === undefined
const oneOf =
  (values: readonly string[]): Check =>
  (v) =>
    typeof v === 'string' && values.includes(v)

const SOURCES = ['input', 'loop', 'update', 'fork'] as const
const LOG_LEVELS = ['log', 'info', 'warn', 'error', 'debug'] as const

const CHECKPOINT_HEAD: Field[] = [
  { path: 'threadId', check: isString, expected: 'a string' },
  { path: 'checkpointId', check: isId, expected: 'an id' },
  { path: 'seq', check: isNumber, expected: 'a number' },
  { path: 'parentId', check: isId, expected: 'an id', optional: true },
  { path: 'ts', check: isString, expected: 'a time' },
]
const CHECKPOINT_METADATA: Field[] = [
  { path: 'metadata', check: isObject, expected: 'an object' },
  { path: 'metadata.source', check: oneOf(SOURCES), expected: SOURCES.join(', ') },
  { path: 'metadata.step', check: isInteger, expected: 'an integer' },
  { path: 'metadata.parents', check: recordOf(isString), expected: 'ids by namespace' },
]
/** The small values a delta row holds itself (placeValues in ./checkpointRows). */
const VALUES: Field = {
  path: 'values',
  check: recordOf(isObject),
  expected: 'values by channel',
  optional: true,
}
const VERSIONS: Field = {
  path: 'channel_versions',
  check: recordOf(isNumber),
  expected: 'versions by channel',
}
const SEEN: Field = {
  path: 'versions_seen',
  check: recordOf(recordOf(isNumber)),
  expected: 'versions by node',
}
const OWNER: Field = { path: 'owner', check: recordOf(isId), expected: 'checkpoint ids by channel' }
/** The state fields of a delta row (./rowStates): what changed on its parent. */
const DELTA: Field[] = [
  { path: 'parentId', check: isId, expected: 'an id' },
  { path: 'delta', check: isObject, expected: 'an object' },
  { path: 'delta.versions', check: recordOf(isNumber), expected: 'versions by channel' },
  { path: 'delta.seen', check: recordOf(recordOf(isNumber)), expected: 'versions by node' },
  { path: 'delta.depth', check: isInteger, expected: 'an integer' },
]
/** A whole row's fields (in the order their damage is reported). */
const CHECKPOINT: Field[] = [
  ...CHECKPOINT_HEAD,
  VERSIONS,
  SEEN,
  ...CHECKPOINT_METADATA,
  OWNER,
  VALUES,
]
/** A delta row holds no whole state: one that does is of neither form. */
const NOT_WHOLE: Field[] = [VERSIONS, SEEN, OWNER].map((f) => ({
  path: f.path,
  check: (v) => v === undefined,
  expected: 'nothing in a delta row',
}))
const DELTA_CHECKPOINT: Field[] = [
  ...CHECKPOINT_HEAD,
  ...DELTA,
  ...NOT_WHOLE,
  ...CHECKPOINT_METADATA,
  VALUES,
]

const WRITE: Field[] = [
  { path: 'threadId', check: isString, expected: 'a string' },
  { path: 'checkpointId', check: isId, expected: 'an id' },
  { path: 'taskId', check: isString, expected: 'a task id' },
  { path: 'key', check: isString, expected: 'a string' },
  { path: 'channel', check: isString, expected: 'a channel name' },
]

const LOG = shape([
  { path: 'level', check: oneOf(LOG_LEVELS), expected: LOG_LEVELS.join(', ') },
  { path: 'args', check: Array.isArray, expected: 'a list' },
  { path: 'at', check: isNumber, expected: 'a number' },
])
const WARNING = shape([
  { path: 'code', check: isString, expected: 'a string' },
  { path: 'field', check: isString, expected: 'a string', optional: true },
  { path: 'message', check: isString, expected: 'a string' },
])

const TASK_RUN: Field[] = [
  { path: 'threadId', check: isString, expected: 'a string' },
  { path: 'checkpointId', check: isId, expected: 'an id' },
  { path: 'taskId', check: isString, expected: 'a task id' },
  { path: 'name', check: isString, expected: 'a node name' },
  { path: 'durationMs', check: isNumber, expected: 'a number' },
  { path: 'logs', check: arrayOf(LOG), expected: 'a list of logs' },
  {
    path: 'error',
    check: shape([
      { path: 'name', check: isString, expected: 'a string' },
      { path: 'message', check: isString, expected: 'a string' },
    ]),
    expected: 'a name and a message',
    optional: true,
  },
  { path: 'warnings', check: arrayOf(WARNING), expected: 'a list of warnings', optional: true },
]

const THREAD: Field[] = [
  { path: 'threadId', check: isId, expected: 'an id' },
  { path: 'graph', check: isString, expected: 'a graph id' },
  { path: 'name', check: isString, expected: 'a name' },
  { path: 'createdAt', check: isString, expected: 'a time' },
  {
    path: 'settings',
    check: shape([
      { path: 'recursionLimit', check: isInteger, expected: 'an integer', optional: true },
      { path: 'timeoutMs', check: isNumber, expected: 'a number', optional: true },
    ]),
    expected: 'run settings',
    optional: true,
  },
]

const FIELDS: Record<DamageTable, Field[]> = {
  checkpoints: CHECKPOINT,
  writes: WRITE,
  taskRuns: TASK_RUN,
  threads: THREAD,
}

/**
 * The first unreadable field of a row of `table`, or undefined when the row is readable.
 * The one definition of a damaged row: every read path uses it.
 */
export function rowDamage(table: DamageTable, row: unknown): RowDamage | undefined {
  if (!isObject(row)) return { field: '', reason: `the row is ${describeValue(row)}` }
  if (table === 'checkpoints' && row.delta !== undefined) return firstBad(row, DELTA_CHECKPOINT)
  return firstBad(row, FIELDS[table])
}

/**
 * The first unreadable field among those a checkpoint row's children are rebuilt from (its
 * versions, or its delta: ./rowStates), or undefined; its metadata may be damaged.
 */
export function stateFieldsDamage(row: unknown): RowDamage | undefined {
  if (!isObject(row)) return { field: '', reason: `the row is ${describeValue(row)}` }
  const head = CHECKPOINT_HEAD.slice(0, 2)
  return firstBad(
    row,
    row.delta !== undefined ? [...head, ...DELTA] : [...head, VERSIONS, SEEN, OWNER],
  )
}

/** The damage of a checkpoint that names a value row that is not stored. */
export function missingValueDamage(
  threadId: string,
  checkpointId: string,
  channel: string,
  owner: string,
): CheckpointDamage {
  return {
    threadId,
    checkpointId,
    table: 'checkpoints',
    field: `owner.${channel}`,
    reason: `the value of channel ${channel} (stored with checkpoint ${owner}) is missing`,
  }
}

function firstBad(row: Record<string, unknown>, fields: Field[]): RowDamage | undefined {
  for (const f of fields) {
    const v = at(row, f.path)
    if (v === undefined && f.optional) continue
    if (f.check(v)) continue
    const what =
      Array.isArray(v) && f.expected.startsWith('a list')
        ? 'a list with a malformed entry'
        : describeValue(v)
    return { field: f.path, reason: `${f.path} is ${what} (expected ${f.expected})` }
  }
  return undefined
}

function at(row: Record<string, unknown>, path: string): unknown {
  let v: unknown = row
  for (const part of path.split('.')) v = isObject(v) ? v[part] : undefined
  return v
}

function describeValue(v: unknown): string {
  if (v === undefined) return 'missing'
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'a list'
  if (typeof v === 'string') return v.length > 40 ? 'a long string' : JSON.stringify(v)
  if (typeof v === 'number' || typeof v === 'boolean') return String(v)
  return `a ${typeof v === 'object' ? 'malformed object' : typeof v}`
}
