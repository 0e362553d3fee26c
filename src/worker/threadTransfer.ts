import type { CheckpointTuple } from '../core/checkpoint/types'
import type { RuntimeEnv } from '../lib/env'
import type { TaskRunRow, ThreadRow } from '../persistence/db'
import { parseThreadFile, type ThreadFile } from '../persistence/threadFile'
import { headText, ITEM_SEPARATOR, itemText, tailParts } from '../persistence/threadFileText'
import { storedThreadId } from '../persistence/namespaces'
import { WorkerRequestError } from './errors'
import { runningElsewhere, type ThreadLocks } from './threadLocks'
import { toJsonSafe } from './jsonSafe'
import type { WorkerEvent } from './protocol'
import type { WorkerStorage } from './storage'
import { assertUnused, suffixOf } from './threads'

/** Checkpoints written per transaction by an import. */
export const IMPORT_BATCH = 200
/** Checkpoints serialised between two progress events of an export. */
const EXPORT_PAGE = 100
/**
 * An import whose row was last marked longer ago than this (and before this worker started)
 * has no importer left: every batch refreshes the mark, and a batch takes well under a second.
 */
export const STALE_IMPORT_MS = 10_000
/** Files read but not imported yet that the worker keeps (the oldest is let go). */
const STAGED_MAX = 3

/** The thread as a file: its checkpoints in put order with their pending writes, its task runs. */
export async function exportThread(s: WorkerStorage, threadId: string): Promise<ThreadFile> {
  const checkpoints: CheckpointTuple[] = []
  for await (const t of s.saver.list({ threadId })) checkpoints.push(t)
  checkpoints.reverse() // list is newest first
  const [row, taskRuns] = await Promise.all([
    s.threads.get(threadId),
    s.taskRuns.ofThread(threadId),
  ])
  const inner: CheckpointTuple[] = []
  for (const checkpointNs of await s.saver.namespaces(threadId)) {
    const tuples: CheckpointTuple[] = []
    for await (const t of s.saver.list({ threadId, checkpointNs })) tuples.push(t)
    inner.push(...tuples.reverse())
  }
  return toJsonSafe({
    superstepThread: 1,
    threadId,
    name: row?.name ?? suffixOf(threadId),
    checkpoints,
    taskRuns,
    ...(inner.length > 0 && { subgraphCheckpoints: inner }),
    ...(row?.settings && { settings: row.settings }),
  })
}

/** A thread file read by `readThreadFile`, named in `importThread`'s `file` instead of its content. */
export interface StagedThreadFile {
  superstepThread: 1
  staged: string
}

interface Transfer {
  cancelled: boolean
}

export interface ThreadTransfersOptions {
  storage: () => WorkerStorage
  emit: (e: WorkerEvent) => void
  env: () => RuntimeEnv
  /**
   * The threads' Web Locks: an import holds its thread's lock, so an import whose lock is
   * free has no importer left (exact, at once); without locks, the time rule below decides.
   */
  locks?: ThreadLocks
}

/**
 * Thread files in and out of storage, for big threads: an export writes the file's text a
 * page of checkpoints at a time into one Blob; an import reads and checks the file here (not
 * in the page), then writes it in batched transactions. Both report `thread_transfer`
 * progress and stop at the next page or batch when cancelled. An import marks the thread's
 * row while it runs; `sweep` deletes the imports whose importer is gone.
 */
export class ThreadTransfers {
  private readonly active = new Map<string, Transfer>()
  private readonly staged = new Map<string, ThreadFile>()
  /** When this worker first swept (at `init`): its start. */
  private startedAt: number | undefined
  private sweeping: Promise<void> | undefined

  constructor(private readonly o: ThreadTransfersOptions) {}

  /** The thread's file as one Blob: exactly the text the page used to write. */
  async exportFile(p: {
    threadId: string
    name?: string
    graph?: unknown
  }): Promise<{ file: Blob; count: number }> {
    const s = this.o.storage()
    const { threadId } = p
    const transfer = this.begin(threadId)
    try {
      const [total, row] = await Promise.all([
        s.threads.checkpointCount(threadId),
        s.threads.get(threadId),
      ])
      this.progress(threadId, 'export', 0, total)
      const items: string[] = [] // newest first, as list gives them
      for await (const t of s.saver.list({ threadId })) {
        items.push(itemText(toJsonSafe(t)))
        if (items.length % EXPORT_PAGE === 0) {
          this.check(transfer, threadId, 'export')
          this.progress(threadId, 'export', items.length, total)
        }
      }
      items.reverse()
      // The subgraphs' checkpoints, one namespace after another, each oldest first.
      const inner: string[] = []
      for (const checkpointNs of await s.saver.namespaces(threadId)) {
        const page: string[] = []
        for await (const t of s.saver.list({ threadId, checkpointNs }))
          page.push(itemText(toJsonSafe(t)))
        inner.push(...page.reverse())
        this.check(transfer, threadId, 'export')
      }
      const runs = (await s.taskRuns.ofThread(threadId)).map((r) => itemText(toJsonSafe(r)))
      this.check(transfer, threadId, 'export')
      const name = p.name ?? row?.name ?? suffixOf(threadId)
      const parts = [headText({ threadId, name, empty: !items.length })]
      items.forEach((item, i) => (i ? parts.push(ITEM_SEPARATOR, item) : parts.push(item)))
      parts.push(
        ...tailParts({
          hadCheckpoints: items.length > 0,
          taskRuns: runs,
          graph: p.graph,
          subgraphCheckpoints: inner,
          settings: row?.settings,
        }),
      )
      const file = new Blob(parts, { type: 'application/json' })
      this.progress(threadId, 'export', items.length, items.length, 'done')
      return { file, count: items.length }
    } catch (e) {
      this.ended(threadId, 'export', e)
      throw e
    } finally {
      this.active.delete(threadId)
    }
  }

  /**
   * Reads and checks a thread file (its text, or a Blob/File), keeping it for `importThread`:
   * what the page needs to make its graph, and the id to import it by.
   */
  async readFile(p: {
    file: Blob | string
  }): Promise<{ fileId: string; name: string; graph: unknown; count: number }> {
    const text = typeof p.file === 'string' ? p.file : await p.file.text()
    let data: unknown
    try {
      data = JSON.parse(text)
    } catch (e) {
      throw badFile(`it is not JSON (${(e as Error).message})`)
    }
    const file = checked(data)
    const fileId = this.o.env().newId()
    this.staged.set(fileId, file)
    for (const old of this.staged.keys()) if (this.staged.size > STAGED_MAX) this.staged.delete(old)
    const graph = (data as { graph?: unknown }).graph
    return { fileId, name: file.name, graph, count: file.checkpoints.length }
  }

  /**
   * Writes a thread file (its content, or a file read by `readFile`) under a new thread id,
   * with exactly the rows the saver's `put`/`putWrites` would have written, `IMPORT_BATCH`
   * checkpoints per transaction. The row is written first, marked `importing`; a refused
   * file writes nothing; a storage failure or a cancel deletes what was written.
   */
  async importFile(p: {
    file: unknown
    threadId: string
    graph: string
    name: string
  }): Promise<{ threadId: string; count: number }> {
    const s = this.o.storage()
    const file = this.fileOf(p.file)
    const { threadId } = p
    await assertUnused(s, threadId, { allowRow: true })
    const unlock = this.o.locks ? await this.o.locks.hold(threadId) : () => undefined
    if (!unlock) throw runningElsewhere(threadId, 'import into it')
    let transfer: Transfer
    try {
      transfer = this.begin(threadId)
    } catch (e) {
      unlock()
      throw e
    }
    const now = () => this.o.env().now()
    const row: ThreadRow = {
      threadId,
      graph: p.graph,
      name: p.name,
      createdAt: now(),
      // The run settings go with the thread (a file from before they did has none).
      ...(file.settings && { settings: file.settings }),
    }
    const { checkpoints } = file
    const inner = file.subgraphCheckpoints ?? []
    const total = checkpoints.length + inner.length
    const runsFrom = groupRuns(file.taskRuns, threadId)
    try {
      const cursor = await s.imports.begin(row, now())
      this.progress(threadId, 'import', 0, total)
      for (let i = 0; i < checkpoints.length; i += IMPORT_BATCH) {
        this.check(transfer, threadId, 'import')
        const batch = checkpoints.slice(i, i + IMPORT_BATCH)
        const runs = batch.flatMap((t) => runsFrom.get(t.checkpoint.id) ?? [])
        await s.imports.writeBatch(cursor, batch, runs, row, now())
        this.progress(threadId, 'import', i + batch.length, total)
      }
      // Each subgraph namespace is stored as a history of its own (see namespaces.ts).
      let done = checkpoints.length
      for (const [checkpointNs, tuples] of byNamespace(inner)) {
        const nsCursor = {
          threadId: storedThreadId(threadId, checkpointNs),
          seq: 0,
          rows: new Map(),
        }
        for (let i = 0; i < tuples.length; i += IMPORT_BATCH) {
          this.check(transfer, threadId, 'import')
          const batch = tuples.slice(i, i + IMPORT_BATCH)
          await s.imports.writeBatch(nsCursor, batch, [], row, now())
          done += batch.length
          this.progress(threadId, 'import', done, total)
        }
      }
      this.check(transfer, threadId, 'import')
      await s.imports.finish(row)
    } catch (e) {
      await s.saver.deleteThread(threadId).catch(() => {}) // the original error says it all
      this.ended(threadId, 'import', e)
      throw e
    } finally {
      this.active.delete(threadId)
      unlock()
    }
    if (typeof p.file === 'object' && p.file && 'staged' in p.file)
      this.staged.delete(String(p.file.staged))
    this.progress(threadId, 'import', total, total, 'done')
    return { threadId, count: checkpoints.length }
  }

  /** Asks the thread's export or import to stop (an import then deletes what it wrote). */
  cancel(threadId: string): { cancelled: boolean } {
    const t = this.active.get(threadId)
    if (t) t.cancelled = true
    return { cancelled: t !== undefined }
  }

  /**
   * Deletes every thread whose import never finished: marked `importing`, not importing in
   * this worker, and either its thread lock free (with locks: no tab imports it) or, without
   * locks, last marked before this worker started and over STALE_IMPORT_MS ago (so another
   * tab's import, which marks its row every batch, is left alone). Tells the page of
   * each (`import_cleaned`). Sweeps one at a time.
   */
  sweep(): Promise<void> {
    this.sweeping ??= this.sweepOnce().finally(() => (this.sweeping = undefined))
    return this.sweeping
  }

  private async sweepOnce(): Promise<void> {
    const s = this.o.storage()
    const now = Date.parse(this.o.env().now())
    this.startedAt ??= now
    const cutoff = Math.min(this.startedAt, now - STALE_IMPORT_MS)
    for (const r of await s.imports.importing()) {
      if (this.active.has(r.threadId)) continue
      // With locks: the importer is gone exactly when its lock is free (taken here meanwhile).
      const unlock = this.o.locks
        ? await this.o.locks.hold(r.threadId)
        : Date.parse(r.importing ?? '') < cutoff
          ? () => undefined
          : null
      if (!unlock) continue
      try {
        const count = await s.threads.checkpointCount(r.threadId)
        await s.saver.deleteThread(r.threadId)
        this.o.emit({ type: 'import_cleaned', threadId: r.threadId, name: r.name, count })
      } finally {
        unlock()
      }
    }
  }

  private fileOf(file: unknown): ThreadFile {
    const staged = (file as Partial<StagedThreadFile> | null)?.staged
    if (typeof staged !== 'string') return checked(file)
    const found = this.staged.get(staged)
    if (!found) throw badFile(`file ${staged} was not read here or was let go: open the file again`)
    return found
  }

  private begin(threadId: string): Transfer {
    if (this.active.has(threadId))
      throw new WorkerRequestError(
        'THREAD_BUSY',
        `Thread ${threadId} is being exported or imported already: wait for it or cancel it.`,
        'ThreadBusyError',
      )
    const t: Transfer = { cancelled: false }
    this.active.set(threadId, t)
    return t
  }

  private check(t: Transfer, threadId: string, phase: 'export' | 'import'): void {
    if (!t.cancelled) return
    throw new WorkerRequestError(
      'TRANSFER_CANCELLED',
      phase === 'import'
        ? `The import of thread ${threadId} was cancelled: nothing of it was kept.`
        : `The export of thread ${threadId} was cancelled.`,
      'TransferCancelledError',
    )
  }

  private progress(
    threadId: string,
    phase: 'export' | 'import',
    done: number,
    total: number,
    state: 'running' | 'done' | 'failed' | 'cancelled' = 'running',
  ): void {
    this.o.emit({ type: 'thread_transfer', threadId, phase, done, total, state })
  }

  private ended(threadId: string, phase: 'export' | 'import', e: unknown): void {
    const cancelled = (e as { code?: string }).code === 'TRANSFER_CANCELLED'
    this.progress(threadId, phase, 0, 0, cancelled ? 'cancelled' : 'failed')
  }
}

function checked(data: unknown): ThreadFile {
  const parsed = parseThreadFile(data)
  if (!parsed.ok) throw badFile(parsed.message)
  return parsed.file
}

function badFile(message: string): WorkerRequestError {
  return new WorkerRequestError('BAD_THREAD_FILE', `Not a Superstep thread file: ${message}.`)
}

/** A file's subgraph checkpoints by namespace, each in file (put) order. */
function byNamespace(tuples: CheckpointTuple[]): Map<string, CheckpointTuple[]> {
  const out = new Map<string, CheckpointTuple[]>()
  for (const t of tuples) {
    const ns = t.config.checkpointNs ?? ''
    const list = out.get(ns)
    if (list) list.push(t)
    else out.set(ns, [t])
  }
  return out
}

/** The file's task runs under the new thread id, by the checkpoint they ran from. */
function groupRuns(runs: TaskRunRow[], threadId: string): Map<string, TaskRunRow[]> {
  const out = new Map<string, TaskRunRow[]>()
  for (const r of runs) {
    const row = { ...r, threadId }
    const list = out.get(r.checkpointId)
    if (list) list.push(row)
    else out.set(r.checkpointId, [row])
  }
  return out
}
