import { rowDamage, type RowDamage } from '../persistence/damage'
import type { ThreadRow, ThreadSettings } from '../persistence/db'
import type { ThreadSummary } from '../persistence/dexieSaver'
import { WorkerRequestError } from './errors'
import type { ThreadInfo } from './protocol'
import type { WorkerStorage } from './storage'

/** The suffix of `${graph}:${suffix}` (the whole id when it has no graph part). */
export function suffixOf(threadId: string): string {
  return threadId.slice(threadId.indexOf(':') + 1)
}

/** The graph part of `${graph}:${suffix}`, if any. */
export function graphOf(threadId: string): string | undefined {
  const i = threadId.indexOf(':')
  return i > 0 ? threadId.slice(0, i) : undefined
}

/**
 * The threads of `graph` (its rows, and the checkpoint threads `${graph}:…` that have no
 * row, named by their suffix), or every thread; oldest first.
 */
export async function listThreadInfos(s: WorkerStorage, graph?: string): Promise<ThreadInfo[]> {
  const prefix = graph === undefined ? undefined : `${graph}:`
  const [listed, summaries] = await Promise.all([
    s.threads.list(graph),
    s.saver.listThreads(prefix === undefined ? {} : { prefix }),
  ])
  // A damaged row is listed as if there were none, with its damage (repairThread rewrites it).
  const damaged = new Map<string, RowDamage>()
  const readable = (r: ThreadRow | undefined): r is ThreadRow => {
    const d = r && rowDamage('threads', r)
    if (d && r) damaged.set(r.threadId, d)
    return r !== undefined && !d
  }
  const rows = listed.filter(readable)
  const byId = new Map(rows.map((r) => [r.threadId, r]))
  const bySummary = new Map(summaries.map((t) => [t.threadId, t]))
  // A row of this graph under another id (an import's choice) is summarised on its own.
  const strays = rows.filter((r) => prefix !== undefined && !r.threadId.startsWith(prefix))
  for (const { summary } of await Promise.all(strays.map((r) => readThread(s, r.threadId))))
    if (summary) bySummary.set(summary.threadId, summary)
  // A checkpoint thread named as another graph's is that graph's, not this one's.
  const unnamed = summaries.filter((t) => !byId.has(t.threadId))
  const elsewhere =
    prefix === undefined ? [] : await s.threads.getMany(unnamed.map((t) => t.threadId))
  const taken = new Set(elsewhere.filter(readable).map((r) => r.threadId))
  const out = [
    ...rows.map((r) => toInfo(r.threadId, r, bySummary.get(r.threadId))),
    ...unnamed
      .filter((t) => !taken.has(t.threadId))
      .map((t) => toInfo(t.threadId, undefined, t, damaged.get(t.threadId))),
    // A damaged row of a thread without checkpoints, so it can still be repaired or deleted.
    ...[...damaged]
      .filter(([id]) => !bySummary.has(id) && (prefix === undefined || id.startsWith(prefix)))
      .map(([id, d]) => toInfo(id, undefined, undefined, d)),
  ]
  return out.sort((a, b) => cmp(sortKey(a), sortKey(b)) || cmp(a.threadId, b.threadId))
}

/** One thread's info (it need not exist: count 0). */
export async function threadInfo(s: WorkerStorage, threadId: string): Promise<ThreadInfo> {
  const { row, summary, damaged } = await readThread(s, threadId)
  return toInfo(threadId, row, summary, damaged)
}

/** The thread's row (none when damaged: then `damaged` says why) and summary. */
async function readThread(s: WorkerStorage, threadId: string) {
  const [stored, summary] = await Promise.all([
    s.threads.get(threadId),
    s.saver.threadSummary(threadId),
  ])
  const damaged = stored && rowDamage('threads', stored)
  return { row: damaged ? undefined : stored, summary, damaged }
}

/** Names a new thread; refused when the id has a row or checkpoints already. */
export async function createThread(
  s: WorkerStorage,
  p: { threadId: string; graph: string; name: string },
  now: string,
): Promise<ThreadInfo> {
  await assertUnused(s, p.threadId)
  const row: ThreadRow = { threadId: p.threadId, graph: p.graph, name: p.name, createdAt: now }
  await s.threads.put(row)
  return toInfo(p.threadId, row, undefined)
}

/** Renames a thread; one without a row gets a row (its graph from its id). */
export async function renameThread(
  s: WorkerStorage,
  p: { threadId: string; name: string },
  now: string,
): Promise<ThreadInfo> {
  const { row, summary } = await readThread(s, p.threadId)
  const renamed: ThreadRow = row
    ? { ...row, name: p.name }
    : {
        threadId: p.threadId,
        graph: graphOf(p.threadId) ?? '',
        name: p.name,
        createdAt: summary?.firstTs ?? now,
      }
  await s.threads.put(renamed)
  return toInfo(p.threadId, renamed, summary)
}

/** Keeps a thread's run settings; one without a row gets a row (its graph from its id). */
export async function setThreadSettings(
  s: WorkerStorage,
  p: { threadId: string; settings: ThreadSettings },
  now: string,
): Promise<ThreadInfo> {
  const { row, summary } = await readThread(s, p.threadId)
  const base: ThreadRow = row ?? {
    threadId: p.threadId,
    graph: graphOf(p.threadId) ?? '',
    name: suffixOf(p.threadId),
    createdAt: summary?.firstTs ?? now,
  }
  const kept: ThreadRow = { ...base, settings: p.settings }
  await s.threads.put(kept)
  return toInfo(p.threadId, kept, summary)
}

/** Refuses a thread id that already has a row or checkpoints (`THREAD_EXISTS`). */
export async function assertUnused(
  s: WorkerStorage,
  threadId: string,
  o: { allowRow?: boolean } = {},
): Promise<void> {
  const [row, count] = await Promise.all([
    s.threads.get(threadId),
    s.threads.checkpointCount(threadId),
  ])
  if (count > 0 || (row && !o.allowRow)) {
    throw new WorkerRequestError(
      'THREAD_EXISTS',
      `Thread ${threadId} already exists${count > 0 ? ` with ${count} checkpoints` : ''}: pick another id.`,
    )
  }
}

/**
 * Cuts the thread's damaged part (ThreadRepair). `DAMAGED_ROOT`, nothing removed, when its
 * first checkpoint is damaged: no consistent thread is left, only deleting it.
 */
export async function repairThread(s: WorkerStorage, threadId: string, now: string) {
  const out = await s.repair.repair(threadId, { graph: graphOf(threadId) ?? '', now })
  if (!out.ok) {
    const { root, damaged } = out
    throw new WorkerRequestError(
      'DAMAGED_ROOT',
      `The first checkpoint ${root.checkpointId} of thread ${threadId} is damaged (${root.reason}), ` +
        `so no checkpoint of the thread can be kept (${damaged} damaged). Nothing was removed: ` +
        `export the thread to keep what is readable, then delete the thread.`,
      'DamagedRootError',
    )
  }
  const { removed, kept, writesRemoved, taskRunsRemoved, threadRowRepaired } = out
  return { removed, kept, writesRemoved, taskRunsRemoved, threadRowRepaired }
}

function toInfo(
  threadId: string,
  row: ThreadRow | undefined,
  summary: ThreadSummary | undefined,
  damaged?: RowDamage,
): ThreadInfo {
  const graph = row?.graph || graphOf(threadId)
  const createdAt = row?.createdAt ?? summary?.firstTs
  return {
    threadId,
    name: row?.name ?? suffixOf(threadId),
    ...(graph !== undefined && { graph }),
    ...(createdAt !== undefined && { createdAt }),
    count: summary?.count ?? 0,
    ...(summary && { latestCheckpointId: summary.latestCheckpointId, latestTs: summary.latestTs }),
    ...(row?.settings && { settings: row.settings }),
    ...(damaged && { damaged }),
  }
}

function sortKey(t: ThreadInfo): string {
  return t.createdAt ?? t.latestTs ?? ''
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
