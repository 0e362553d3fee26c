import type { RemoteErrorData, TaskLog } from '../../core/compile/host'
import type { foldWrites as FoldWrites } from '../../core/channels/binaryOperatorAggregate'
import type { routerState as RouterState } from '../../core/compile/fusedRoutes'
import type { nextAnswer as NextAnswer } from '../../core/pregel/interrupt'
import type { Command as CommandClass, Send as SendClass } from '../../core/pregel/types'
import type { toLogValue as ToLogValue } from './logValue'
import type { RouteReply, SandboxReply, SandboxRequest, SubgraphDone } from './sandboxProtocol'
import type { LoopApi, LoopControl, LoopStartRequest } from './loopProtocol'

/** What the sandbox embeds from core (by source text) and puts in user code's scope. */
export interface SandboxLib {
  Send: typeof SendClass
  Command: typeof CommandClass
  nextAnswer: typeof NextAnswer
  foldWrites: typeof FoldWrites
  toLogValue: typeof ToLogValue
  routerState: typeof RouterState
  /** The named reducers (reducers/named.ts's `namedReducers()`), for `routerState`. */
  reducers: Record<string, (a: unknown, b: unknown) => unknown>
  /**
   * Whether user code left a timer pending (the worker's prelude counts them; absent: never,
   * as in Node's tests). See `serve` for what the host makes of it.
   */
  timersPending?: () => boolean
}

/** The port the sandbox serves on (a MessagePort, in a worker or in Node). */
export interface SandboxServePort {
  postMessage(message: unknown): void
  onmessage: ((event: MessageEvent) => void) | null
}

/** The worker global, as far as the sandbox uses it. */
export interface SandboxSelf {
  addEventListener(
    type: 'message',
    listener: (event: { data: unknown; ports: readonly SandboxServePort[] }) => void,
  ): void
}

/**
 * The sandbox worker's program. It is shipped as source text (`sandboxMain.toString()`), so
 * its body must not refer to anything outside itself except globals and its two parameters.
 * It waits for a message carrying a port (type `superstep-sandbox-port`, see
 * sandboxProtocol.ts) and answers SandboxRequests on it.
 */
export function sandboxMain(self: SandboxSelf, lib: SandboxLib): void {
  const { Send, Command, nextAnswer, foldWrites, toLogValue, routerState, reducers } = lib
  const timersPending = lib.timersPending ?? (() => false)
  // Captured now, so user code that replaces globals cannot break the replies.
  const FunctionCtor = Function
  const clone = structuredClone
  const now = performance.now.bind(performance)
  const epoch = () => performance.timeOrigin + now()
  const SCOPE = ['Send', 'Command', 'interrupt', 'START', 'END', 'console', 'subgraphs']
  const NO_SUBGRAPHS = Object.freeze({})
  // Subgraph calls waiting for the host, by `<request id>:<call>`.
  const waiting = new Map<string, { resolve(v: unknown): void; reject(e: Error): void }>()
  const PREFIX = '"use strict";\nreturn ('
  const SUFFIX = '\n)\n//# sourceURL=superstep-code'
  const FRAME = /superstep-code:(\d+):(\d+)/
  const MAX_LOGS = 1000
  const MAX_CACHED = 256
  // runRoutes: a node part this long (ms) has its routers timed apart; so has router code
  // that could loop (a loop, a catch that retries, a generator).
  const SLOW_NODE_MS = 100
  const MAY_LOOP = /\b(?:while|for|do|catch|function)\b/
  type Factory = (...scope: unknown[]) => unknown
  type Call = {
    started: number
    logs: TaskLog[]
    dropped: number
    console: Record<string, (...args: unknown[]) => void>
    /** A traced request's marks (sandboxProtocol's `trace`). */
    marks?: [string, number][]
  }
  const factories = new Map<string, Factory>()
  const noInterrupt = (): never => {
    throw new Error('Called interrupt() outside the context of a graph.')
  }

  const compile = (code: string): Factory => {
    let make = factories.get(code)
    if (!make) {
      make = new FunctionCtor(...SCOPE, PREFIX + code + SUFFIX) as Factory
      if (factories.size >= MAX_CACHED) factories.delete(factories.keys().next().value as string)
      factories.set(code, make)
    }
    return make
  }

  // Where code line 1, column 1 lands in the evaluated function's frames (V8: 3 lines of
  // wrapper, `return (` before the code's first line); measured, with V8's numbers as fallback.
  const origin = (() => {
    try {
      const made = new FunctionCtor(...SCOPE, PREFIX + 'new Error()' + SUFFIX) as Factory
      const m = FRAME.exec(String((made() as Error).stack))
      if (m) return { line: Number(m[1]) - 1, column: Number(m[2]) - 1 }
    } catch {
      // fall through
    }
    return { line: 3, column: 8 }
  })()

  // A logged Error's frames in the user's lines, as `describe` reports a thrown one.
  const FRAMES = /superstep-code:(\d+):(\d+)/g
  const fixStack = (stack: string): string =>
    stack.replace(FRAMES, (_, l: string, c: string) => {
      const line = Math.max(Number(l) - origin.line, 1)
      return `line ${line}, column ${Math.max(line === 1 ? Number(c) - origin.column : Number(c), 1)}`
    })
  // Each argument as plain data that shows its fields (see logValue.ts), never `[object Object]`.
  const plain = (arg: unknown): unknown => toLogValue(arg, fixStack)

  const newCall = (): Call => {
    const call: Call = { started: now(), logs: [], dropped: 0, console: {} }
    const levels = ['log', 'info', 'warn', 'error', 'debug'] as const
    for (const level of levels) {
      call.console[level] = (...args: unknown[]) => {
        if (call.logs.length >= MAX_LOGS) call.dropped += 1
        else call.logs.push({ level, args: args.map(plain), at: now() - call.started })
      }
    }
    const log = call.console.log!
    for (const name of ['dir', 'table', 'trace']) call.console[name] = log
    call.console.assert = (cond: unknown, ...args: unknown[]) => {
      if (!cond) call.console.error!('Assertion failed:', ...args)
    }
    for (const name of ['group', 'groupEnd', 'time', 'timeEnd', 'timeLog', 'count', 'clear']) {
      call.console[name] = () => {}
    }
    return call
  }

  const logsOf = (call: Call): TaskLog[] => {
    if (call.dropped === 0) return call.logs
    const note = `${call.dropped} more log lines were dropped (limit ${MAX_LOGS} per call).`
    return [...call.logs, { level: 'warn', args: [note], at: now() - call.started }]
  }

  const evaluate = (
    code: string,
    what: string,
    call: Call,
    interrupt: (value: unknown) => unknown,
    subgraphs: object = NO_SUBGRAPHS,
  ): ((...args: unknown[]) => unknown) => {
    const fn = compile(code)(
      Send,
      Command,
      interrupt,
      '__start__',
      '__end__',
      call.console,
      subgraphs,
    )
    if (typeof fn !== 'function') {
      const got = fn === null ? 'null' : typeof fn
      throw new TypeError(`The ${what} evaluates to ${got}, not a function.`)
    }
    return fn as (...args: unknown[]) => unknown
  }

  const describe = (e: unknown, code: string): RemoteErrorData => {
    const isObject = typeof e === 'object' && e !== null
    let name = 'Error'
    let message: string
    let stack = ''
    try {
      if (isObject && typeof (e as Error).name === 'string') name = (e as Error).name
      message = isObject && 'message' in e ? String((e as Error).message) : String(e)
      if (isObject) stack = String((e as Error).stack ?? '')
    } catch {
      message = 'The code threw a value that cannot be described.'
    }
    const data: RemoteErrorData = { name, message }
    const m = FRAME.exec(stack)
    if (m) {
      const lines = code.split('\n').length
      const line = Math.min(Math.max(Number(m[1]) - origin.line, 1), lines)
      const column = line === 1 ? Number(m[2]) - origin.column : Number(m[2])
      data.line = line
      data.column = Math.max(column, 1)
    }
    return data
  }

  // The path of the first value structured clone refuses (a function or symbol), if any.
  const findUncloneable = (value: unknown): { path: string; type: string } | null => {
    const seen = new Set<object>()
    const walk = (v: unknown, path: string): { path: string; type: string } | null => {
      if (typeof v === 'function' || typeof v === 'symbol') return { path, type: typeof v }
      if (typeof v !== 'object' || v === null || seen.has(v)) return null
      seen.add(v)
      const entries: [string, unknown][] =
        v instanceof Map ? [...v.entries()].map(([k, x]) => [String(k), x]) : Object.entries(v)
      for (const [k, x] of entries) {
        const next = Array.isArray(v) ? `${path}[${k}]` : path ? `${path}.${k}` : k
        const found = walk(x, next)
        if (found) return found
      }
      return null
    }
    return walk(value, '')
  }

  // Why `payload` cannot be posted (`what` `verb` it), after posting it failed with `e`.
  const cloneProblem = (payload: unknown, what: string, verb: string, e: unknown) => {
    let bad: { path: string; type: string } | null = null
    try {
      bad = findUncloneable(payload)
    } catch {
      // a getter that throws: the generic message below
    }
    const message = bad
      ? `${what} ${verb} a ${bad.type}${bad.path ? ` at path ${bad.path}` : ''}, which cannot leave the sandbox.`
      : `${what} ${verb} a value that cannot leave the sandbox: ${String((e as Error)?.message ?? e)}`
    return { name: 'DataCloneError', message }
  }

  // A router's answer that could not go with its node's reply: why (null when it can).
  const cannotLeave = (value: unknown, what: string, verb: string) => {
    if (typeof value !== 'object' && typeof value !== 'function' && typeof value !== 'symbol')
      return null
    try {
      clone(value)
      return null
    } catch (e) {
      return cloneProblem(value, what, verb, e)
    }
  }

  const send = (port: SandboxServePort, reply: SandboxReply, what: string): void => {
    try {
      port.postMessage(reply)
      return
    } catch (e) {
      const payload =
        reply.kind === 'ok' ? reply.output : reply.kind === 'error' ? undefined : reply.value
      const verb = reply.kind === 'interrupt' ? 'interrupted with' : 'returned'
      const logs = reply.kind === 'error' ? [] : reply.logs
      port.postMessage({
        id: reply.id,
        kind: 'error',
        error: { ...cloneProblem(payload, what, verb, e), logs },
        ...(reply.leftover && { leftover: true }),
      })
    }
  }

  // `subgraphs` for one node run: each name's `invoke(input)` asks the host to run it.
  const subgraphsOf = (
    req: Extract<SandboxRequest, { type: 'runNode' }>,
    port: SandboxServePort,
  ) => {
    if (!Array.isArray(req.subgraphs)) return NO_SUBGRAPHS
    let calls = 0
    const out: Record<string, { invoke(input: unknown): Promise<unknown> }> = {}
    for (const name of req.subgraphs) {
      out[name] = Object.freeze({
        invoke: (input: unknown) =>
          new Promise((resolve, reject) => {
            const n = ++calls
            waiting.set(`${req.id}:${n}`, { resolve, reject })
            try {
              port.postMessage({ id: req.id, kind: 'subgraph', call: n, name, input })
            } catch (e) {
              waiting.delete(`${req.id}:${n}`)
              const error = new Error(
                `The input of subgraph \`${name}\` cannot leave the sandbox: ${String((e as Error)?.message ?? e)}`,
              )
              error.name = 'DataCloneError'
              reject(error)
            }
          }),
      })
    }
    return Object.freeze(out)
  }

  const subgraphDone = (done: SubgraphDone) => {
    const key = `${done.id}:${done.call}`
    const w = waiting.get(key)
    if (!w) return
    waiting.delete(key)
    if (done.ok) return w.resolve(done.output)
    const error = new Error(String(done.error?.message ?? 'The subgraph failed.'))
    error.name = String(done.error?.name ?? 'Error')
    w.reject(error)
  }

  const runNode = async (
    req: Extract<SandboxRequest, { type: 'runNode' }>,
    call: Call,
    port: SandboxServePort,
  ) => {
    const pad = {
      resume: [...req.pad.resume],
      nullResume: req.pad.nullResume,
      counter: req.pad.counter ?? -1,
    }
    let resume: unknown[] | null = null
    let pending: { thrown: Error; value: unknown } | null = null
    // `config` as a run gives it: the run's settings, and a writer of `custom` chunks.
    const custom: unknown[] = []
    const config = req.configurable
      ? Object.freeze({
          configurable: req.configurable,
          writer: (chunk: unknown) => void custom.push(chunk),
        })
      : undefined
    const withCustom = () => (custom.length ? { custom } : {})
    const interrupt = (value: unknown): unknown => {
      const answer = nextAnswer(pad)
      if (answer.found) {
        resume = answer.resume
        return answer.value
      }
      const thrown = new Error('The node paused at interrupt().')
      thrown.name = 'GraphInterrupt'
      pending = { thrown, value }
      throw thrown
    }
    try {
      const scope = subgraphsOf(req, port)
      const fn = evaluate(req.code, `node code of \`${req.owner}\``, call, interrupt, scope)
      // The routers read the state as it was before the node ran (it may change its input).
      const before = req.route ? (clone(req.input) as Record<string, unknown>) : undefined
      const output = await fn(req.input, config)
      call.marks?.push(['sb.node', epoch()])
      const logs = logsOf(call)
      const routes = before ? await runRoutes(req, before, output, port, call) : undefined
      return {
        id: req.id,
        kind: 'ok',
        output,
        resume,
        logs,
        ...withCustom(),
        ...(routes && { routes }),
      } as const
    } catch (e) {
      const p = pending as { thrown: Error; value: unknown } | null
      if (p && e === p.thrown) {
        return {
          id: req.id,
          kind: 'interrupt',
          value: p.value,
          resume,
          logs: logsOf(call),
          ...withCustom(),
        } as const
      }
      throw e
    }
  }

  /**
   * A node's routers on the state its output makes (fusedRoutes.ts), each as runRouter runs
   * one, in order up to the first that fails; undefined where only the runtime can route.
   * The host gives routers a clock of their own once told `routing`; that message is a post
   * and a wake of the host per step, so it is sent only where it can matter: the node took
   * long (its clock is half spent, say), a router's code could loop (MAY_LOOP), or a router
   * awaits (told then, before the wait). A hang of a router that was not told of counts as
   * its node's (docs/runtime.md, "Sandbox calls").
   */
  const runRoutes = async (
    req: Extract<SandboxRequest, { type: 'runNode' }>,
    before: Record<string, unknown>,
    output: unknown,
    port: SandboxServePort,
    node: Call,
  ): Promise<RouteReply[] | undefined> => {
    const route = req.route
    let written: unknown
    try {
      written = clone(output)
    } catch {
      return undefined // the reply fails to leave with its DataCloneError
    }
    const state = route && routerState(before, written, route.fields, reducers, foldWrites)
    if (!route || !state) return undefined
    let told = false
    const tell = () => {
      if (told) return
      told = true
      port.postMessage({ id: req.id, kind: 'routing' })
      node.marks?.push(['sb.routing', epoch()])
    }
    if (now() - node.started > SLOW_NODE_MS || route.routers.some((r) => MAY_LOOP.test(r))) tell()
    const config = req.configurable
      ? Object.freeze({ configurable: req.configurable, writer: () => {} })
      : undefined
    const out: RouteReply[] = []
    for (let i = 0; i < route.routers.length; i++) {
      const code = route.routers[i] as string
      const call = newCall()
      try {
        const fn = evaluate(code, `router code of \`${req.owner}\``, call, noInterrupt)
        // Each router gets a state of its own, as each of the runtime's calls would.
        const answer = fn(i === 0 ? state : clone(state), config)
        if (typeof (answer as { then?: unknown } | null)?.then === 'function') tell()
        const value = await answer
        const uncloneable = cannotLeave(value, `The router of \`${req.owner}\``, 'returned')
        if (uncloneable) {
          out.push({ ok: false, error: { ...uncloneable, logs: logsOf(call) } })
          break
        }
        out.push({ ok: true, value, logs: logsOf(call) })
      } catch (e) {
        out.push({ ok: false, error: { ...describe(e, code), logs: logsOf(call) } })
        break
      }
    }
    node.marks?.push(['sb.routed', epoch()])
    return out
  }

  const run = async (
    req: SandboxRequest,
    call: Call,
    port: SandboxServePort,
  ): Promise<SandboxReply> => {
    switch (req.type) {
      case 'runNode':
        return runNode(req, call, port)
      case 'runRouter': {
        const fn = evaluate(req.code, `router code of \`${req.owner}\``, call, noInterrupt)
        const config = req.configurable
          ? Object.freeze({ configurable: req.configurable, writer: () => {} })
          : undefined
        const value = await fn(req.state, config)
        return { id: req.id, kind: 'value', value, logs: logsOf(call) }
      }
      case 'foldReducer': {
        const fn = evaluate(req.code, `reducer code of \`${req.field}\``, call, noInterrupt)
        const fail = (message: string): never => {
          const e = new Error(message)
          e.name = 'InvalidUpdateError'
          throw e
        }
        const value = foldWrites((a, b) => fn(a, b), req.current, req.values, fail)
        return { id: req.id, kind: 'value', value, logs: logsOf(call) }
      }
      case 'check': {
        // What this says of a piece of code is kept by the worker (codeChecks.ts): a change
        // to it bumps CODE_CHECK_VERSION there.
        let problem: string | null = null
        try {
          evaluate(req.code, `${req.kind} code of \`${req.owner}\``, call, noInterrupt)
        } catch (e) {
          const d = describe(e, req.code)
          problem = `${d.name}: ${d.message}`
        }
        return { id: req.id, kind: 'value', value: problem, logs: logsOf(call) }
      }
      default:
        throw new Error(`Unknown request ${String((req as { type?: unknown }).type)}.`)
    }
  }

  const label = (req: SandboxRequest): string =>
    req.type === 'runNode'
      ? `Node \`${req.owner}\``
      : req.type === 'runRouter'
        ? `The router of \`${req.owner}\``
        : req.type === 'foldReducer'
          ? `The reducer of field \`${req.field}\``
          : `The code of \`${req.owner}\``

  // The run beside the code (loopProtocol.ts): its program, given in the request, runs the
  // graph's loop here and posts its steps; `loopControl` messages go to it.
  let loopControl: ((c: LoopControl) => void) | undefined
  const startLoop = (req: LoopStartRequest, port: SandboxServePort) => {
    try {
      const program = new FunctionCtor(`${req.source}\n;return __superstepLoop;`)() as {
        startLoop(api: LoopApi): void
      }
      program.startLoop({
        request: req,
        post: (m) => port.postMessage(m),
        onControl: (h) => (loopControl = h),
        timersPending,
      })
    } catch (e) {
      const { name, message } = describe(e, '')
      port.postMessage({
        id: req.id,
        kind: 'loop',
        steps: [{ n: 0, ops: [], error: { name, message } }],
      })
    }
  }

  // Calls begun and not yet answered, and whether the last reply said a timer was left.
  let inFlight = 0
  let leftover = false

  /**
   * One request. The host starts a call's clock itself when it knows this sandbox idle: every
   * earlier call answered, and the last reply said no timer of user code was left pending.
   * Then the call begins as it arrives and nothing is said. Otherwise (another call is under
   * way, or a timer left by one may hold this sandbox) `started` says when it began, so a call
   * queued behind others keeps its own clock and a stray spinner is not blamed on it. Each
   * reply says `leftover` when a timer is pending, and the host then waits for `started`.
   */
  const serve = (port: SandboxServePort) => async (event: MessageEvent) => {
    const req = event.data as SandboxRequest | SubgraphDone | LoopStartRequest | LoopControl
    if (typeof req !== 'object' || req === null || typeof req.id !== 'number') return
    if (req.type === 'subgraphDone') return subgraphDone(req)
    if (req.type === 'runLoop') return startLoop(req, port)
    if (req.type === 'loopControl') return loopControl?.(req)
    const marks: [string, number][] | undefined = req.trace ? [['sb.recv', epoch()]] : undefined
    if (inFlight > 0 || leftover) port.postMessage({ id: req.id, kind: 'started' })
    inFlight += 1
    const call = newCall()
    if (marks) {
      marks.push(['sb.started', epoch()])
      call.marks = marks
    }
    let reply: SandboxReply
    try {
      reply = await run(req, call, port)
    } catch (e) {
      reply = { id: req.id, kind: 'error', error: { ...describe(e, req.code), logs: logsOf(call) } }
    }
    if (marks) {
      marks.push(['sb.reply', epoch()])
      reply.at = marks
    }
    inFlight -= 1
    leftover = timersPending()
    if (leftover) reply.leftover = true
    send(port, reply, label(req))
  }

  self.addEventListener('message', (event) => {
    const data = event.data as { type?: unknown } | null
    const port = event.ports[0]
    if (data?.type !== 'superstep-sandbox-port' || !port) return
    const handler = serve(port)
    port.onmessage = (e) => void handler(e)
  })
}
