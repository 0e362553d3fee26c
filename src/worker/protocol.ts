/**
 * Messages between the page and the runtime worker: closed unions, types only (plus tiny
 * guards). The page sends `WorkerRequest`s, each with a numeric `id`; the worker answers
 * each with exactly one `WorkerResponse` carrying that id, and pushes `WorkerEvent`s in
 * batches (`EventBatch`). See docs/worker-protocol.md.
 */
import type { ChannelVersions, CheckpointSource } from '../core/checkpoint/types'
import type { TaskLog } from '../core/compile/host'
import type { CheckpointInspection } from '../core/debug/types'
import type { GraphIssue } from '../core/graph/issues'
import type { StateSnapshot } from '../core/pregel/state'
import type { RuntimeWarning } from '../core/pregel/task'
import type { TaskRunRow, TaskWarning, ThreadSettings } from '../persistence/db'
import type { CheckpointDamage, RowDamage } from '../persistence/damage'
import type { ThreadSummary } from '../persistence/dexieSaver'
import type { ThreadFile } from '../persistence/threadFile'

export type {
  CheckpointDamage,
  CheckpointInspection,
  RowDamage,
  StateSnapshot,
  ThreadSummary,
  TaskLog,
  TaskRunRow,
  ThreadFile,
  RuntimeWarning,
}

/** Plain JSON, what the page may send as input and updates. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

/**
 * An error as it crosses `postMessage`: match it by `name` and `code`, never `instanceof`.
 * `node` names the node whose code failed; `line`/`column` are 1-based inside its code.
 */
export interface WorkerError {
  name: string
  message: string
  code?: string
  node?: string
  line?: number
  column?: number
}

/** Codes of the errors the worker itself raises (core and storage add their own). */
export type WorkerErrorCode =
  | 'NOT_INITIALIZED'
  | 'ALREADY_INITIALIZED'
  | 'UNKNOWN_GRAPH'
  | 'READ_ONLY_GRAPH'
  | 'UNKNOWN_NAMESPACE'
  | 'THREAD_BUSY'
  | 'RUNNING_ELSEWHERE'
  | 'NO_PAUSED_RUN'
  | 'SANDBOX_UNAVAILABLE'
  | 'RUN_TIMEOUT'
  | 'BAD_REQUEST'
  | 'BAD_THREAD_FILE'
  | 'THREAD_EXISTS'
  | 'DAMAGED_ROOT'
  | 'TRANSFER_CANCELLED'
  | 'INTERNAL'
  | 'DISPOSED'
  | 'WORKER_FAILED'

/** A problem in a graph: `parseGraph`'s issues, plus what the sandbox's `check` found. */
export type CompileIssue = GraphIssue | (Omit<GraphIssue, 'code'> & { code: 'CODE_NOT_A_FUNCTION' })

/** A `Send` as the page writes it in a `goto`. */
export interface SendJson {
  node: string
  args: Json
}

/** LangGraph's `Command` as plain data: answer interrupts, write state, route. */
export interface CommandJson {
  resume?: Json
  update?: { [key: string]: Json } | [string, Json][]
  goto?: string | SendJson | (string | SendJson)[]
}

/**
 * How far a `run` or `continue` advances: until the graph ends or pauses (`toEnd`), or one
 * super-step of the graph the run is paused in (`step`: a subgraph a step runs is stepped
 * over), of a subgraph that step runs (`stepInto`), or of the graph the paused-in subgraph
 * belongs to (`stepOut`: the subgraph runs to its end).
 */
export type RunMode = 'toEnd' | 'step' | 'stepInto' | 'stepOut'

/** Where a run paused inside a subgraph: its namespace and latest checkpoint there. */
export interface InnerPause {
  ns: string
  checkpointId: string
  /** The step of that checkpoint in the subgraph's own count. */
  step: number
  /** What the subgraph runs next. */
  next: string[]
}

/** Why a run stopped advancing without finishing. */
export type PauseReason = 'step' | 'pause' | 'interrupt' | 'breakpoint'

/** A pending `interrupt(value)` and the task that raised it. */
export interface InterruptInfo {
  id: string
  value: unknown
  /** The root graph's node whose task raised it (a graph node, for one inside a subgraph). */
  node: string
  taskId: string
  /**
   * Where `interrupt()` was called, when inside a subgraph: the node ids from the root down to
   * the node that called it (`["team", "ask"]`), and that node's graph's checkpoint namespace.
   */
  path?: string[]
  ns?: string
}

export interface RunParams {
  graphId: string
  threadId: string
  /** New input, or `null` to continue the thread (resume, retry, replay from `checkpointId`). */
  input: Json | null
  /** Used instead of `input` when given. */
  command?: CommandJson
  /** Run from this checkpoint (a fork when it is not the latest). */
  checkpointId?: string
  recursionLimit?: number
  /** Wall time the run may spend advancing (paused time not counted) before it is abandoned. */
  timeoutMs?: number
  interruptBefore?: string[] | '*'
  interruptAfter?: string[] | '*'
  /** The run's settings (`config.configurable`); the graph's declared defaults fill the rest. */
  configurable?: Record<string, Json>
  mode: RunMode
}

/**
 * Where a `run` or `continue` left the run. `paused` with reason `step` or `pause` can be
 * continued; `interrupt` and `breakpoint` end the run (start a new one with `input: null`
 * or a `command: { resume }`). `checkpointId` is the thread's newest checkpoint of the run.
 */
export type RunOutcome =
  | { runId: string; status: 'done'; checkpointId: string | null }
  | {
      runId: string
      status: 'paused'
      reason: PauseReason
      next: string[]
      interrupts: InterruptInfo[]
      checkpointId: string | null
      /** Paused between two super-steps of a subgraph (a step into it). */
      inner?: InnerPause
    }
  | { runId: string; status: 'failed'; error: WorkerError }
  | { runId: string; status: 'stopped' }

/**
 * A problem of the worker's own that did not stop the run: the task runs (durations, logs)
 * of a super-step could not be recorded; its checkpoints are unaffected.
 */
export interface RecordingWarning {
  code: 'TASK_RUNS_NOT_RECORDED'
  message: string
}

/** One task that ran from a checkpoint's parent to make it, as the timeline shows it. */
export interface TimelineTask {
  name: string
  /** As recorded when it ran (absent when nothing was recorded, e.g. an older thread). */
  durationMs?: number
  /** Its last attempt failed. */
  failed?: boolean
  /** Its last attempt stopped at `interrupt()` and has not finished since. */
  interrupted?: boolean
  /** What the runtime warned about it when it ran (as recorded). */
  warnings?: TaskWarning[]
  /** A graph node's task: the namespace its subgraph's checkpoints are stored under. */
  ns?: string
}

/** One checkpoint of a thread's timeline: enough to draw it, without its values. */
export interface TimelineEntry {
  checkpointId: string
  parentId?: string
  step: number
  source: CheckpointSource
  createdAt: string
  /** The nodes of its next super-step, as getState's `next`. */
  next: string[]
  /** For a `loop` checkpoint, the tasks of the step that made it, in apply order; else empty. */
  ran: TimelineTask[]
  /**
   * A row of it is damaged (its own: `step` is NaN and `source` a guess when its metadata is
   * unreadable, `next` and `ran` empty; or a pending write or task run, left out).
   */
  damaged?: CheckpointDamage
}

/**
 * A thread as the thread list shows it: named (a row of `threads`) or known only from its
 * checkpoints (named by its id's suffix, `main` for `${graph}:main`).
 */
export interface ThreadInfo {
  threadId: string
  name: string
  /** The graph document's id. */
  graph?: string
  /** When it was created (named), or when its first checkpoint was written. */
  createdAt?: string
  /** Its number of checkpoints (0 for a thread created but never run). */
  count: number
  latestCheckpointId?: string
  latestTs?: string
  /** Its run settings, as last set (absent: the defaults). */
  settings?: ThreadSettings
  /** Its row is damaged: it is listed as if it had none (`repairThread` rewrites it). */
  damaged?: RowDamage
}

export type CompileResult =
  { ok: true; graphId: string; issues: CompileIssue[] } | { ok: false; issues: CompileIssue[] }

export { DEFAULT_SANDBOX_TIMEOUT_MS } from '../core/compile/host'

/** Every operation: what it takes and what it resolves to. */
export interface RequestMap {
  /**
   * Opens the checkpoint database (default 'superstep'); the first request.
   * `sandboxTimeoutMs` is how long one call into the sandbox may run (default 5000).
   */
  init: { params: { dbName?: string; sandboxTimeoutMs?: number }; result: { dbName: string } }
  /**
   * Answers `sandbox_wanted`: the port of the fresh sandbox frame made for `sandboxId`
   * (transfer it). `connected: false` when the worker released that sandbox meanwhile (the
   * page should destroy the frame; the worker closes the port).
   */
  sandboxPort: {
    params: { sandboxId: string; port: MessagePort }
    result: { connected: boolean }
  }
  compile: {
    params: { graph: unknown; options?: { allowNetwork?: boolean } }
    result: CompileResult
  }
  /**
   * Compiles a graph that may not run (it has problems, or is not trusted) so its threads
   * can be read: timeline, inspection, state, history. No code is checked or run; `run` and
   * `updateState` of it are refused (`READ_ONLY_GRAPH`). `graphId: null`: its document is
   * not well-formed enough to read with (see `parseGraph`'s `wellFormed`).
   */
  compileForReading: { params: { graph: unknown }; result: { graphId: string | null } }
  /** Forgets a compiled graph (runs already going keep it). */
  releaseGraph: { params: { graphId: string }; result: { released: boolean } }
  /**
   * Replaces the API keys of the chat-completions provider: base URL (a trailing slash does
   * not matter) → key. Held in the worker's memory only; a key is sent only in the
   * `Authorization` header of calls to its base URL. `count`: the keys now held.
   */
  setModelKeys: { params: { keys: Record<string, string> }; result: { count: number } }
  run: { params: RunParams; result: RunOutcome }
  continue: { params: { threadId: string; mode: RunMode }; result: RunOutcome }
  /** Asks an advancing run to pause at the next barrier; resolves at once. */
  pause: { params: { threadId: string }; result: { pausing: boolean } }
  /** Abandons the thread's run; restarts the sandbox when one of its tasks is still running. */
  stop: { params: { threadId: string }; result: { stopped: boolean; sandboxRestarted: boolean } }
  /**
   * Whether the page watches the thread's stream (its Stream tab is open): runs started on it
   * from now on send every chunk of LangGraph's stream modes (`modes`: only those; the Chat
   * tab asks for `messages`) as `stream_chunk` events.
   */
  watchStream: {
    params: { threadId: string; on: boolean; modes?: string[] }
    result: { watching: boolean }
  }
  updateState: {
    params: {
      graphId: string
      threadId: string
      checkpointId?: string
      /** A subgraph's checkpoint namespace: the update is a checkpoint of that subgraph. */
      checkpointNs?: string
      values: Json
      asNode?: string
    }
    result: { threadId: string; checkpointId: string; warnings: RuntimeWarning[] }
  }
  getState: {
    params: { graphId: string; threadId: string; checkpointId?: string }
    result: StateSnapshot | null
  }
  /** The thread's pending `interrupt()`s at its latest checkpoint (a page reloaded while one waits). */
  pendingInterrupts: { params: { graphId: string; threadId: string }; result: InterruptInfo[] }
  /** Snapshots newest first, all branches. */
  getHistory: {
    params: { graphId: string; threadId: string; limit?: number; before?: string }
    result: StateSnapshot[]
  }
  /**
   * The debugger's view of a checkpoint (the latest when no id): channels, the tasks that
   * made it (with their recorded durations and logs), folds, schedule. Null: no checkpoint.
   */
  inspectCheckpoint: {
    params: { graphId: string; threadId: string; checkpointId?: string; checkpointNs?: string }
    result: CheckpointInspection | null
  }
  /** The thread's checkpoints newest first, all branches, without values. */
  getTimeline: {
    params: {
      graphId: string
      threadId: string
      limit?: number
      before?: string
      /** A subgraph's checkpoints (a task's `ns`) instead of the root graph's. */
      checkpointNs?: string
    }
    result: TimelineEntry[]
  }
  /** One graph's threads (`graph`), or all; oldest first. */
  listThreads: { params: { graph?: string }; result: ThreadInfo[] }
  /** Names a new thread (`THREAD_EXISTS` when it has a row or checkpoints). */
  createThread: {
    params: { threadId: string; graph: string; name: string }
    result: ThreadInfo
  }
  /** Renames a thread; a thread known only from its checkpoints gets a row. */
  renameThread: { params: { threadId: string; name: string }; result: ThreadInfo }
  /** Keeps the thread's run settings (recursion limit, timeout) with it. */
  setThreadSettings: { params: { threadId: string; settings: ThreadSettings }; result: ThreadInfo }
  /**
   * Cuts a thread's damaged part: its damaged checkpoints and every checkpoint after them
   * (with their values, writes and task runs), damaged pending writes and task runs, and
   * rewrites a damaged thread row. `removed`: the checkpoints cut, oldest first; `kept`: how
   * many remain. When the thread's first checkpoint would be cut nothing is removed
   * (`DAMAGED_ROOT`: only deleting the thread is left).
   */
  repairThread: {
    params: { threadId: string }
    result: {
      removed: string[]
      kept: number
      writesRemoved: number
      taskRunsRemoved: number
      threadRowRepaired: boolean
    }
  }
  /** Deletes the thread's checkpoints, writes, task runs and row. */
  deleteThread: { params: { threadId: string }; result: { deleted: true } }
  /** The thread as a file (the page adds the graph document). */
  exportThread: { params: { threadId: string }; result: ThreadFile }
  /**
   * The thread's file, with the graph document `graph`, as one Blob written in the worker a
   * page of checkpoints at a time (`thread_transfer` progress; `cancelTransfer` stops it).
   */
  exportThreadFile: {
    params: { threadId: string; name?: string; graph?: unknown }
    result: { file: Blob; count: number }
  }
  /**
   * Reads and checks a thread file (a File/Blob or its text) in the worker and keeps it:
   * import it with `importThread({ file: { superstepThread: 1, staged: fileId }, … })`.
   * A bad file: `BAD_THREAD_FILE`.
   */
  readThreadFile: {
    params: { file: Blob | string }
    result: { fileId: string; name: string; graph: unknown; count: number }
  }
  /**
   * Writes a thread file's checkpoints (its content, or `{ superstepThread: 1, staged }` for
   * one read by `readThreadFile`) under `threadId` (which must have none) in batches, with its
   * task runs and a row named `name` (marked `importing` until the end). A bad file:
   * `BAD_THREAD_FILE`, nothing written; cancelled: `TRANSFER_CANCELLED`, nothing kept.
   */
  importThread: {
    params: { file: unknown; threadId: string; graph: string; name: string }
    result: { threadId: string; count: number }
  }
  /** Stops the thread's export or import at its next batch (`cancelled`: one was going). */
  cancelTransfer: { params: { threadId: string }; result: { cancelled: boolean } }
}

export type RequestType = keyof RequestMap
export type ParamsOf<K extends RequestType> = RequestMap[K]['params']
export type ResultOf<K extends RequestType> = RequestMap[K]['result']

/** Page → worker. */
export type WorkerRequest = {
  [K in RequestType]: { id: number; type: K; params: ParamsOf<K> }
}[RequestType]

/** Worker → page: the one answer to request `id`; `result`'s type follows the request's. */
export type WorkerResponse<K extends RequestType = RequestType> =
  | { type: 'response'; id: number; ok: true; result: ResultOf<K> }
  | { type: 'response'; id: number; ok: false; error: WorkerError }

/** What every run event carries. */
interface RunEventBase {
  threadId: string
  runId: string
  /** The subgraph run's checkpoint namespace a step, task or checkpoint event is from. */
  ns?: string
}

/** Pushed by the worker as runs progress (never a reply). Values in them are JSON-safe. */
export type WorkerEvent =
  | (RunEventBase & { type: 'run_started'; graphId: string; mode: RunMode })
  | (RunEventBase & { type: 'step_started'; step: number; tasks: { id: string; name: string }[] })
  | (RunEventBase & {
      type: 'task_finished'
      step: number
      taskId: string
      name: string
      writes: [string, unknown][]
      logs: TaskLog[]
      durationMs: number
    })
  | (RunEventBase & {
      type: 'task_failed'
      step: number
      taskId: string
      name: string
      error: WorkerError
    })
  | (RunEventBase & {
      type: 'task_interrupted'
      step: number
      taskId: string
      name: string
      interrupts: { id: string; value: unknown }[]
    })
  | (RunEventBase & {
      type: 'checkpoint_saved'
      checkpointId: string
      step: number
      source: CheckpointSource
      versions: ChannelVersions
    })
  | (RunEventBase & {
      type: 'warning'
      step: number
      warning: RuntimeWarning | RecordingWarning
    })
  | (RunEventBase & {
      type: 'run_paused'
      reason: PauseReason
      next: string[]
      interrupts: InterruptInfo[]
      checkpointId: string | null
      inner?: InnerPause
    })
  | (RunEventBase & {
      /**
       * One chunk of the run's stream as LangGraph.js's `graph.stream(…, { streamMode: [all
       * seven], subgraphs: true })` yields it (a watched thread's runs only): the namespace
       * (node ids from the root down), the mode, the payload; `step`: the root's super-step.
       */
      type: 'stream_chunk'
      seq: number
      step: number
      path: string[]
      mode: string
      payload: unknown
    })
  | (RunEventBase & { type: 'run_finished'; checkpointId: string | null })
  | (RunEventBase & { type: 'run_failed'; error: WorkerError })
  | (RunEventBase & { type: 'run_stopped'; sandboxRestarted: boolean })
  | {
      /**
       * How far a thread file's export or import is (`done` of `total` checkpoints); its last
       * event has `state` done, failed or cancelled.
       */
      type: 'thread_transfer'
      threadId: string
      phase: 'export' | 'import'
      done: number
      total: number
      state: 'running' | 'done' | 'failed' | 'cancelled'
    }
  | {
      /** An import that never finished (a closed or killed page) was deleted: `count` checkpoints. */
      type: 'import_cleaned'
      threadId: string
      name: string
      count: number
    }
  | {
      /**
       * The worker needs a fresh sandbox: create a frame with this network mode (never reuse
       * one that ran code) and send its port with `sandboxPort`.
       */
      type: 'sandbox_wanted'
      sandboxId: string
      allowNetwork: boolean
    }
  | {
      /** The worker is done with this sandbox: destroy its frame (and whatever still runs). */
      type: 'sandbox_released'
      sandboxId: string
    }
  | {
      /** Code hung (a call timed out) or a stopped run's code was still running; its sandbox was released. */
      type: 'sandbox_hung'
      reason: 'timeout' | 'stopped'
      /** Threads whose runs had code running in the sandbox. */
      threadIds: string[]
    }

export type WorkerEventType = WorkerEvent['type']

/** Worker → page: events queued since the last batch, in order. */
export interface EventBatch {
  type: 'events'
  events: WorkerEvent[]
}

/** Everything the worker posts. */
export type WorkerMessage = WorkerResponse | EventBatch

/** Events the page must see at once (a run stopped advancing, a sandbox to make or end): the batcher posts them without waiting. */
export function isTerminalEvent(e: WorkerEvent): boolean {
  return (
    e.type === 'run_paused' ||
    e.type === 'run_finished' ||
    e.type === 'run_failed' ||
    e.type === 'run_stopped' ||
    e.type.startsWith('sandbox_')
  )
}

/** Whether a message from the worker is a response (rather than an event batch). */
export function isWorkerResponse(m: WorkerMessage): m is WorkerResponse {
  return m.type === 'response'
}

/** A loose check that data received by the worker looks like a request. */
export function isWorkerRequest(m: unknown): m is WorkerRequest {
  if (typeof m !== 'object' || m === null) return false
  const r = m as { id?: unknown; type?: unknown; params?: unknown }
  return typeof r.id === 'number' && typeof r.type === 'string' && typeof r.params === 'object'
}
