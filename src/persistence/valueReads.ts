/**
 * Channel values read back. A value is a row of the blobs table or, for the small values of
 * a delta row, an entry of that checkpoint's own row (`values`, see placeValues in
 * ./checkpointRows). Dexie calls only: it runs in its caller's transaction, which must cover
 * the checkpoints and blobs tables.
 */
import type { BlobRow, CheckpointRow, SuperstepDb } from './db'

/** A value wanted: its thread, the checkpoint that owns it (stored it), and its channel. */
export type ValueKey = [threadId: string, owner: string, channel: string]

const rowKey = (threadId: string, checkpointId: string) => `${threadId}\0${checkpointId}`

/** Value `key` as held by row `r`, if it holds it. */
function heldBy(r: CheckpointRow | undefined, [threadId, owner, channel]: ValueKey) {
  const held: unknown = r?.values?.[channel]
  if (typeof held !== 'object' || held === null) return undefined
  return { ...held, threadId, checkpointId: owner, channel } as BlobRow
}

/**
 * The values of `keys` (by the caller's key), undefined where none is stored. `rows` are the
 * checkpoint rows the caller has read already: the values they hold cost nothing more. The
 * others are looked for as value rows, then (those not found) in their owners' rows, which
 * are delta rows, small, when they hold values (a whole row holds none).
 */
export async function readValues(
  db: SuperstepDb,
  keys: ReadonlyMap<string, ValueKey>,
  rows: Iterable<CheckpointRow | undefined>,
): Promise<Map<string, BlobRow | undefined>> {
  const inHand = new Map<string, CheckpointRow>()
  for (const r of rows) if (r) inHand.set(rowKey(r.threadId, r.checkpointId), r)
  const out = new Map<string, BlobRow | undefined>()
  const rest: [string, ValueKey][] = []
  for (const [k, key] of keys) {
    const held = heldBy(inHand.get(rowKey(key[0], key[1])), key)
    if (held) out.set(k, held)
    else rest.push([k, key])
  }
  if (rest.length === 0) return out
  const found = await db.blobs.bulkGet(rest.map(([, key]) => key))
  const elsewhere: [string, ValueKey][] = []
  rest.forEach(([k, key], i) => {
    out.set(k, found[i])
    if (!found[i] && !inHand.has(rowKey(key[0], key[1]))) elsewhere.push([k, key])
  })
  if (elsewhere.length === 0) return out
  const owners = new Map<string, [string, string]>()
  for (const [, [threadId, owner]] of elsewhere)
    owners.set(rowKey(threadId, owner), [threadId, owner])
  const ownerRows = await db.checkpoints.bulkGet([...owners.values()])
  const byKey = new Map([...owners.keys()].map((k, i) => [k, ownerRows[i]]))
  for (const [k, key] of elsewhere) out.set(k, heldBy(byKey.get(rowKey(key[0], key[1])), key))
  return out
}
