import type { ChannelVersions, CheckpointTuple } from '../core/checkpoint/types'
import { parseThreadFile, type ThreadFile } from '../persistence/threadFile'
import { WorkerRequestError } from './errors'
import { toJsonSafe } from './jsonSafe'
import type { WorkerStorage } from './storage'
import { assertUnused, suffixOf } from './threads'

/** The thread as a file: its checkpoints in put order with their pending writes, its task runs. */
export async function exportThread(s: WorkerStorage, threadId: string): Promise<ThreadFile> {
  const checkpoints: CheckpointTuple[] = []
  for await (const t of s.saver.list({ threadId })) checkpoints.push(t)
  checkpoints.reverse() // list is newest first
  const [row, taskRuns] = await Promise.all([
    s.threads.get(threadId),
    s.taskRuns.ofThread(threadId),
  ])
  return toJsonSafe({
    superstepThread: 1,
    threadId,
    name: row?.name ?? suffixOf(threadId),
    checkpoints,
    taskRuns,
  })
}

/**
 * Writes a thread file under a new thread id, as the runtime would have: each checkpoint
 * through the saver's `put` (the channels whose version differs from the parent's as new),
 * its pending writes through `putWrites` (one call per task), then the task runs and the
 * thread's row. A bad file is refused before anything is written; a storage failure
 * halfway deletes what was written.
 */
export async function importThread(
  s: WorkerStorage,
  p: { file: unknown; threadId: string; graph: string; name: string },
  now: string,
): Promise<{ threadId: string; count: number }> {
  const parsed = parseThreadFile(p.file)
  if (!parsed.ok) {
    throw new WorkerRequestError(
      'BAD_THREAD_FILE',
      `Not a Superstep thread file: ${parsed.message}.`,
    )
  }
  const { threadId } = p
  await assertUnused(s, threadId, { allowRow: true })
  const { checkpoints, taskRuns } = parsed.file
  try {
    const versionsOf = new Map<string, ChannelVersions>()
    for (const t of checkpoints) {
      const parentId = t.parentConfig?.checkpointId
      const parent = parentId === undefined ? undefined : versionsOf.get(parentId)
      const { checkpoint } = t
      await s.saver.put(
        { threadId, ...(parentId !== undefined && { checkpointId: parentId }) },
        checkpoint,
        t.metadata,
        parent ? changedVersions(checkpoint.channel_versions, parent) : checkpoint.channel_versions,
      )
      versionsOf.set(checkpoint.id, checkpoint.channel_versions)
      const config = { threadId, checkpointId: checkpoint.id }
      for (const [taskId, writes] of writesByTask(t))
        await s.saver.putWrites(config, writes, taskId)
    }
    await s.taskRuns.record(taskRuns.map((r) => ({ ...r, threadId })))
    await s.threads.put({ threadId, graph: p.graph, name: p.name, createdAt: now })
  } catch (e) {
    await s.saver.deleteThread(threadId).catch(() => {}) // the original error says it all
    throw e
  }
  return { threadId, count: checkpoints.length }
}

function changedVersions(versions: ChannelVersions, parent: ChannelVersions): ChannelVersions {
  const out: ChannelVersions = {}
  for (const [ch, v] of Object.entries(versions)) if (parent[ch] !== v) out[ch] = v
  return out
}

/**
 * A checkpoint's pending writes as `putWrites` calls: one per task, in the order each task
 * first wrote, each keeping its writes' order (what getTuple returns within a task).
 */
function writesByTask(t: CheckpointTuple): Map<string, [string, unknown][]> {
  const out = new Map<string, [string, unknown][]>()
  for (const [taskId, channel, value] of t.pendingWrites) {
    const list = out.get(taskId)
    if (list) list.push([channel, value])
    else out.set(taskId, [[channel, value]])
  }
  return out
}
