/**
 * Messages between the code host (in the runtime worker) and the sandbox worker (in an
 * opaque-origin iframe), over one MessagePort. Types only: the sandbox side imports nothing.
 *
 * Handshake: the worker posts `{ type: SANDBOX_STARTED_MESSAGE }` on `self` when it runs;
 * the iframe then posts `{ type: SANDBOX_PORT_MESSAGE }` with one MessagePort in `ports` to
 * it, and the worker serves requests on that port. Every request
 * carries an `id`; its one reply carries it back.
 */
import type { RouteRequest } from '../../core/compile/fusedRoutes'
import type { RemoteErrorData, ScratchpadData, TaskLog } from '../../core/compile/host'

/** The `type` of the message that hands the sandbox worker its port. */
export const SANDBOX_PORT_MESSAGE = 'superstep-sandbox-port'

/** The `type` of the message the sandbox worker posts on `self` once its program runs. */
export const SANDBOX_STARTED_MESSAGE = 'superstep-sandbox-started'

/** What kind of code a request runs, for messages. */
export type CodeKind = 'node' | 'router' | 'reducer'

/**
 * Host -> sandbox: run one piece of user code. `trace` (a bench's, see ../stepProfile.ts): the
 * reply also carries `at`, when the sandbox received, ran and answered it.
 */
export type SandboxRequest = { trace?: true } & (
  | {
      type: 'runNode'
      id: number
      owner: string
      code: string
      input: unknown
      pad: ScratchpadData
      /** The subgraphs the code may call (`subgraphs.<name>.invoke`); absent: none. */
      subgraphs?: string[]
      /** The run's `config.configurable`; absent: the code gets no config (a check, say). */
      configurable?: Record<string, unknown>
      /**
       * The node's routers, to run on the state its output makes (the input is that state
       * before the node ran); the reply's `routes` has their answers. See fusedRoutes.ts.
       */
      route?: RouteRequest
    }
  | {
      type: 'runRouter'
      id: number
      owner: string
      code: string
      state: unknown
      configurable?: Record<string, unknown>
    }
  | {
      type: 'foldReducer'
      id: number
      field: string
      code: string
      current: unknown
      values: unknown[]
    }
  | { type: 'check'; id: number; owner: string; kind: CodeKind; code: string }
)

/**
 * Host -> sandbox: the end of subgraph call `call` that the code of running node request `id`
 * made: its output values, or the error it raised (an interrupt or a handoff inside the
 * subgraph too, which the host then raises as the node's own).
 */
export type SubgraphDone =
  | { type: 'subgraphDone'; id: number; call: number; ok: true; output: unknown }
  | { type: 'subgraphDone'; id: number; call: number; ok: false; error: RemoteErrorData }

/**
 * Sandbox -> host: the code of running node request `id` calls subgraph `name` (its
 * `call`-th call); the host runs it and answers with SubgraphDone. The node's clock stops
 * while it waits.
 */
export interface SandboxSubgraphCall {
  id: number
  kind: 'subgraph'
  call: number
  name: string
  input: unknown
}

/**
 * Sandbox -> host: the sandbox began request `id` (its timeout counts from here), sent only
 * when the host cannot know it (another call under way, or a timer left pending); `routing`:
 * the node of request `id` is done and its routers begin (the clock starts again, for them),
 * sent only where a router could hang (see sandboxMain's `runRoutes`).
 */
export interface SandboxStarted {
  id: number
  kind: 'started' | 'routing'
}

/** One router's answer in a node's reply: its route and logs, or its error (the last one). */
export type RouteReply =
  { ok: true; value: unknown; logs: TaskLog[] } | { ok: false; error: RemoteErrorData }

/**
 * Sandbox -> host: the one reply to request `id`, after its SandboxStarted (and, for a node
 * whose routers run, its `routing`). `ok` and `interrupt` answer runNode;
 * `value` answers runRouter, foldReducer and check (a problem message or null).
 */
export type SandboxReply = {
  at?: SandboxMarks
  /**
   * User code left a timer pending: the next call may not begin at once, so the host waits
   * for its `started` (see sandboxMain's `serve`).
   */
  leftover?: true
} & (
  | {
      id: number
      kind: 'ok'
      output: unknown
      resume: unknown[] | null
      logs: TaskLog[]
      custom?: unknown[]
      /** With a `route` request that could run here: its routers' answers (fusedRoutes.ts). */
      routes?: RouteReply[]
    }
  | {
      id: number
      kind: 'interrupt'
      value: unknown
      resume: unknown[] | null
      logs: TaskLog[]
      custom?: unknown[]
    }
  | { id: number; kind: 'value'; value: unknown; logs: TaskLog[] }
  | { id: number; kind: 'error'; error: RemoteErrorData }
)

/** A traced call's marks in the sandbox: [name, epoch ms] (see SandboxRequest's `trace`). */
export type SandboxMarks = [string, number][]
