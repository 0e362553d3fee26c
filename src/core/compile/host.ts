/**
 * Where user code runs when it must not run in the runtime's own realm: a sandbox the
 * runtime talks to by messages (the browser's sandboxed worker). Everything crossing this
 * interface is plain data (structured-clone safe); Send and Command come back as plain
 * objects with `lg_name` and are rebuilt by the runtime.
 */
/**
 * How a write folds into a field, as the host computes it: `last` (LastValue), a named
 * reducer (BinaryOperatorAggregate), or null where only the runtime can (a channel field,
 * add_messages, which assigns ids, a custom reducer).
 */
export type FieldFold = 'last' | 'append' | 'add' | 'union' | 'merge' | null

/** What a node call carries so that its routers run in the same call (see fusedRoutes.ts). */
export interface RouteRequest {
  /** The code of each router to run, in the order of the node's conditional edges. */
  routers: string[]
  /** Every state field in document order, with how a write folds into it. */
  fields: [string, FieldFold][]
}

/** What a task knows about answers to its `interrupt()` calls (see pregel/interrupt.ts). */
export interface ScratchpadData {
  /** Answers this task already consumed, in call order (a resume map's answer included). */
  resume: unknown[]
  /** A thread-wide `Command({ resume })` value, when one is waiting. */
  nullResume?: { value: unknown }
  /**
   * The index of the task's last `interrupt()` call so far (-1, the default: none). Set
   * when one task makes several calls to the host (the tool calls of a tools node), so
   * the next call's `interrupt()` takes the next answer, as one scratchpad would.
   */
  counter?: number
}

/** One line a task logged through `console.*`. */
export interface TaskLog {
  level: 'log' | 'info' | 'warn' | 'error' | 'debug'
  /** The arguments, each made plain data (or a string when it cannot be). */
  args: unknown[]
  /** Milliseconds since the call started. */
  at: number
}

/**
 * A node's run in the host. `resume` is the answers list after the run (its `__resume__` write).
 * `routes`, when the call asked for its routers ({@link RouteRequest}) and the host could run
 * them: one per router in order, up to the first that failed; each reports the router's logs
 * as a router call would, then returns its route or throws its error.
 */
export type RemoteNodeResult = (
  | {
      kind: 'ok'
      output: unknown
      resume: unknown[] | null
      logs: TaskLog[]
      routes?: (() => unknown)[]
    }
  | { kind: 'interrupt'; value: unknown; resume: unknown[] | null; logs: TaskLog[] }
) & {
  /** What the code gave `config.writer`, in order (the run's `custom` stream chunks). */
  custom?: unknown[]
}

/** An error that came out of user code in the host, with where it happened. */
export interface RemoteErrorData {
  name: string
  message: string
  /** 1-based line and column inside the user's code string, when known. */
  line?: number
  column?: number
  logs?: TaskLog[]
}

/**
 * Runs node, router and reducer code. Each call evaluates `code` (an expression evaluating to
 * a function) with LangGraph's names in scope and applies it; a rejection carries a
 * `RemoteErrorData`-shaped error (name, message, line, column).
 */
/**
 * What node code in a host may call back into the runtime for: `subgraphs.<name>.invoke`,
 * each name a subgraph in the node's scope, run by the task that called it.
 */
export interface NodeHostCalls {
  subgraphs: readonly string[]
  invoke(name: string, input: unknown): Promise<unknown>
  /** The run's `config.configurable`: the code gets `(input, config)` as in a run here. */
  configurable?: Record<string, unknown>
}

export interface CodeHost {
  /**
   * Runs a node on its input; `interrupt()` follows the scratchpad; `calls` serves its
   * `subgraphs.<name>.invoke` calls (absent: the code has none in scope). With `route`, the
   * host may also run the node's routers on the state its output makes (see fusedRoutes.ts).
   */
  runNode(
    owner: string,
    code: string,
    input: unknown,
    pad: ScratchpadData,
    calls?: NodeHostCalls,
    route?: RouteRequest,
  ): Promise<RemoteNodeResult>
  /** Runs a router on the state; resolves to its route (names, Sends as plain objects). */
  runRouter(
    owner: string,
    code: string,
    state: unknown,
    configurable?: Record<string, unknown>,
  ): Promise<unknown>
  /**
   * Folds one super-step's writes into a custom-reducer field exactly as
   * BinaryOperatorAggregate does (`foldWrites` in channels/binaryOperatorAggregate.ts):
   * `current` is undefined when the field has no value.
   */
  foldReducer(field: string, code: string, current: unknown, values: unknown[]): Promise<unknown>
  /** Checks that `code` evaluates to a function; resolves to null or a problem message. */
  check(owner: string, kind: 'node' | 'router' | 'reducer', code: string): Promise<string | null>
}

/** How long one call of node code may run before its sandbox is destroyed, unless set (ms). */
export const DEFAULT_SANDBOX_TIMEOUT_MS = 5000
