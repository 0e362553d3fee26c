import type {
  NodeHostCalls,
  CodeHost,
  RemoteNodeResult,
  ScratchpadData,
} from '../core/compile/host'
import type { RouteRequest } from '../core/compile/fusedRoutes'
import { restarted } from './sandbox/hostErrors'
import type { CodeKind } from './sandbox/sandboxProtocol'
import type { LoopStartRequest } from './sandbox/loopProtocol'
import type { LoopHandlers, LoopSession } from './sandbox/sandboxHost'
import type { WorkerEvent } from './protocol'

/** One sandbox's host in the worker: calls wait for its port, `dispose` fails what is left. */
export interface PooledHost extends CodeHost {
  replacePort(port: MessagePort): void
  dispose(): void
  /** Starts a run beside the code in this sandbox (see SandboxCodeHost's `startLoop`). */
  startLoop(request: LoopRequest, handlers: LoopHandlers): LoopSession
}

/** What a run beside the code is started with (the host adds the rest). */
type LoopRequest = Omit<LoopStartRequest, 'type' | 'id'>

/** Makes the host of one new sandbox; `onHung` when one of its calls timed out. */
export type MakeHost = (o: { onHung: () => void }) => PooledHost

export interface SandboxPoolOptions {
  /** Queues an event for the page (`sandbox_wanted`, `sandbox_released`, `sandbox_hung`). */
  emit: (e: WorkerEvent) => void
  makeHost: MakeHost
  newId: () => string
}

interface Live {
  id: string
  host: PooledHost
}

/**
 * The worker's sandboxes. Only a document can create the sandbox frame, so the pool asks the
 * page for one (`sandbox_wanted`, with its network mode) and the page answers with its port
 * (`sandboxPort`); calls sent meanwhile wait in the host. A sandbox is never shared: every
 * compile's checks, every run and every state update leases its own (see `SandboxLease`),
 * and a released sandbox's frame is destroyed with whatever it still runs (`sandbox_released`).
 */
export class SandboxPool {
  private readonly live = new Map<string, PooledHost>()

  constructor(private readonly o: SandboxPoolOptions) {}

  /** A lease on sandboxes of one network mode; the first call asks the page for one. */
  lease(allowNetwork: boolean): SandboxLease {
    return new SandboxLease(this, allowNetwork)
  }

  /** How many sandboxes are asked for or running. */
  get size(): number {
    return this.live.size
  }

  /** The page's port for sandbox `sandboxId`; false when it was released meanwhile. */
  connect(sandboxId: string, port: MessagePort): boolean {
    const host = this.live.get(sandboxId)
    if (!host) return false
    host.replacePort(port)
    return true
  }

  /** @internal Starts a sandbox for a lease. */
  spawn(allowNetwork: boolean, onHung: (id: string) => void): Live {
    const id = this.o.newId()
    const host = this.o.makeHost({ onHung: () => onHung(id) })
    this.live.set(id, host)
    this.o.emit({ type: 'sandbox_wanted', sandboxId: id, allowNetwork })
    return { id, host }
  }

  /** @internal Ends a sandbox: its calls fail, the page destroys its frame. */
  retire(id: string): void {
    const host = this.live.get(id)
    if (!host) return
    this.live.delete(id)
    host.dispose()
    this.o.emit({ type: 'sandbox_released', sandboxId: id })
  }

  /** @internal */
  hung(threadIds: string[]): void {
    this.o.emit({ type: 'sandbox_hung', reason: 'timeout', threadIds })
  }
}

/**
 * The sandbox of one use (a compile's checks, a run, a state update, a graph's reads): a
 * CodeHost that starts a fresh sandbox on its first call and keeps it until `release`. When a
 * call hangs, that sandbox is destroyed and the next call starts another; nothing of one
 * lease's code, timers or globals is ever seen by another lease's.
 */
export class SandboxLease implements CodeHost {
  private current: Live | null = null
  private calls = 0
  private released = false
  /** Threads to name when this lease's sandbox hangs (the run's). */
  threadIds: string[] = []

  constructor(
    private readonly pool: SandboxPool,
    readonly allowNetwork: boolean,
  ) {}

  /** Whether a call is waiting for the sandbox or running in it. */
  get busy(): boolean {
    return this.calls > 0
  }

  /** Destroys the sandbox (and whatever still runs there); later calls fail. */
  release(): void {
    this.released = true
    this.retireCurrent()
  }

  runNode(
    owner: string,
    code: string,
    input: unknown,
    pad: ScratchpadData,
    calls?: NodeHostCalls,
    route?: RouteRequest,
  ): Promise<RemoteNodeResult> {
    return this.call('node', owner, (h) => h.runNode(owner, code, input, pad, calls, route))
  }

  runRouter(
    owner: string,
    code: string,
    state: unknown,
    configurable?: Record<string, unknown>,
  ): Promise<unknown> {
    return this.call('router', owner, (h) => h.runRouter(owner, code, state, configurable))
  }

  foldReducer(field: string, code: string, current: unknown, values: unknown[]): Promise<unknown> {
    return this.call('reducer', field, (h) => h.foldReducer(field, code, current, values))
  }

  check(owner: string, kind: CodeKind, code: string): Promise<string | null> {
    return this.call(kind, owner, (h) => h.check(owner, kind, code))
  }

  /**
   * Starts a run beside the code in this lease's sandbox (started now if need be); it counts
   * as busy until the session closes or the sandbox goes.
   */
  startLoop(request: LoopRequest, handlers: LoopHandlers): LoopSession {
    if (this.released) {
      handlers.gone('its sandbox was closed.')
      return { allow: () => undefined, close: () => undefined }
    }
    const live = (this.current ??= this.pool.spawn(this.allowNetwork, () => undefined))
    this.calls += 1
    let open = true
    const end = () => {
      if (open) this.calls -= 1
      open = false
    }
    const session = live.host.startLoop(request, {
      message: (m) => handlers.message(m),
      gone: (why) => {
        end()
        handlers.gone(why)
      },
    })
    return {
      allow: (n) => session.allow(n),
      close: () => {
        end()
        session.close()
      },
    }
  }

  /** The run beside the code hung: its sandbox goes, and the page hears why. */
  hang(): void {
    if (!this.current) return
    this.retireCurrent()
    this.pool.hung(this.threadIds)
  }

  private retireCurrent(): void {
    const live = this.current
    this.current = null
    if (live) this.pool.retire(live.id)
  }

  private async call<T>(kind: CodeKind, owner: string, fn: (h: CodeHost) => Promise<T>) {
    if (this.released) throw restarted({ kind, owner }, 'its sandbox was closed.')
    const live = (this.current ??= this.pool.spawn(this.allowNetwork, (id) => {
      if (this.current?.id !== id) return
      this.retireCurrent()
      this.pool.hung(this.threadIds)
    }))
    this.calls += 1
    try {
      return await fn(live.host)
    } finally {
      this.calls -= 1
    }
  }
}
