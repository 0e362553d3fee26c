/**
 * Checkpoint rows whole or as deltas (see ./db): the state a row stands for (every channel's
 * version, every node's `versions_seen`, the owner of every channel's value: none for a
 * channel that has no value, since storage version 5), rebuilt from
 * the nearest whole row up, with a cache of rebuilt states shared by the saver and the
 * timeline. A put then stores what its step changed, not the size of the graph; a read walks
 * at most MAX_DELTA_DEPTH rows, and past DELTA_DEPTH rows no more entries than the whole row
 * it starts from holds (deltaPlace).
 */
import type { ChannelVersions } from '../core/checkpoint/types'
import type { CheckpointDamage } from './damage'
import { stateFieldsDamage } from './damage'
import type { CheckpointRow, DeltaCheckpointRow, SuperstepDb } from './db'
import { NS_SEPARATOR } from './namespaces'

/** A delta row is written whenever its parent is fewer than this many rows from a whole one. */
export const DELTA_DEPTH = 32

/**
 * A delta row is never written this many rows from a whole one: a thread has a whole row at
 * least every MAX_DELTA_DEPTH checkpoints of a chain.
 */
export const MAX_DELTA_DEPTH = 256

/**
 * Where a row stands in its chain of deltas: its depth, the entries (channel versions and
 * `versions_seen` entries) of the deltas from the whole row up to it, and the entries of
 * that whole row. Kept in memory by whoever puts the chain (rows hold only the depth).
 */
export interface ChainPlace {
  depth: number
  carried: number
  whole: number
}

/**
 * Where a stored row stands: a whole row's entries counted; a delta read back has lost what
 * it carried, so past DELTA_DEPTH its child is whole.
 */
export function chainPlace(r: CheckpointRow): ChainPlace {
  if (!isDelta(r))
    return {
      depth: 0,
      carried: 0,
      whole: Object.keys(r.channel_versions).length + Object.keys(r.versions_seen).length,
    }
  return { depth: r.delta.depth, carried: Infinity, whole: 0 }
}

/**
 * Where a delta of `versions` and `seen` (its channels and nodes) on a row at `parent` would
 * stand, or null when the checkpoint must be stored whole instead. Up to DELTA_DEPTH rows
 * deep a delta always fits; past it, while the deltas from the whole row hold no more entries
 * than the whole row itself, up to MAX_DELTA_DEPTH. So a step of a big graph stores what it
 * touched (a whole row of a 2,000-node chain every 32 steps cost more than the steps), and a
 * read rebuilds a state from at most about twice a whole row's entries.
 */
export function deltaPlace(
  parent: ChainPlace,
  versions: object,
  seen: ReadonlySet<string>,
): ChainPlace | null {
  const depth = parent.depth + 1
  const carried = parent.carried + Object.keys(versions).length + seen.size
  if (depth >= MAX_DELTA_DEPTH || (depth >= DELTA_DEPTH && carried > parent.whole)) return null
  return { depth, carried, whole: parent.whole }
}

/** The state of a checkpoint row. Shared (cached): never mutated, copied by whoever hands it out. */
export interface RowState {
  versions: Readonly<ChannelVersions>
  seen: Readonly<Record<string, ChannelVersions>>
  owner: Readonly<Record<string, string>>
}

/** A state, or why it cannot be rebuilt. */
export type ResolvedState = { state: RowState } | { damage: CheckpointDamage }

export function isDelta(r: CheckpointRow): r is DeltaCheckpointRow {
  return r.delta !== undefined
}

/** How many deltas deep a (readable) row is: 0 for a whole row. */
export function depthOf(r: CheckpointRow): number {
  return isDelta(r) ? r.delta.depth : 0
}

/**
 * Whether delta row `r` emptied `channel` (its held mark, see placeValues in ./checkpointRows):
 * the state then has no owner for it, and no value.
 */
function emptied(r: DeltaCheckpointRow, channel: string): boolean {
  const held: unknown = r.values?.[channel]
  return typeof held === 'object' && held !== null && (held as { empty?: unknown }).empty === true
}

/**
 * The values `r` itself names: all of a whole row's, the changed channels of a delta but
 * those it emptied.
 */
export function ownOwner(r: CheckpointRow): Record<string, string> {
  if (!isDelta(r)) return r.owner
  const out: Record<string, string> = {}
  for (const ch of Object.keys(r.delta.versions)) if (!emptied(r, ch)) out[ch] = r.checkpointId
  return out
}

/**
 * The state of the last of `deltas` (a chain, each row the next one's parent) on the state of
 * the first one's parent: one copy of each map, whatever the chain's length.
 */
export function applyDeltas(parent: RowState, deltas: readonly DeltaCheckpointRow[]): RowState {
  const owner: Record<string, string> = { ...parent.owner }
  const versions: ChannelVersions = { ...parent.versions }
  const seen: Record<string, ChannelVersions> = { ...parent.seen }
  for (const r of deltas) {
    for (const ch of Object.keys(r.delta.versions))
      if (emptied(r, ch)) delete owner[ch]
      else owner[ch] = r.checkpointId
    Object.assign(versions, r.delta.versions)
    Object.assign(seen, r.delta.seen)
  }
  return { versions, seen, owner }
}

/** Recently rebuilt states by stored thread and checkpoint, least recently used dropped first. */
export class StateCache {
  private readonly map = new Map<string, RowState>()

  constructor(private readonly max = 64) {}

  get(threadId: string, checkpointId: string): RowState | undefined {
    const key = `${threadId}\0${checkpointId}`
    const s = this.map.get(key)
    if (s) {
      this.map.delete(key)
      this.map.set(key, s)
    }
    return s
  }

  set(threadId: string, checkpointId: string, state: RowState): void {
    const key = `${threadId}\0${checkpointId}`
    this.map.delete(key)
    this.map.set(key, state)
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value as string)
  }

  /** Forgets the thread's states (its subgraphs' too): its rows were deleted or rewritten. */
  forgetThread(threadId: string): void {
    const prefix = `${threadId}${NS_SEPARATOR}`
    for (const key of [...this.map.keys()]) {
      const thread = key.slice(0, key.indexOf('\0'))
      if (thread === threadId || thread.startsWith(prefix)) this.map.delete(key)
    }
  }
}

/**
 * The states of `rows` (readable rows of stored thread `threadId`), by checkpoint id: delta
 * rows rebuilt from their ancestors, read in as few requests as the chain allows (one range
 * of the rows put just before, then by id for forks). Dexie calls only: runs inside the
 * caller's read transaction. A row whose chain meets a missing or damaged row gets damage.
 */
export async function resolveStates(
  db: SuperstepDb,
  threadId: string,
  rows: readonly CheckpointRow[],
  cache: StateCache,
): Promise<Map<string, ResolvedState>> {
  const out = new Map<string, ResolvedState>()
  const byId = new Map<string, CheckpointRow>()
  for (const r of rows) byId.set(r.checkpointId, r)
  const absent = new Set<string>()
  /** Ancestors not read yet that some row's chain needs. */
  const missing = (): string[] => {
    const need = new Set<string>()
    const done = new Set<string>()
    for (const start of rows) {
      let r: CheckpointRow | undefined = start
      while (r && isDelta(r) && !done.has(r.checkpointId)) {
        done.add(r.checkpointId)
        if (cache.get(threadId, r.checkpointId)) break
        const p: string = r.parentId
        if (absent.has(p)) break
        r = byId.get(p)
        if (!r) need.add(p)
      }
    }
    return [...need]
  }
  let need = missing()
  if (need.length) {
    // A chain's ancestors are, most often, the rows put just before: one range read.
    // As far back as the deepest row's whole row, were its chain all rows put in a row.
    let low = Infinity
    let reach = 0
    for (const r of rows) {
      low = Math.min(low, r.seq)
      reach = Math.max(reach, Math.min(depthOf(r), MAX_DELTA_DEPTH))
    }
    const before = await db.checkpoints
      .where('[threadId+seq]')
      .between([threadId, low - reach], [threadId, low], true, false)
      .toArray()
    for (const r of before) if (!byId.has(r.checkpointId)) byId.set(r.checkpointId, r)
    need = missing()
  }
  while (need.length) {
    const found = await db.checkpoints.bulkGet(need.map((id) => [threadId, id]))
    need.forEach((id, i) => {
      const r = found[i]
      if (r) byId.set(id, r)
      else absent.add(id)
    })
    need = missing()
  }
  const memo = new Map<string, ResolvedState>()
  const wanted = new Set(rows.map((r) => r.checkpointId))
  for (const r of rows) out.set(r.checkpointId, stateOf(r, byId, memo, cache, threadId, wanted))
  return out
}

/** The state of `row`: up its chain to a known state, then down applying deltas. */
function stateOf(
  row: CheckpointRow,
  byId: ReadonlyMap<string, CheckpointRow>,
  memo: Map<string, ResolvedState>,
  cache: StateCache,
  threadId: string,
  /** The rows asked for: only they get a state of their own (the rows between lend changes). */
  wanted: ReadonlySet<string>,
): ResolvedState {
  const done = memo.get(row.checkpointId)
  if (done) return done
  const chain: DeltaCheckpointRow[] = []
  const seen = new Set<string>()
  /** The known state the chain stands on, or what is wrong with the row below it. */
  let base: ResolvedState | 'missing' | 'damaged' | 'part of a loop of parents' | undefined
  let r: CheckpointRow = row
  while (!base) {
    const id = r.checkpointId
    const known = memo.get(id)
    const cached = known ? undefined : cache.get(threadId, id)
    if (known) base = 'state' in known ? known : 'damaged'
    else if (cached) base = { state: cached }
    else if (seen.has(id)) base = 'part of a loop of parents'
    else if (r !== row && stateFieldsDamage(r)) base = 'damaged'
    else if (!isDelta(r))
      base = { state: { versions: r.channel_versions, seen: r.versions_seen, owner: r.owner } }
    else {
      seen.add(id)
      chain.push(r)
      const p = byId.get(r.parentId)
      if (p) r = p
      else base = 'missing'
    }
  }
  // Down the chain: each map of 2,000 channels copied once per row asked for, not per row
  // between (a whole row may be 31 rows up).
  let at: ResolvedState | string = base
  let lent: DeltaCheckpointRow[] = []
  for (let i = chain.length - 1; i >= 0; i--) {
    const c = chain[i] as DeltaCheckpointRow
    if (typeof at === 'string' || 'damage' in at) {
      at = { damage: chainDamage(c, typeof at === 'string' ? at : 'damaged') }
      memo.set(c.checkpointId, at)
      continue
    }
    lent.push(c)
    if (i === 0 || wanted.has(c.checkpointId)) {
      at = { state: applyDeltas(at.state, lent) }
      lent = []
      memo.set(c.checkpointId, at)
    }
  }
  if (typeof at === 'string') return { damage: chainDamage(row, at) } // not reached: row is readable
  if ('state' in at) cache.set(threadId, row.checkpointId, at.state)
  return at
}

function chainDamage(row: DeltaCheckpointRow | CheckpointRow, what: string): CheckpointDamage {
  return {
    threadId: row.threadId,
    checkpointId: row.checkpointId,
    table: 'checkpoints',
    field: 'parentId',
    reason: `its versions are stored as changes on checkpoint ${row.parentId ?? '?'}, which is ${what}`,
  }
}
