import type { RuntimeRequests } from './client'
import type { ParamsOf, RequestType, ResultOf, WorkerEvent } from './protocol'

type Listener =
  | { batch: false; fn: (e: WorkerEvent) => void }
  | { batch: true; fn: (events: readonly WorkerEvent[]) => void }

/**
 * A runtime client to hand out before the runtime has started (the worker spawning and
 * opening its database while the page draws its first frame): its requests go, in the order
 * they were made, to the real client once `started` resolves; its listeners are moved onto
 * it then, before any answer can arrive. A runtime that fails to start fails each request
 * with the reason. Small on purpose: the page's own script holds it, the client comes later.
 */
export class DeferredRuntimeClient implements RuntimeRequests {
  private real: RuntimeRequests | null = null
  /** Listeners added before the start, and how to remove each from the real client after. */
  private readonly early = new Map<Listener, (() => void) | null>()

  constructor(private readonly started: Promise<RuntimeRequests>) {
    started.then(
      (c) => {
        this.real = c
        for (const l of this.early.keys()) this.early.set(l, l.batch ? c.onBatch(l.fn) : c.on(l.fn))
      },
      () => undefined,
    )
  }

  request<K extends RequestType>(
    type: K,
    params: ParamsOf<K>,
    transfer: Transferable[] = [],
  ): Promise<ResultOf<K>> {
    if (this.real) return this.real.request(type, params, transfer)
    return this.started.then((c) => c.request(type, params, transfer))
  }

  on(listener: (e: WorkerEvent) => void): () => void {
    return this.real ? this.real.on(listener) : this.listen({ batch: false, fn: listener })
  }

  onBatch(listener: (events: readonly WorkerEvent[]) => void): () => void {
    return this.real ? this.real.onBatch(listener) : this.listen({ batch: true, fn: listener })
  }

  private listen(l: Listener): () => void {
    this.early.set(l, null)
    return () => {
      this.early.get(l)?.()
      this.early.delete(l)
    }
  }
}
