import { assertNever } from '../lib/assertNever'
import type {
  ParamsOf,
  RequestType,
  ResultOf,
  WorkerError,
  WorkerEvent,
  WorkerMessage,
  WorkerRequest,
} from './protocol'

/** What the store asks of a runtime client: requests and events (a deferred client has them too). */
export type RuntimeRequests = Pick<RuntimeClient, 'request' | 'on' | 'onBatch'>

/** What the client talks over: a Worker, a MessagePort, or a test's fake. */
export interface RuntimeEndpoint {
  postMessage(message: WorkerRequest, transfer: Transferable[]): void
  addEventListener(type: 'message', listener: (e: MessageEvent) => void): void
  removeEventListener(type: 'message', listener: (e: MessageEvent) => void): void
  /** MessagePorts deliver only after `start()`; a Worker has none. */
  start?(): void
}

/**
 * A failed request, rebuilt from the `WorkerError` that crossed `postMessage`. Match it by
 * `name` and `code` (e.g. `ThreadBusyError` / `THREAD_BUSY`), never by `instanceof` of the
 * worker's classes.
 */
export class RuntimeRequestError extends Error implements WorkerError {
  code?: string
  node?: string
  line?: number
  column?: number
  constructor(e: WorkerError) {
    super(e.message)
    this.name = e.name
    if (e.code !== undefined) this.code = e.code
    if (e.node !== undefined) this.node = e.node
    if (e.line !== undefined) this.line = e.line
    if (e.column !== undefined) this.column = e.column
  }
}

export interface RuntimeClientOptions {
  /** Ends the other side for good (`worker.terminate()`); called by `terminate()`. */
  terminate?: () => void
}

interface Pending {
  resolve: (value: unknown) => void
  reject: (error: Error) => void
}

/**
 * The page's side of the worker protocol: `request(type, params)` resolves with that
 * request's result type or rejects with a RuntimeRequestError. Events arrive in batches;
 * `on` listeners get them one at a time, in order; `onBatch` listeners get each batch
 * whole (one store update per batch). `dispose()`, `terminate()` and `fail()` reject every
 * pending call at once, and any later call at once.
 */
export class RuntimeClient {
  private nextId = 1
  private readonly pending = new Map<number, Pending>()
  private readonly listeners = new Set<(e: WorkerEvent) => void>()
  private readonly batchListeners = new Set<(events: readonly WorkerEvent[]) => void>()
  private dead: Error | undefined

  constructor(
    private readonly endpoint: RuntimeEndpoint,
    private readonly o: RuntimeClientOptions = {},
  ) {
    endpoint.addEventListener('message', this.onMessage)
    endpoint.start?.()
  }

  /** Sends one request; `transfer` lists objects to move (the sandbox's MessagePort). */
  request<K extends RequestType>(
    type: K,
    params: ParamsOf<K>,
    transfer: Transferable[] = [],
  ): Promise<ResultOf<K>> {
    if (this.dead) return Promise.reject(this.dead)
    const id = this.nextId++
    return new Promise<ResultOf<K>>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject })
      try {
        this.endpoint.postMessage({ id, type, params } as WorkerRequest, transfer)
      } catch (e) {
        // A DataCloneError (a function in the input, say) fails this call only.
        this.pending.delete(id)
        reject(e instanceof Error ? e : new Error(String(e)))
      }
    })
  }

  /** Calls `listener` once per event, in order. Returns the unsubscribe function. */
  on(listener: (e: WorkerEvent) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** Calls `listener` once per batch the worker posted. Returns the unsubscribe function. */
  onBatch(listener: (events: readonly WorkerEvent[]) => void): () => void {
    this.batchListeners.add(listener)
    return () => this.batchListeners.delete(listener)
  }

  /** How many requests await their response. */
  get pendingCount(): number {
    return this.pending.size
  }

  /** Stops listening and rejects all pending calls with `RuntimeDisposedError`. */
  dispose(): void {
    this.fail(
      new RuntimeRequestError({
        name: 'RuntimeDisposedError',
        code: 'DISPOSED',
        message: 'The runtime client was disposed.',
      }),
    )
  }

  /** `dispose()`, then ends the worker. */
  terminate(): void {
    this.dispose()
    this.o.terminate?.()
  }

  /** The worker died (or cannot be used): rejects every pending and later call with `error`. */
  fail(error: Error): void {
    if (this.dead) return
    this.dead = error
    this.endpoint.removeEventListener('message', this.onMessage)
    const pending = [...this.pending.values()]
    this.pending.clear()
    for (const p of pending) p.reject(error)
  }

  private readonly onMessage = (e: MessageEvent): void => {
    const m = e.data as WorkerMessage | null
    if (typeof m !== 'object' || m === null || typeof m.type !== 'string') return
    switch (m.type) {
      case 'response': {
        const p = this.pending.get(m.id)
        if (!p) return
        this.pending.delete(m.id)
        if (m.ok) p.resolve(m.result)
        else p.reject(new RuntimeRequestError(m.error))
        return
      }
      case 'events':
        this.deliver(m.events)
        return
      default:
        assertNever(m, 'worker message')
    }
  }

  private deliver(events: readonly WorkerEvent[]): void {
    for (const l of this.batchListeners) guard(() => l(events))
    for (const e of events) for (const l of this.listeners) guard(() => l(e))
  }
}

/** A throwing listener must not keep the others from their events; its error still shows. */
function guard(fn: () => void): void {
  try {
    fn()
  } catch (e) {
    const report = (globalThis as { reportError?: (e: unknown) => void }).reportError
    if (report) report(e)
    else console.error(e)
  }
}
