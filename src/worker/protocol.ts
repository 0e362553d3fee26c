/**
 * Messages between the page and the runtime worker: closed unions, types only (plus tiny
 * guards). The page sends `WorkerRequest`s, each with a numeric `id`; the worker answers
 * each with exactly one `WorkerResponse` carrying that id, and pushes `WorkerEvent`s in
 * batches (`EventBatch`). See docs/worker-protocol.md.
 */
import type { ChannelVersions, CheckpointSource } from '../core/checkpoint/types'
import type { TaskLog } from '../core/compile/host'
import type { GraphIssue } from '../core/graph/issues'
import type { StateSnapshot } from '../core/pregel/state'
import type { RuntimeWarning } from '../core/pregel/task'
import type { ThreadSummary } from '../persistence/dexieSaver'

export type { StateSnapshot, ThreadSummary, TaskLog, RuntimeWarning }

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
  | 'THREAD_BUSY'
  | 'NO_PAUSED_RUN'
  | 'SANDBOX_UNAVAILABLE'
  | 'RUN_TIMEOUT'
  | 'BAD_REQUEST'
  | 'INTERNAL'
  | 'DISPOSED'
  | 'WORKER_FAILED'

/** A problem in a graph: `parseGraph`'s issues, plus what the sandbox's `check` found. */
export type CompileIssue =
  GraphIssue | (Omit<GraphIssue, 'code'> & { code: 'CODE_NOT_A_FUNCTION' | 'NETWORK_BLOCKED' })

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

/** How far a `run` or `continue` advances: one super-step, or until the graph ends or pauses. */
export type RunMode = 'toEnd' | 'step'

/** Why a run stopped advancing without finishing. */
export type PauseReason = 'step' | 'pause' | 'interrupt' | 'breakpoint'

/** A pending `interrupt(value)` and the task that raised it. */
export interface InterruptInfo {
  id: string
  value: unknown
  node: string
  taskId: string
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
    }
  | { runId: string; status: 'failed'; error: WorkerError }
  | { runId: string; status: 'stopped' }

export type CompileResult =
  { ok: true; graphId: string; issues: CompileIssue[] } | { ok: false; issues: CompileIssue[] }

/** Every operation: what it takes and what it resolves to. */
export interface RequestMap {
  /**
   * Opens the checkpoint database (default 'superstep'); the first request.
   * `sandboxTimeoutMs` is how long one call into the sandbox may run (default 5000).
   */
  init: { params: { dbName?: string; sandboxTimeoutMs?: number }; result: { dbName: string } }
  /** Hands over the sandbox's port (transfer it); later ports replace the first. */
  sandboxPort: {
    params: { port: MessagePort; allowNetwork?: boolean }
    result: { replaced: boolean }
  }
  compile: {
    params: { graph: unknown; options?: { allowNetwork?: boolean } }
    result: CompileResult
  }
  /** Forgets a compiled graph (runs already going keep it). */
  releaseGraph: { params: { graphId: string }; result: { released: boolean } }
  run: { params: RunParams; result: RunOutcome }
  continue: { params: { threadId: string; mode: RunMode }; result: RunOutcome }
  /** Asks an advancing run to pause at the next barrier; resolves at once. */
  pause: { params: { threadId: string }; result: { pausing: boolean } }
  /** Abandons the thread's run; restarts the sandbox when one of its tasks is still running. */
  stop: { params: { threadId: string }; result: { stopped: boolean; sandboxRestarted: boolean } }
  updateState: {
    params: {
      graphId: string
      threadId: string
      checkpointId?: string
      values: Json
      asNode?: string
    }
    result: { threadId: string; checkpointId: string; warnings: RuntimeWarning[] }
  }
  getState: {
    params: { graphId: string; threadId: string; checkpointId?: string }
    result: StateSnapshot | null
  }
  /** Snapshots newest first, all branches. */
  getHistory: {
    params: { graphId: string; threadId: string; limit?: number; before?: string }
    result: StateSnapshot[]
  }
  listThreads: { params: Record<string, never>; result: ThreadSummary[] }
  deleteThread: { params: { threadId: string }; result: { deleted: true } }
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
  | (RunEventBase & { type: 'warning'; step: number; warning: RuntimeWarning })
  | (RunEventBase & {
      type: 'run_paused'
      reason: PauseReason
      next: string[]
      interrupts: InterruptInfo[]
      checkpointId: string | null
    })
  | (RunEventBase & { type: 'run_finished'; checkpointId: string | null })
  | (RunEventBase & { type: 'run_failed'; error: WorkerError })
  | (RunEventBase & { type: 'run_stopped'; sandboxRestarted: boolean })
  | {
      /** The sandbox must be replaced: destroy the frame, create one, send `sandboxPort`. */
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

/** Events after which a run stops advancing: the batcher posts them at once. */
export function isTerminalEvent(e: WorkerEvent): boolean {
  return (
    e.type === 'run_paused' ||
    e.type === 'run_finished' ||
    e.type === 'run_failed' ||
    e.type === 'run_stopped' ||
    e.type === 'sandbox_hung'
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
