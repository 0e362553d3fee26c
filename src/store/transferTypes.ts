import type { ThreadInfo } from '../worker/protocol'

/* The thread-file transfer's types, shared by transferSlice.ts and its lazy transferActions.ts. */

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

/** What the transfer actions need of the rest of the store. */
export interface TransferHost extends TransferState {
  threadId: string
  threads: ThreadInfo[]
  doc: unknown
  message: string | null
  /** The library's import of a thread file's text (the graph first, then the thread). */
  importThread(text: string, fileName: string): Promise<void>
}
