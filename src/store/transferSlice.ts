import type { RuntimeRequests } from '../worker/client'
import type { WorkerEvent } from '../worker/protocol'
import type { TransferActions, TransferHost, TransferState } from './transferTypes'
import { loadOnce } from '../lib/loadOnce'

export type { ThreadTransfer, TransferActions, TransferHost, TransferState } from './transferTypes'

export const INITIAL_TRANSFER: TransferState = { transfer: null }

type Set = (partial: Partial<TransferHost>) => void
type Get = () => TransferHost

/**
 * The thread-file transfer actions, and the listener that follows the worker's progress. The
 * listener is there from the start (the worker may report a cleaned-up import at once); the
 * actions' code loads when one is first called, and calls made meanwhile run in their order.
 */
export function createTransferSlice(set: Set, get: Get, client: RuntimeRequests): TransferActions {
  client.on((e) => onTransferEvent(set, get, e))
  const load = loadOnce(
    async (): Promise<TransferActions> =>
      (await import('./transferActions')).transferActions(set, get, client),
    (e) => {
      set({ message: `The thread transfer could not load: ${(e as Error).message}` })
      return null
    },
  )
  return {
    exportThreadFile: async () => (await load())?.exportThreadFile() ?? null,
    importThreadFile: async (file, fileName) =>
      await (await load())?.importThreadFile(file, fileName),
    cancelTransfer: async () => await (await load())?.cancelTransfer(),
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
