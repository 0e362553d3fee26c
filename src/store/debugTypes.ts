import type { CheckpointInspection, StateChange } from '../core/debug/types'
import type { GraphSpec } from '../core/graph/schema'
import type {
  InnerPause,
  Json,
  RunMode,
  ThreadInfo,
  TimelineEntry,
  WorkerError,
} from '../worker/protocol'
import type { TransferActions, TransferHost, TransferState } from './transferTypes'

/* The debugger's types, shared by debugSlice.ts and its lazy debugActions.ts. */

/** The debugger's part of the app state: threads, the timeline, the selected checkpoint. */
export interface DebugState extends TransferState {
  /** The open graph's threads (persisted with the graph). */
  threads: ThreadInfo[]
  /** Thread lists asked of the worker so far; `threadsRead`: the one `threads` came from. */
  threadsAsked: number
  threadsRead: number
  /** The thread's checkpoints, newest first, all branches. */
  timeline: TimelineEntry[]
  /** The thread has checkpoints older than the last one in `timeline`. */
  olderAvailable: boolean
  /** The checkpoint shown everywhere; null follows the newest. */
  selectedCheckpointId: string | null
  /** The shown checkpoint's channels, tasks and schedule. */
  inspection: CheckpointInspection | null
  /** The checkpoint the diff compares the shown one with; null: its parent. */
  compareWith: string | null
  diff: { from: string | null; to: string; changes: StateChange[] } | null
  /** The Diff tab is open: the diff follows the shown checkpoint (it costs two reads). */
  diffWanted: boolean
  /** Where the inspector's code editor should show a line (a clicked error). */
  focusCode: { node: string; line?: number; column?: number; seq: number } | null
  /**
   * A checkpoint of the thread found damaged when it was read in full (a missing state value
   * the timeline does not read), with why; null when none was.
   */
  readDamage: { checkpointId: string; reason: string } | null
  /** The namespace of the shown checkpoint: `''` the root graph's, else a subgraph's. */
  selectedNs: string
  /** Subgraph timelines read so far, by namespace (a graph node task's `ns`), newest first. */
  inner: Record<string, TimelineEntry[]>
  /** The subgraph timelines shown under their parent steps. */
  innerOpen: string[]
}

export interface DebugActions extends TransferActions {
  /**
   * Shows a checkpoint on the canvas and in every tab (null: follow the newest); `ns` is the
   * namespace of a subgraph's checkpoint (default: the root graph's).
   */
  selectCheckpoint(id: string | null, ns?: string): Promise<void>
  /**
   * Reads a checkpoint the user is likely to pick next (the pointer rests on its row), so that
   * the pick shows its channels at once. Only checkpoints that no longer change are kept.
   */
  prefetchCheckpoint(id: string): void
  /** Shows or hides, under its parent step, the checkpoints a graph node's subgraph made. */
  toggleInner(ns: string): Promise<void>
  /** A run paused inside a subgraph: its checkpoints read and open, its latest selected. */
  showInner(at: Pick<InnerPause, 'ns' | 'checkpointId'>): Promise<void>
  /** Compares the shown checkpoint with another one (null: its parent). */
  setCompareWith(id: string | null): Promise<void>
  /** Runs again from a checkpoint: the new checkpoints branch from it. */
  replayFrom(id: string, mode?: RunMode): Promise<void>
  /**
   * Writes `valuesText` (a JSON state update, checked against the schema) at checkpoint
   * `id` as if `asNode` wrote it: a new checkpoint branching from `id`, which is selected.
   * Returns the error, or null.
   */
  /** `ns`: a subgraph's checkpoint (the latest of a subgraph whose step has not ended). */
  forkFrom(id: string, valuesText: string, asNode?: string, ns?: string): Promise<string | null>
  newThread(name?: string): Promise<void>
  switchThread(threadId: string): Promise<void>
  renameThread(threadId: string, name: string): Promise<void>
  deleteThread(threadId: string): Promise<void>
  /**
   * Cuts the open thread's damaged part (its damaged checkpoints and every one after them,
   * damaged writes and task runs, a damaged thread row), then shows what is left and says
   * what was removed. A thread whose first checkpoint is damaged is left as it is.
   */
  repairThread(): Promise<void>
  /** The thread (graph and checkpoints) as a file to download. */
  exportThread(): Promise<{ fileName: string; text: string } | null>
  /** Selects a node and asks its code editor to show a line. */
  openCode(node: string, line?: number, column?: number): void
  /** Appends the next page of older checkpoints to the timeline. */
  loadOlder(): Promise<void>
  /** Reloads the threads of the open graph; with `openLatest`, opens the one used last. */
  refreshThreads(options?: { openLatest?: boolean }): Promise<void>
  /**
   * Reloads the shown checkpoint's inspection (and diff, when wanted). `pending` is state to
   * set in the same update, so a new timeline and its inspection render once.
   */
  refreshInspection(pending?: Partial<DebugState>, isCurrent?: () => boolean): Promise<void>
  /** The Diff tab opened (true) or closed (false). */
  setDiffWanted(wanted: boolean): Promise<void>
}

/** What the slice needs of the rest of the app store. */
export interface DebugHost extends DebugState, Pick<TransferHost, 'importThread'> {
  graphId: string | null
  /** `graphId` reads the thread only (see ShellState): no fork from it. */
  graphReadOnly: boolean
  threadId: string
  doc: unknown
  /** The document as the format reads it (null: it does not match). */
  spec: GraphSpec | null
  current: { id: string; name: string; trusted?: boolean } | null
  runState: string
  message: string | null
  error: WorkerError | null
  refreshHistory(limit?: number): Promise<void>
  setSelection(s: { nodes: string[]; edges: string[] }): void
  /** Starts a run on the current thread with these extra params. */
  startRun(mode: RunMode, extra: { input: Json | null; checkpointId?: string }): Promise<void>
  /** Clears the run status for a thread that was switched to or created. */
  resetRun(): void
  /** Stops this tab's run of the open thread before another thread is shown. */
  leaveRun(): Promise<void>
  /** Shows a level of the document on the canvas (a subgraph's checkpoint opens its own). */
  openLevel(path: string[]): void
}
