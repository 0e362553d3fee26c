import type { RuntimeRequests } from '../worker/client'
import { suffixOf } from './threadName'
import type { TransferActions, TransferHost } from './transferTypes'

type Set = (partial: Partial<TransferHost>) => void
type Get = () => TransferHost

/** The file name of a thread's export: `graph.thread.thread.json`, safe on any disk. */
export function threadFileName(graphName: string, threadName: string): string {
  return `${graphName}.${threadName}.thread.json`.replace(/[^\w.-]+/g, '-')
}

/**
 * The thread-file transfer actions themselves: a chunk of their own, loaded by
 * `createTransferSlice` when one is first called (the page does not need them to start).
 */
export function transferActions(set: Set, get: Get, client: RuntimeRequests): TransferActions {
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
