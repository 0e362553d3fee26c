import { checkExpressionSyntax } from '../../core/graph/code'
import type {
  CodeHost,
  NodeHostCalls,
  RemoteErrorData,
  RemoteNodeResult,
  ScratchpadData,
  TaskLog,
} from '../../core/compile/host'
import { judgeMessage } from './replyCheck'
import {
  capitalize,
  describeRef,
  messageOf,
  protocolError,
  restarted,
  SandboxError,
  seconds,
  type SandboxCallRef,
} from './hostErrors'
import { DEFAULT_SANDBOX_TIMEOUT_MS } from '../protocol'
import { mark, profiled, tracing } from '../stepProfile'
import type { RouteRequest } from '../../core/compile/fusedRoutes'
import type {
  CodeKind,
  RouteReply,
  SandboxReply,
  SandboxRequest,
  SubgraphDone,
} from './sandboxProtocol'
import type { LoopControl, LoopStartRequest } from './loopProtocol'

export { SandboxError, type SandboxCallRef }

/** The host's end of the channel to the sandbox worker (a MessagePort). */
export interface SandboxPort {
  postMessage(message: unknown): void
  onmessage: ((event: MessageEvent) => void) | null
  /** A message that arrived but could not be copied in (too deep for this thread's stack). */
  onmessageerror?: ((event: MessageEvent) => void) | null
  close(): void
}

/** Where the messages of a run beside the code go (SandboxCodeHost's `startLoop`). */
export interface LoopHandlers {
  message(data: unknown): void
  gone(why: string): void
}

/** A run beside the code, from the host's side. */
export interface LoopSession {
  /** Lets the run go on up to super-step `allow`. */
  allow(allow: number): void
  /** The run is over for this host: its messages are dropped from now on. */
  close(): void
}

/** Options of a SandboxCodeHost. */
export interface SandboxHostOptions {
  /** How long a call may take before the sandbox counts as hung; default 5000 ms. */
  timeoutMs?: number
  /** Largest reply accepted, measured as JSON characters; default 32 MB. */
  maxReplyBytes?: number
  /**
   * The sandbox hung (a call timed out). The owner of the iframe should destroy it, create
   * a fresh one and pass its port to `replacePort`. Calls made meanwhile wait for that port.
   */
  onHung?: (ref: SandboxCallRef) => void
  /** Logs of router, reducer and check calls (node logs are part of the node's result). */
  onLogs?: (ref: SandboxCallRef, logs: TaskLog[]) => void
  /** A message from the sandbox was ignored (unknown id, not a reply at all). */
  onProtocolError?: (message: string) => void
}

/** Per-call options. */
export interface SandboxCallOptions {
  timeoutMs?: number
}

interface Pending {
  request: SandboxRequest
  ref: SandboxCallRef
  timeoutMs: number
  /**
   * queued: no port yet; sent: on the port, not known to have begun; running: begun (the
   * sandbox said so, or it was idle when this call became the next; see `watch`).
   */
  state: 'queued' | 'sent' | 'running'
  /** A node whose routers run in the same call: the sandbox said they began. */
  routing?: true
  timer: ReturnType<typeof setTimeout> | undefined
  resolve: (reply: SandboxReply) => void
  reject: (error: Error) => void
  /** A node's calls back into the runtime, and how many of them it waits for now. */
  calls?: NodeHostCalls
  waiting: number
}

const DEFAULT_MAX_REPLY = 32 * 1024 * 1024

/**
 * Runs user code in the sandbox worker, over a MessagePort: one request per call, matched by
 * id. Every message is checked (shape, size) before it is believed.
 *
 * Timeouts: a call's clock starts when the sandbox begins the call, so calls queued behind a
 * long synchronous one (parallel tasks) do not time out for it. When every earlier call is
 * answered and the last reply left no timer pending, the sandbox is idle and begins the next
 * call as it arrives: its clock starts then, with no message (a cross-process post and a wake
 * of this worker fewer per call). Otherwise the sandbox says `started`. A sent call that does
 * not begin while no call runs, after a reply that left a timer, is on a sandbox that is stuck
 * (that timer spinning) or gone; it gets the same timeout, worded as such. On a timeout the
 * call rejects with NodeTimeoutError, the other calls on that port with SandboxRestartedError,
 * and `onHung` asks the owner for a fresh sandbox (`replacePort`); calls made meanwhile wait
 * for it.
 */
export class SandboxCodeHost implements CodeHost {
  private port: SandboxPort | null = null
  private disposed = false
  private nextId = 1
  private readonly pending = new Map<number, Pending>()
  private watchdog: { id: number; timer: ReturnType<typeof setTimeout> } | null = null
  /** The run beside the code in this sandbox, and its messages waiting for a port. */
  private loop: { id: number; handlers: LoopHandlers; queue: unknown[] } | undefined
  /** The sandbox's last reply said user code left a timer pending (see `watch`). */
  private leftover = false
  private readonly timeoutMs: number
  private readonly maxReplyBytes: number

  constructor(
    port: SandboxPort | null,
    private readonly options: SandboxHostOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_SANDBOX_TIMEOUT_MS
    this.maxReplyBytes = options.maxReplyBytes ?? DEFAULT_MAX_REPLY
    if (port) this.replacePort(port)
  }

  /** Serves from now on through `port`; calls still waiting on the old port reject. */
  replacePort(port: SandboxPort): void {
    if (this.disposed) throw new Error('This SandboxCodeHost was disposed.')
    this.detach('the sandbox was replaced before this call finished.')
    this.port = port
    this.leftover = false
    port.onmessage = (event) => this.receive(event.data)
    port.onmessageerror = () => this.unreadable()
    for (const m of this.loop?.queue.splice(0) ?? []) port.postMessage(m)
    for (const call of [...this.pending.values()]) this.send(call)
    this.watch()
  }

  /** Rejects every call and closes the port; the host is unusable afterwards. */
  dispose(): void {
    this.disposed = true
    const loop = this.loop
    this.loop = undefined
    loop?.handlers.gone('the sandbox was closed.')
    this.detach('the sandbox was closed.')
    for (const [id, call] of this.pending)
      this.settle(id, call, restarted(call.ref, 'the sandbox was closed.'))
  }

  async runNode(
    owner: string,
    code: string,
    input: unknown,
    pad: ScratchpadData,
    calls?: NodeHostCalls,
    route?: RouteRequest,
    opts?: SandboxCallOptions,
  ): Promise<RemoteNodeResult> {
    const ref = { kind: 'node', owner } as const
    const request = {
      type: 'runNode',
      id: 0,
      owner,
      code,
      input,
      pad,
      ...(calls && calls.subgraphs.length > 0 && { subgraphs: [...calls.subgraphs] }),
      ...(calls?.configurable && { configurable: calls.configurable }),
      ...(route && { route }),
    } as const
    const reply = await this.call(request, ref, opts, calls)
    if (reply.kind === 'interrupt') return withoutId(reply)
    if (reply.kind !== 'ok') throw protocolError(ref, `a node run got a \`${reply.kind}\` reply`)
    const { id: _id, routes, ...result } = reply
    if (!routes) return result
    if (!route || routes.length > route.routers.length)
      throw protocolError(ref, 'a node run answered routers it was not given')
    return { ...result, routes: routes.map((r, i) => this.routeAnswer(owner, r, route, i)) }
  }

  /** A router's answer that came with its node's reply, as runRouter would give it. */
  private routeAnswer(owner: string, r: RouteReply, route: RouteRequest, i: number) {
    return (): unknown => {
      if (!r.ok) throw toError(r.error, route.routers[i] ?? '')
      if (r.logs.length > 0) this.options.onLogs?.({ kind: 'router', owner }, r.logs)
      return r.value
    }
  }

  async runRouter(
    owner: string,
    code: string,
    state: unknown,
    configurable?: Record<string, unknown>,
    opts?: SandboxCallOptions,
  ): Promise<unknown> {
    const ref = { kind: 'router', owner } as const
    const request = {
      type: 'runRouter',
      id: 0,
      owner,
      code,
      state,
      ...(configurable && { configurable }),
    } as const
    return valueOf(await this.call(request, ref, opts))
  }

  async foldReducer(
    field: string,
    code: string,
    current: unknown,
    values: unknown[],
    opts?: SandboxCallOptions,
  ): Promise<unknown> {
    const ref = { kind: 'reducer', owner: field } as const
    const request = { type: 'foldReducer', id: 0, field, code, current, values } as const
    return valueOf(await this.call(request, ref, opts))
  }

  async check(
    owner: string,
    kind: CodeKind,
    code: string,
    opts?: SandboxCallOptions,
  ): Promise<string | null> {
    const ref = { kind, owner }
    const request = { type: 'check', id: 0, owner, kind, code } as const
    const value = valueOf(await this.call(request, ref, opts))
    if (value === null || typeof value === 'string') return value
    throw protocolError(ref, 'a check got a value that is neither a message nor null')
  }

  private call(
    request: SandboxRequest,
    ref: SandboxCallRef,
    opts: SandboxCallOptions | undefined,
    calls?: NodeHostCalls,
  ): Promise<SandboxReply> {
    // A bench's timing hook (./stepProfile): one global read when off.
    return profiled(`sandbox.${ref.kind}`, () => this.callNow(request, ref, opts, calls))
  }

  private callNow(
    request: SandboxRequest,
    ref: SandboxCallRef,
    opts: SandboxCallOptions | undefined,
    calls?: NodeHostCalls,
  ): Promise<SandboxReply> {
    const id = this.nextId++
    const timeoutMs = opts?.timeoutMs ?? this.timeoutMs
    return new Promise<SandboxReply>((resolve, reject) => {
      const call: Pending = {
        request: { ...request, id, ...(tracing() && { trace: true as const }) },
        ref,
        timeoutMs,
        state: 'queued',
        // Only a call that must wait for a port has this clock (a sent call starts another).
        timer: this.port ? undefined : setTimeout(() => this.unavailable(id), timeoutMs),
        resolve,
        reject,
        ...(calls && { calls }),
        waiting: 0,
      }
      this.pending.set(id, call)
      if (this.disposed) this.settle(id, call, restarted(ref, 'the sandbox was closed.'))
      else this.send(call)
      this.watch()
    }).then((reply) => {
      if (reply.kind === 'error') throw toError(reply.error, request.code)
      if (reply.kind === 'value' && reply.logs.length > 0) this.options.onLogs?.(ref, reply.logs)
      return reply
    })
  }

  private send(call: Pending): void {
    if (!this.port || call.state !== 'queued') return
    try {
      if (call.request.trace) mark('host.send')
      this.port.postMessage(call.request)
      if (call.request.trace) mark('host.posted')
      clearTimeout(call.timer)
      call.timer = undefined
      call.state = 'sent'
    } catch (e) {
      const what = describeRef(call.ref)
      const error = new Error(`The input of ${what} cannot be sent to the sandbox: ${messageOf(e)}`)
      error.name = 'DataCloneError'
      this.settle(call.request.id, call, error)
    }
  }

  /**
   * Starts a run beside the code (loopProtocol.ts) in this sandbox: its messages go to
   * `handlers.message` unchecked (the run checks them); `handlers.gone` says the sandbox went
   * (replaced, closed) and nothing more will come. Its own time limits are the run's: no
   * call of this host's clocks it.
   */
  startLoop(request: Omit<LoopStartRequest, 'type' | 'id'>, handlers: LoopHandlers): LoopSession {
    const id = this.nextId++
    const loop = { id, handlers, queue: [] as unknown[] }
    this.loop?.handlers.gone('another run began in its sandbox.')
    this.loop = loop
    const post = (m: unknown) => {
      if (this.loop !== loop) return
      if (!this.port) loop.queue.push(m)
      else this.port.postMessage(m)
    }
    if (this.disposed) handlers.gone('the sandbox was closed.')
    else post({ type: 'runLoop', id, ...request } satisfies LoopStartRequest)
    return {
      allow: (allow) => post({ type: 'loopControl', id, allow } satisfies LoopControl),
      close: () => {
        if (this.loop === loop) this.loop = undefined
      },
    }
  }

  private receive(data: unknown): void {
    // The sandbox never sends null: Chromium delivers a message it could not copy in (nested
    // too deep for this thread) as null, so one of the running calls lost its reply.
    if (data === null || data === undefined) return this.unreadable()
    if (tracing()) this.traced(data)
    const kind = (data as { kind?: unknown }).kind
    if (kind === 'loop' || kind === 'loopAlive') {
      const loop = this.loop
      if (loop && (data as { id?: unknown }).id === loop.id) loop.handlers.message(data)
      else this.options.onProtocolError?.('The sandbox sent a step of no run.')
      return
    }
    if ((data as { kind?: unknown }).kind === 'subgraph') return this.subgraphCall(data)
    const verdict = judgeMessage(
      data,
      (id) => {
        const call = this.pending.get(id)
        return call && call.state !== 'queued'
          ? { type: call.request.type, ref: call.ref }
          : undefined
      },
      this.maxReplyBytes,
    )
    const call = verdict.kind === 'ignore' ? undefined : this.pending.get(verdict.id)
    if (verdict.kind === 'ignore' || !call) {
      this.options.onProtocolError?.(
        `The sandbox sent ${verdict.kind === 'ignore' ? verdict.why : 'a stale message'}.`,
      )
    } else if (verdict.kind === 'started') {
      if (call.state !== 'sent') return
      this.begin(call)
      this.watch()
    } else if (verdict.kind === 'routing') {
      const { request } = call
      if (call.state !== 'running' || call.routing || request.type !== 'runNode' || !request.route)
        return this.options.onProtocolError?.('The sandbox sent a stray `routing` message.')
      // The routers get a call's time of their own, and a hang is theirs.
      call.routing = true
      clearTimeout(call.timer)
      call.timer = setTimeout(() => this.hang(verdict.id), call.timeoutMs)
    } else {
      this.leftover = (data as { leftover?: unknown }).leftover === true
      this.settle(verdict.id, call, verdict.kind === 'fail' ? verdict.error : verdict.reply)
    }
  }

  /** The call's clock starts: the sandbox began it. */
  private begin(call: Pending): void {
    const id = call.request.id
    call.state = 'running'
    clearTimeout(call.timer)
    call.timer = setTimeout(() => this.hang(id), call.timeoutMs)
  }

  /** A bench's trace: this message's arrival, and the sandbox's marks of a reply. */
  private traced(data: unknown): void {
    const m = data as { kind?: unknown; at?: unknown }
    mark(`host.${typeof m.kind === 'string' ? m.kind : 'message'}`)
    if (Array.isArray(m.at))
      for (const [name, at] of m.at as [unknown, unknown][])
        if (typeof name === 'string' && typeof at === 'number') mark(name, at)
  }

  /**
   * Node code in the sandbox calls a subgraph: the runtime runs it (its own code comes back
   * here as calls of their own) while the node's clock stops, and the sandbox gets its end.
   * A call that is not a running node's with subgraphs in scope, or that is malformed, is a
   * protocol error of that node.
   */
  private subgraphCall(data: unknown): void {
    const m = data as { id?: unknown; call?: unknown; name?: unknown; input?: unknown }
    const id = typeof m.id === 'number' ? m.id : -1
    const call = this.pending.get(id)
    if (!call || call.state !== 'running' || !call.calls) {
      this.options.onProtocolError?.('The sandbox sent a subgraph call for no running node.')
      return
    }
    const { calls } = call
    const name = m.name
    if (typeof m.call !== 'number' || typeof name !== 'string' || !calls.subgraphs.includes(name)) {
      const error = protocolError(call.ref, 'a subgraph call without a known subgraph')
      return this.settle(id, call, error)
    }
    const port = this.port
    const n = m.call
    clearTimeout(call.timer)
    call.timer = undefined
    call.waiting += 1
    const answer = (done: SubgraphDone) => {
      if (this.pending.get(id) !== call) return // the node ended meanwhile (a timeout, a stop)
      call.waiting -= 1
      if (call.waiting === 0) call.timer = setTimeout(() => this.hang(id), call.timeoutMs)
      if (this.port !== port || !port) return
      try {
        port.postMessage(done)
      } catch (e) {
        port.postMessage({
          type: 'subgraphDone',
          id,
          call: n,
          ok: false,
          error: {
            name: 'DataCloneError',
            message: `The output of subgraph \`${name}\` cannot be sent to the sandbox: ${messageOf(e)}`,
          },
        } satisfies SubgraphDone)
      }
    }
    calls.invoke(name, m.input).then(
      (output) => answer({ type: 'subgraphDone', id, call: n, ok: true, output }),
      (e: unknown) =>
        answer({
          type: 'subgraphDone',
          id,
          call: n,
          ok: false,
          error: { name: (e as Error)?.name ?? 'Error', message: messageOf(e) },
        }),
    )
  }

  /**
   * A reply could not be copied out of the sandbox (it does not say whose): the calls running
   * now fail with that reason rather than with a timeout. Only this lease's code runs here.
   */
  private unreadable(): void {
    for (const [id, call] of this.pending) {
      if (call.state !== 'running') continue
      const what = capitalize(describeRef(call.ref))
      const error = new Error(
        `${what} returned a value that could not be copied out of the sandbox (nested too deeply, or too large).`,
      )
      error.name = 'DataCloneError'
      this.settle(id, call, error)
    }
  }

  /**
   * While no call runs, the next sent call begins: at once on an idle sandbox (its clock
   * starts now), or else when the sandbox says so, with one timer on it meanwhile (see the
   * class comment).
   */
  private watch(): void {
    let next: Pending | undefined
    if (this.port) {
      for (const c of this.pending.values()) {
        if (c.state === 'running') {
          next = undefined
          break
        }
        if (c.state === 'sent' && !next) next = c
      }
    }
    if (next && !this.leftover) {
      this.begin(next)
      next = undefined
    }
    if (this.watchdog && this.watchdog.id === next?.request.id) return
    if (this.watchdog) clearTimeout(this.watchdog.timer)
    this.watchdog = null
    if (!next) return
    const id = next.request.id
    this.watchdog = { id, timer: setTimeout(() => this.hang(id), next.timeoutMs) }
  }

  private unavailable(id: number): void {
    const call = this.pending.get(id)
    if (!call || call.state !== 'queued') return
    const what = capitalize(describeRef(call.ref))
    const error = new Error(
      `${what} could not start within ${seconds(call.timeoutMs)}: the sandbox is not available.`,
    )
    error.name = 'SandboxUnavailableError'
    this.settle(id, call, error)
  }

  private hang(id: number): void {
    const call = this.pending.get(id)
    if (!call || call.state === 'queued') return
    const ref: SandboxCallRef = call.routing ? { kind: 'router', owner: call.ref.owner } : call.ref
    const what = capitalize(describeRef(ref))
    const error = new Error(
      call.state === 'running'
        ? `${what} did not finish within ${seconds(call.timeoutMs)}: it ran too long or used memory without bound, so its sandbox was stopped (the page and other graphs are unaffected).`
        : `${what} did not start within ${seconds(call.timeoutMs)}: code left running in its sandbox held it, so the sandbox was stopped.`,
    )
    error.name = 'NodeTimeoutError'
    this.settle(id, call, error)
    this.detach(`${describeRef(ref)} hung and the sandbox was stopped.`)
    this.options.onHung?.(ref)
  }

  /** Drops the current port; calls already sent on it reject (they can never finish). */
  private detach(why: string): void {
    const port = this.port
    if (!port) return
    const loop = this.loop
    this.loop = undefined
    loop?.handlers.gone(why)
    this.port = null
    port.onmessage = null
    port.onmessageerror = null
    try {
      port.close()
    } catch {
      // already closed
    }
    for (const [id, call] of this.pending) {
      if (call.state !== 'queued') this.settle(id, call, restarted(call.ref, why))
    }
    this.watch()
  }

  private settle(id: number, call: Pending, outcome: SandboxReply | Error): void {
    clearTimeout(call.timer)
    this.pending.delete(id)
    if (outcome instanceof Error) call.reject(outcome)
    else call.resolve(outcome)
    this.watch()
  }
}

function valueOf(reply: SandboxReply): unknown {
  if (reply.kind !== 'value') throw new Error(`Expected a value reply, got ${reply.kind}.`)
  return reply.value
}

function toError(data: RemoteErrorData, code: string): SandboxError {
  if (data.name === 'SyntaxError' && data.line === undefined) {
    // V8 gives no position for a SyntaxError from `new Function`; acorn finds it here.
    const problem = checkExpressionSyntax(code)
    if (problem) return new SandboxError({ ...data, line: problem.line, column: problem.column })
  }
  return new SandboxError(data)
}

function withoutId(reply: Extract<SandboxReply, { kind: 'interrupt' }>): RemoteNodeResult {
  const { id: _id, ...result } = reply
  return result
}
