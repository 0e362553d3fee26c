import { rootCause } from './pregel/errors'
import type { ErrorReport } from './report'

/*
 * Errors as plain data: the one place that reads a thrown value's name, message, code, node
 * and position. A thrown value may be anything (user code throws strings) and may come from
 * another realm (the sandbox, LangGraph.js), so fields are read by shape, never `instanceof`
 * (except our own NodeRunError, which never leaves the runtime).
 */

/** The `name` of a thrown value, `Error` when it has none. */
export function errorName(e: unknown): string {
  const n = (e as { name?: unknown } | null)?.name
  return typeof n === 'string' ? n : 'Error'
}

/** The `message` of a thrown value, or the value as a string when it has none. */
export function errorMessage(e: unknown): string {
  const m = (e as { message?: unknown } | null)?.message
  return typeof m === 'string' ? m : String(e)
}

/** LangGraph's `lc_error_code` of a thrown value, whatever realm it came from; null if none. */
export function errorCode(e: unknown): string | null {
  const code = (e as { lc_error_code?: unknown } | null)?.lc_error_code
  return typeof code === 'string' ? code : null
}

/**
 * The error a node raised, and the node, when `e` is a run's NodeRunError; for a node inside
 * subgraphs, `ns` is the node ids from the root down to the graph the node is in.
 */
function unwrap(e: unknown): { cause: unknown; node: string | undefined; ns: string[] } {
  const { cause, nodes } = rootCause(e)
  return { cause, node: nodes.at(-1), ns: nodes.slice(0, -1) }
}

/** Where in the user's code (1-based), when the sandbox could tell. */
function position(e: unknown): { line?: number; column?: number } {
  const { line, column } = (e ?? {}) as { line?: unknown; column?: unknown }
  return {
    ...(typeof line === 'number' && { line }),
    ...(typeof column === 'number' && { column }),
  }
}

/**
 * A thrown value in the report form: what `superstep run` and `superstep session` print and
 * the differential suite compares with LangGraph.js (`code` is LangGraph's, or null).
 */
export function errorToJson(e: unknown): ErrorReport {
  const { cause, node, ns } = unwrap(e)
  return {
    name: errorName(cause),
    message: errorMessage(cause),
    code: errorCode(cause),
    ...position(cause),
    ...(node !== undefined && { node }),
    ...(ns.length > 0 && { ns }),
  }
}

/** An error as it crosses `postMessage` (the worker protocol's WorkerError). */
export interface PostedError {
  name: string
  message: string
  /** LangGraph's `lc_error_code`, else the error's own string `code`; absent when neither. */
  code?: string
  node?: string
  line?: number
  column?: number
}

/**
 * A thrown value as it crosses `postMessage` (or as the page keeps a failed request's error).
 * Besides LangGraph's codes it keeps the own `code` and `node` of Superstep's errors (a refused request, a failed storage write), by which the
 * other side matches them.
 */
export function errorToPosted(e: unknown): PostedError {
  const { cause, node: failed } = unwrap(e)
  const own = (cause ?? {}) as { code?: unknown; node?: unknown }
  const code = errorCode(cause) ?? (typeof own.code === 'string' ? own.code : undefined)
  // An error rebuilt on the other side (RuntimeRequestError) carries its node as a field.
  const node = failed ?? (typeof own.node === 'string' ? own.node : undefined)
  return {
    name: errorName(cause),
    message: errorMessage(cause),
    ...(code !== undefined && { code }),
    ...(node !== undefined && { node }),
    ...position(cause),
  }
}
