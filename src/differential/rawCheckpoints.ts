/**
 * Raw checkpoints for the differential suite: every checkpoint one thread's saver holds, in
 * put order, with every channel's version, every node's `versions_seen` and the raw
 * `channel_values`, read from LangGraph.js's MemorySaver and from Superstep's. Tests only.
 */
import type { MemorySaver as LangGraphSaver } from '@langchain/langgraph'
import type { MemorySaver } from '../core/checkpoint/memorySaver'

type Versions = Record<string, number>

/** One stored checkpoint, as either saver gives it back. */
export interface RawCheckpoint {
  source: string
  step: number
  channel_versions: Versions
  versions_seen: Record<string, Versions>
  channel_values: Record<string, unknown>
}

/**
 * A channel version as a number. LangGraph.js 1.x numbers versions 1, 2, 3… (the saver's
 * `getNextVersion` is `current + 1`), as Superstep does, so nothing is normalised: a version
 * of any other shape (Python's `"0000…0002.0.123"` strings) is an error, never mapped.
 */
function asVersion(v: unknown, where: string): number {
  if (typeof v === 'number' && Number.isInteger(v)) return v
  throw new TypeError(`${where}: version ${JSON.stringify(v)} is not an integer`)
}

function versionsOf(map: Record<string, unknown>, where: string): Versions {
  return Object.fromEntries(
    Object.entries(map).map(([ch, v]) => [ch, asVersion(v, `${where} ${ch}`)]),
  )
}

interface AnyCheckpoint {
  channel_values: Record<string, unknown>
  channel_versions: Record<string, unknown>
  versions_seen: Record<string, Record<string, unknown>>
}

function rawOf(c: AnyCheckpoint, source: unknown, step: unknown): RawCheckpoint {
  const where = `${String(source)} checkpoint at step ${String(step)}`
  return {
    source: String(source),
    step: Number(step),
    channel_versions: versionsOf(c.channel_versions, `${where}: channel_versions`),
    versions_seen: Object.fromEntries(
      Object.entries(c.versions_seen).map(([node, seen]) => [
        node,
        versionsOf(seen, `${where}: versions_seen.${node}`),
      ]),
    ),
    channel_values: c.channel_values,
  }
}

/**
 * The thread's checkpoints from LangGraph's MemorySaver, by `getTuple`, in the order of
 * `putIds` (the ids its `put` was called with). `list` must yield exactly those checkpoints,
 * newest first, and agree with `getTuple` on every one.
 */
export async function readLangGraphThread(
  saver: LangGraphSaver,
  threadId: string,
  putIds: readonly string[],
): Promise<RawCheckpoint[]> {
  const listed: string[] = []
  for await (const t of saver.list({ configurable: { thread_id: threadId, checkpoint_ns: '' } })) {
    listed.push(JSON.stringify([t.config.configurable?.checkpoint_id, t.checkpoint, t.metadata]))
  }
  const out: RawCheckpoint[] = []
  const fetched: string[] = []
  for (const id of putIds) {
    const config = { configurable: { thread_id: threadId, checkpoint_ns: '', checkpoint_id: id } }
    const t = await saver.getTuple(config)
    if (!t) throw new Error(`LangGraph: getTuple finds no checkpoint ${id}`)
    fetched.push(JSON.stringify([id, t.checkpoint, t.metadata]))
    out.push(rawOf(t.checkpoint, t.metadata?.source, t.metadata?.step))
  }
  if (JSON.stringify(listed.reverse()) !== JSON.stringify(fetched)) {
    throw new Error('LangGraph: list (reversed) is not the put order, or disagrees with getTuple')
  }
  return out
}

/** The thread's checkpoints from Superstep's MemorySaver, in put order (list is newest first). */
export async function readSuperstepThread(
  saver: MemorySaver,
  threadId: string,
): Promise<RawCheckpoint[]> {
  const out: RawCheckpoint[] = []
  for await (const t of saver.list({ threadId })) {
    out.push(rawOf(t.checkpoint, t.metadata.source, t.metadata.step))
  }
  return out.reverse()
}
