/**
 * The runtime service for tests: the real service behind a MessageChannel, Dexie over
 * fake-indexeddb, code run locally (LocalCodeHost). Not part of the app.
 */
import type { ThreadLocks } from './threadLocks'
import 'fake-indexeddb/auto'
import { RuntimeClient } from './client'
import { LocalCodeHost } from './localCodeHost'
import type { LoopStartRequest } from './sandbox/loopProtocol'
import { SandboxCodeHost, type LoopHandlers } from './sandbox/sandboxHost'
import { startSandboxInProcess } from './sandbox/testSandbox'
import type { PooledHost } from './sandboxPool'
import type { WorkerEvent } from './protocol'
import { RuntimeService, type RuntimeServiceOptions } from './service'
import { openDexieStorage, type WorkerStorage } from './storage'

export const chain = {
  superstep: 1,
  name: 'chain',
  state: [{ name: 'x' }, { name: 'log', reducer: 'append', default: [] }],
  nodes: [
    { id: 'a', code: "(s) => { console.info('a ran'); return { x: 'a', log: ['a'] } }" },
    { id: 'b', code: "(s) => ({ x: 'b', log: ['b'] })" },
  ],
  edges: [
    { from: '__start__', to: 'a' },
    { from: 'a', to: 'b' },
  ],
}

/** A graph whose node `team` runs `inner` as its subgraph, then `after` logs. */
export function teamOf(inner: { state: unknown[] } & Record<string, unknown>) {
  return {
    ...inner,
    nodes: [
      { id: 'team', kind: 'graph', graph: 'inner' },
      { id: 'after', code: "(s) => ({ log: ['after'] })" },
    ],
    edges: [
      { from: '__start__', to: 'team' },
      { from: 'team', to: 'after' },
    ],
    subgraphs: { inner },
  }
}

let dbs = 0
const cleanup: (() => void)[] = []

/** Closes what `setup` opened; call it in `afterEach`. */
export function closeAll(): void {
  for (const c of cleanup.splice(0)) c()
}

/** The real service behind a MessageChannel, Dexie over fake-indexeddb, code run locally. */
export async function setup(
  o: {
    init?: boolean
    sandbox?: boolean
    /** Changes the storage the service opens (a failing part, say). */
    storage?: (s: WorkerStorage) => WorkerStorage
    /** The threads' locks (shared between setups: tabs of one browser). */
    locks?: ThreadLocks
    /**
     * Code runs in real sandboxes (sandboxMain in this realm, one per sandbox the worker
     * asks for, behind a SandboxCodeHost) instead of the shared LocalCodeHost.
     */
    realSandbox?: boolean
    /** The service's loop program for runs beside the code (false: none go beside). */
    loopProgram?: RuntimeServiceOptions['loopProgram']
  } = {},
) {
  const { port1, port2 } = new MessageChannel()
  const host = new LocalCodeHost()
  const sandboxPorts: MessagePort[] = []
  const hosts: PortGatedHost[] = []
  let opened: WorkerStorage | undefined
  const service = new RuntimeService({
    post: (m) => port2.postMessage(m),
    openStorage: (name) => (opened = (o.storage ?? ((s) => s))(openDexieStorage(name))),
    ...(o.locks && { locks: o.locks }),
    ...(o.loopProgram !== undefined && { loopProgram: o.loopProgram }),
    makeSandboxHost: ({ onHung, timeoutMs }) => {
      if (o.realSandbox)
        return new SandboxCodeHost(null, { onHung, ...(timeoutMs && { timeoutMs }) })
      const made = new PortGatedHost(host, onHung)
      hosts.push(made)
      return made
    },
  })
  port2.onmessage = (e: MessageEvent) => void service.receive(e.data)
  const client = new RuntimeClient(port1)
  const events: WorkerEvent[] = []
  const batches: number[] = []
  client.on((e) => events.push(e))
  client.onBatch((b) => batches.push(b.length))
  const dbName = `service-test-${++dbs}`
  cleanup.push(() => {
    client.dispose()
    port1.close()
    port2.close()
    for (const p of sandboxPorts) p.close()
  })
  if (o.init !== false) await client.request('init', { dbName })
  // The page's part: a fresh "frame" (a MessageChannel) for every sandbox the worker wants.
  const sandboxes = { wanted: [] as string[], released: [] as string[], network: [] as boolean[] }
  client.on((e) => {
    if (e.type === 'sandbox_released') sandboxes.released.push(e.sandboxId)
    if (e.type !== 'sandbox_wanted') return
    sandboxes.wanted.push(e.sandboxId)
    sandboxes.network.push(e.allowNetwork)
    if (o.sandbox === false) return
    if (o.realSandbox) {
      const port = startSandboxInProcess()
      sandboxPorts.push(port)
      void client.request('sandboxPort', { sandboxId: e.sandboxId, port }, [port])
      return
    }
    const fake = new MessageChannel()
    sandboxPorts.push(fake.port2)
    void client.request('sandboxPort', { sandboxId: e.sandboxId, port: fake.port1 }, [fake.port1])
  })
  const compile = async (graph: unknown = chain) => {
    const r = await client.request('compile', { graph })
    if (!r.ok) throw new Error(JSON.stringify(r.issues))
    return r.graphId
  }
  /** What the service opened at `init`. */
  const storage = (): WorkerStorage => {
    if (!opened) throw new Error('not initialised')
    return opened
  }
  return {
    client,
    host,
    hosts,
    service,
    sandboxes,
    events,
    batches,
    compile,
    sandboxPorts,
    dbName,
    storage,
  }
}

/**
 * One sandbox's host for tests: calls wait for its port (as a SandboxCodeHost's do), then run
 * in the shared LocalCodeHost; `dispose` fails the calls still waiting or running.
 */
export class PortGatedHost implements PooledHost {
  private connected = false
  private disposed = false
  private waiting: { go: () => void; fail: (e: Error) => void }[] = []
  private readonly running = new Set<(e: Error) => void>()
  private readonly loops = new Set<(why: string) => void>()
  /** Runs started beside the code in this sandbox. */
  loopsStarted = 0

  constructor(
    private readonly local: LocalCodeHost,
    /** Calls the pool's hang handling, as a timed-out call would. */
    readonly hang: () => void,
  ) {}

  get isConnected(): boolean {
    return this.connected
  }

  get isDisposed(): boolean {
    return this.disposed
  }

  replacePort(port: MessagePort): void {
    port.close()
    this.connected = true
    for (const w of this.waiting.splice(0)) w.go()
  }

  dispose(): void {
    this.disposed = true
    const error = Object.assign(new Error('the sandbox was closed.'), {
      name: 'SandboxRestartedError',
    })
    for (const w of this.waiting.splice(0)) w.fail(error)
    for (const fail of this.running) fail(error)
    for (const gone of this.loops) gone('the sandbox was closed.')
    this.loops.clear()
  }

  runNode(...a: Parameters<LocalCodeHost['runNode']>) {
    return this.call(() => this.local.runNode(...a))
  }

  runRouter(...a: Parameters<LocalCodeHost['runRouter']>) {
    return this.call(() => this.local.runRouter(...a))
  }

  foldReducer(...a: Parameters<LocalCodeHost['foldReducer']>) {
    return this.call(() => this.local.foldReducer(...a))
  }

  check(...a: Parameters<LocalCodeHost['check']>) {
    return this.call(() => this.local.check(...a))
  }

  /**
   * A run beside the code, as a sandbox runs it: a sandboxMain of its own (in this realm)
   * evaluates the loop program and runs the user's code itself (not the shared LocalCodeHost,
   * so `gate()` is not in scope there).
   */
  startLoop(request: Omit<LoopStartRequest, 'type' | 'id'>, handlers: LoopHandlers) {
    this.loopsStarted += 1
    const port = startSandboxInProcess()
    let open = true
    const gone = (why: string) => {
      if (!open) return
      open = false
      port.close()
      handlers.gone(why)
    }
    this.loops.add(gone)
    port.onmessage = (e: MessageEvent) => open && handlers.message(e.data)
    port.postMessage({ type: 'runLoop', id: 1, ...request } satisfies LoopStartRequest)
    return {
      allow: (allow: number) => open && port.postMessage({ type: 'loopControl', id: 1, allow }),
      close: () => {
        open = false
        this.loops.delete(gone)
        port.close()
      },
    }
  }

  private async call<T>(fn: () => Promise<T>): Promise<T> {
    if (!this.connected) {
      await new Promise<void>((go, fail) => {
        if (this.disposed) return fail(new Error('the sandbox was closed.'))
        // As a SandboxCodeHost's queued call: no port in time, no sandbox.
        const timer = setTimeout(() => {
          const error = new Error('The code could not start: the sandbox is not available.')
          fail(Object.assign(error, { name: 'SandboxUnavailableError' }))
        }, 100)
        const done = (f: () => void) => () => (clearTimeout(timer), f())
        this.waiting.push({ go: done(go), fail: (e) => done(() => fail(e))() })
      })
    }
    return new Promise<T>((resolve, reject) => {
      this.running.add(reject)
      fn()
        .then(resolve, reject)
        .finally(() => this.running.delete(reject))
    })
  }
}
