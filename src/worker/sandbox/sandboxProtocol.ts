/**
 * Messages between the code host (in the runtime worker) and the sandbox worker (in an
 * opaque-origin iframe), over one MessagePort. Types only: the sandbox side imports nothing.
 *
 * Handshake: the worker posts `{ type: SANDBOX_STARTED_MESSAGE }` on `self` when it runs;
 * the iframe then posts `{ type: SANDBOX_PORT_MESSAGE }` with one MessagePort in `ports` to
 * it, and the worker serves requests on that port. Every request
 * carries an `id`; its one reply carries it back.
 */
import type { RemoteErrorData, ScratchpadData, TaskLog } from '../../core/compile/host'

/** The `type` of the message that hands the sandbox worker its port. */
export const SANDBOX_PORT_MESSAGE = 'superstep-sandbox-port'

/** The `type` of the message the sandbox worker posts on `self` once its program runs. */
export const SANDBOX_STARTED_MESSAGE = 'superstep-sandbox-started'

/** What kind of code a request runs, for messages. */
export type CodeKind = 'node' | 'router' | 'reducer'

/** Host -> sandbox: run one piece of user code. */
export type SandboxRequest =
  | {
      type: 'runNode'
      id: number
      owner: string
      code: string
      input: unknown
      pad: ScratchpadData
    }
  | { type: 'runRouter'; id: number; owner: string; code: string; state: unknown }
  | {
      type: 'foldReducer'
      id: number
      field: string
      code: string
      current: unknown
      values: unknown[]
    }
  | { type: 'check'; id: number; owner: string; kind: CodeKind; code: string }

/** Sandbox -> host: the sandbox began request `id` (its timeout counts from here). */
export interface SandboxStarted {
  id: number
  kind: 'started'
}

/**
 * Sandbox -> host: the one reply to request `id`, after its SandboxStarted. `ok` and `interrupt` answer runNode;
 * `value` answers runRouter, foldReducer and check (a problem message or null).
 */
export type SandboxReply =
  | { id: number; kind: 'ok'; output: unknown; resume: unknown[] | null; logs: TaskLog[] }
  | { id: number; kind: 'interrupt'; value: unknown; resume: unknown[] | null; logs: TaskLog[] }
  | { id: number; kind: 'value'; value: unknown; logs: TaskLog[] }
  | { id: number; kind: 'error'; error: RemoteErrorData }
