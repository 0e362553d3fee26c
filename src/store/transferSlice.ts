import type { RuntimeRequests } from '../worker/client'
import type { ThreadInfo, WorkerEvent } from '../worker/protocol'

/** A thread file going out or coming in: how far it is, in checkpoints. */
export interface ThreadTransfer {
  /** The thread written or read ('' while a file is still being read and checked). */
  threadId: string
  /** `read`: the worker reads and checks the file (no count yet). */
  phase: 'read' | 'export' | 'import'
  done: number
  total: number
}

export interface TransferState {
  /** The export or import going on (one at a time), or null. */
  transfer: ThreadTransfer | null
}

export interface TransferActions {
  /**
   * The open thread as a file, with the graph document, written in the worker (progress in
   * `transfer`): a Blob to download, or null when there is none or it was cancelled.
   */
  exportThreadFile(): Promise<{ fileName: string; file: Blob } | null>
  /**
   * Imports a thread file: the worker reads and checks it, then (its graph opened as a new
   * untrusted graph) writes its checkpoints in batches, with progress in `transfer`.
   */
  importThreadFile(file: Blob, fileName: string): Promise<void>
  /** Stops the export or import going on; a cancelled import keeps nothing. */
  cancelTransfer(): Promise<void>
}

export const INITIAL_TRANSFER: TransferState = { transfer: null }

/** What the transfer actions need of the rest of the store. */
export interface TransferHost extends TransferState {
  threadId: string
  threads: ThreadInfo[]
  doc: unknown
  message: string | null
  /** The library's import of a thread file's text (the graph first, then the thread). */
  importThread(text: string, fileName: string): Promise<void>
}

type Set = (partial: Partial<TransferHost>) => void
type Get = () => TransferHost

/** The file name of a thread's export: `graph.thread.thread.json`, safe on any disk. */
export function threadFileName(graphName: string, threadName: string): string {
  return `${graphName}.${threadName}.thread.json`.replace(/[^\w.-]+/g, '-')
}

/** The thread-file transfer actions, and the listener that follows the worker's progress. */
export function createTransferSlice(set: Set, get: Get, client: RuntimeRequests): TransferActions {
  client.on((e) => onTransferEvent(set, get, e))
  return {
    async exportThreadFile() {
      const { threadId, doc, threads } = get()
      if (!threadId || get().transfer) return null
      const name = threads.find((t) => t.threadId === threadId)?.name ?? suffixOf(threadId)
      set({ transfer: { threadId, phase: 'export', done: 0, total: 0 } })
      try {
        const { file } = await client.request('exportThreadFile', { threadId, name, graph: doc })
        const graphName = (doc as { name?: string } | null)?.name ?? 'graph'
        return { fileName: threadFileName(graphName, name), file }
      } catch (e) {
        set({ message: `Thread ${name} was not exported: ${(e as Error).message}` })
        return null
      } finally {
        if (get().transfer?.threadId === threadId) set({ transfer: null })
      }
    },

    async importThreadFile(file, fileName) {
      if (get().transfer) return
      set({ transfer: { threadId: '', phase: 'read', done: 0, total: 0 } })
      let read
      try {
        read = await client.request('readThreadFile', { file })
      } catch (e) {
        set({ transfer: null, message: `${fileName}: ${(e as Error).message}` })
        return
      }
      set({ transfer: { threadId: '', phase: 'import', done: 0, total: read.count } })
      // The library opens the graph, then has the worker import the file it already read.
      const staged = { superstepThread: 1, staged: read.fileId, name: read.name, graph: read.graph }
      try {
        await get().importThread(JSON.stringify(staged), fileName)
      } finally {
        set({ transfer: null })
      }
    },

    async cancelTransfer() {
      const t = get().transfer
      if (t?.threadId) await client.request('cancelTransfer', { threadId: t.threadId })
    },
  }
}

function onTransferEvent(set: Set, get: Get, e: WorkerEvent): void {
  if (e.type === 'import_cleaned') {
    const count = e.count.toLocaleString('en')
    set({
      message: `An interrupted import of thread ${e.name} was cleaned up (${count} checkpoints removed).`,
    })
    return
  }
  if (e.type !== 'thread_transfer') return
  const t = get().transfer
  // Only the transfer this page started (its thread id is learnt from the first event).
  if (!t || t.phase === 'read' || (t.threadId && t.threadId !== e.threadId)) return
  if (t.phase !== e.phase) return
  if (e.state !== 'running') return
  set({ transfer: { threadId: e.threadId, phase: e.phase, done: e.done, total: e.total } })
}

function suffixOf(threadId: string): string {
  return threadId.slice(threadId.indexOf(':') + 1)
}
