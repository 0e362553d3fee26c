/**
 * The loop beside the code (issue 18): a run whose Pregel loop runs in its sandbox, next to
 * the user's code, so a super-step costs no round trip between the runtime worker and the
 * sandbox. The sandbox posts each super-step's saver calls and events, in the order the loop
 * made them; the worker replays them onto its own saver (IndexedDB) and event sink, so what
 * is stored and shown is what the loop in the worker would have made. Types and the error
 * wire form only: both sides import this.
 */
import type {
  ChannelVersions,
  Checkpoint,
  CheckpointAddress,
  CheckpointConfig,
  CheckpointMetadata,
  CheckpointTuple,
} from '../../core/checkpoint/types'
import { NodeRunError } from '../../core/pregel/errors'
import type { LoopEvent, RunConfig, RunStatus, TaskInterrupt } from '../../core/pregel/loop'
import type { GraphSpec } from '../../core/graph/schema'

/** Host -> sandbox: run `spec` from `seed` with the loop program `source` (loopMain's bundle). */
export interface LoopStartRequest {
  type: 'runLoop'
  id: number
  source: string
  spec: GraphSpec
  input: unknown
  config: RunConfig
  /**
   * What the loop reads from the saver when it starts: the tuple `config` addresses (the
   * thread's latest without a checkpoint id), and with an id, the thread's latest too.
   */
  seed: { at: CheckpointTuple | undefined; head: CheckpointTuple | undefined }
  /** Whether the worker's saver is incremental (the loop then hands it what changed only). */
  incremental: boolean
  /** Each code call's time limit in the sandbox. */
  timeoutMs: number
  /** The loop may run super-steps up to this many (counted from 1) before the next `allow`. */
  allow: number
}

/** What the sandbox hands the loop program (loopMain's `startLoop`). */
export interface LoopApi {
  request: LoopStartRequest
  post(message: LoopBatch | LoopAlive): void
  /** Registers the handler of the host's `loopControl` messages. */
  onControl(handler: (c: LoopControl) => void): void
  /** The worker prelude's count of user timers (see sandboxMain). */
  timersPending?: () => boolean
}

/** Host -> sandbox: the loop may run up to super-step `allow` (0 or less: none more). */
export interface LoopControl {
  type: 'loopControl'
  id: number
  allow: number
}

/** One saver call or event of the loop, in order. */
export type LoopOp =
  | ['event', PackedEvent]
  | [
      'put',
      CheckpointConfig,
      Checkpoint,
      CheckpointMetadata,
      ChannelVersions,
      /** changedSeen, for an incremental saver. */
      string[] | null,
    ]
  | ['writes', CheckpointAddress, [string, unknown][], string]

/** A loop event whose error (task_failed) is in its wire form. */
export type PackedEvent =
  LoopEvent | (Extract<LoopEvent, { type: 'task_failed' }> & { error: PackedError })

/**
 * What the loop's start (`n` 0) or its `n`-th super-step did, and where the run stands after
 * it: `status`, or `error` when the start or the step threw.
 */
export interface LoopStep {
  n: number
  ops: LoopOp[]
  status?: RunStatus
  interrupts?: TaskInterrupt[]
  error?: PackedError
  /** User code left a timer pending after this step (one that may yet hold the sandbox). */
  leftover?: true
  /**
   * What step `n` did so far, its code still running (posted when that code waits); the
   * rest of the step, with its status, comes in a later LoopStep of the same `n`.
   */
  partial?: true
}

/** Sandbox -> host: steps done, in order (one a message: see loopMain). */
export interface LoopBatch {
  id: number
  kind: 'loop'
  steps: LoopStep[]
}

/** Sandbox -> host: code is running (sent at most every so often), so the run is not hung. */
export interface LoopAlive {
  id: number
  kind: 'loopAlive'
}

/** An error as it crosses postMessage: its class is lost, its fields and causes are kept. */
export interface PackedError {
  name: string
  message: string
  stack?: string
  /** Own fields that clone (code, lc_error_code, line, column, logs, ...). */
  fields?: Record<string, unknown>
  /** A NodeRunError: the node it wraps the cause for. */
  node?: string
  cause?: PackedError | { value: unknown }
}

const SKIP = new Set(['name', 'message', 'stack', 'cause'])

/** `e` in its wire form (NodeRunError chains kept, so the worker finds the failed node). */
export function packError(e: unknown): PackedError {
  if (e instanceof NodeRunError) {
    return { name: e.name, message: e.message, node: e.node, cause: packCause(e.cause) }
  }
  if (typeof e !== 'object' || e === null) return { name: 'Error', message: String(e) }
  const o = e as Record<string, unknown>
  const fields: Record<string, unknown> = {}
  for (const k of Object.keys(o)) {
    if (SKIP.has(k)) continue
    const v = o[k]
    if (typeof v === 'function' || typeof v === 'symbol') continue
    try {
      fields[k] = structuredClone(v)
    } catch {
      // a field that does not clone stays behind
    }
  }
  return {
    name: typeof o.name === 'string' ? o.name : 'Error',
    message: typeof o.message === 'string' ? o.message : String(e),
    ...(typeof o.stack === 'string' && { stack: o.stack }),
    ...(Object.keys(fields).length > 0 && { fields }),
    ...('cause' in o && o.cause !== undefined && { cause: packCause(o.cause) }),
  }
}

function packCause(c: unknown): PackedError | { value: unknown } {
  if (typeof c === 'object' && c !== null && 'message' in c) return packError(c)
  try {
    return { value: structuredClone(c) }
  } catch {
    return { value: String(c) }
  }
}

/** The error `packError` made `p` from: an Error with its name and fields (or a NodeRunError). */
export function unpackError(p: PackedError): Error {
  const cause = p.cause && ('value' in p.cause ? p.cause.value : unpackError(p.cause))
  if (p.node !== undefined) return new NodeRunError(cause, p.node)
  const e = new Error(p.message, ...(p.cause ? [{ cause }] : []))
  e.name = p.name
  if (p.stack !== undefined) e.stack = p.stack
  if (p.fields) Object.assign(e, p.fields)
  return e
}
