import { createSandboxFrame, type SandboxFrame } from './sandbox/sandboxFrame'
import { RuntimeClient, RuntimeRequestError } from './client'

export interface CreateRuntimeOptions {
  /** IndexedDB database for checkpoints; default 'superstep'. */
  dbName?: string
  /** How long one call into the sandbox may run before it counts as hung; default 5000 ms. */
  sandboxTimeoutMs?: number
}

/** A running runtime: the client to talk to, and the way to end it all. */
export interface Runtime {
  client: RuntimeClient
  /** Rejects pending calls, ends the worker, removes every sandbox frame. */
  terminate(): void
}

/**
 * Starts the runtime: the module worker (the only writer of checkpoints) and its database.
 * The worker asks for a fresh sandbox frame for every compile, run and state update
 * (`sandbox_wanted`, with the graph's network mode) and lets it go when done
 * (`sandbox_released`); only a document can make the frame, so this side makes them. One
 * unused frame per network mode is made ahead, so a run does not wait for its frame to start.
 */
export async function createRuntime(o: CreateRuntimeOptions = {}): Promise<Runtime> {
  const worker = new Worker(new URL('./runtime.worker.ts', import.meta.url), { type: 'module' })
  const client = new RuntimeClient(worker, { terminate: () => worker.terminate() })
  worker.addEventListener('error', (e: ErrorEvent) =>
    client.fail(
      new RuntimeRequestError({
        name: 'RuntimeWorkerError',
        code: 'WORKER_FAILED',
        message: `The runtime worker failed: ${e.message || 'it could not start'}`,
      }),
    ),
  )
  const frames = new SandboxFrames()
  const terminate = () => {
    frames.end()
    client.terminate()
  }
  client.on((e) => {
    if (e.type === 'sandbox_wanted') {
      void frames
        .take(e.sandboxId, e.allowNetwork)
        .then(async (port) => {
          if (!port) return
          const { connected } = await client.request(
            'sandboxPort',
            { sandboxId: e.sandboxId, port },
            [port],
          )
          if (!connected) frames.destroy(e.sandboxId)
        })
        // A frame that cannot start: the calls waiting for it fail with SandboxUnavailableError.
        .catch(() => frames.destroy(e.sandboxId))
    } else if (e.type === 'sandbox_released') {
      frames.destroy(e.sandboxId)
    }
  })
  try {
    await client.request('init', { dbName: o.dbName, sandboxTimeoutMs: o.sandboxTimeoutMs })
  } catch (e) {
    terminate()
    throw e
  }
  frames.prepare(false)
  return { client, terminate }
}

/** The page's sandbox frames by the worker's sandbox id, and one spare per network mode. */
class SandboxFrames {
  private readonly byId = new Map<string, SandboxFrame>()
  /** Ids released before their frame was ready: the frame is destroyed when it is. */
  private readonly dropped = new Set<string>()
  private readonly pending = new Set<string>()
  private readonly spares = new Map<boolean, Promise<SandboxFrame>>()
  ended = false

  /** Makes a spare frame of this network mode ahead of need. */
  prepare(allowNetwork: boolean): void {
    if (this.ended || this.spares.has(allowNetwork)) return
    const made = createSandboxFrame({ allowNetwork })
    made.catch(() => {
      if (this.spares.get(allowNetwork) === made) this.spares.delete(allowNetwork)
    })
    this.spares.set(allowNetwork, made)
  }

  /** A frame that never ran code for `sandboxId`; its port, or null when it was released. */
  async take(sandboxId: string, allowNetwork: boolean): Promise<MessagePort | null> {
    const spare = this.spares.get(allowNetwork)
    this.spares.delete(allowNetwork)
    this.pending.add(sandboxId)
    let frame: SandboxFrame
    try {
      if (spare) {
        frame = await spare.catch(() => createSandboxFrame({ allowNetwork }))
      } else {
        frame = await createSandboxFrame({ allowNetwork })
      }
    } finally {
      this.pending.delete(sandboxId)
    }
    this.prepare(allowNetwork)
    if (this.ended || this.dropped.delete(sandboxId)) {
      frame.destroy()
      return null
    }
    this.byId.set(sandboxId, frame)
    return frame.port
  }

  destroy(sandboxId: string): void {
    const frame = this.byId.get(sandboxId)
    if (!frame) {
      if (this.pending.has(sandboxId)) this.dropped.add(sandboxId)
      return
    }
    this.byId.delete(sandboxId)
    frame.destroy()
  }

  end(): void {
    this.ended = true
    for (const frame of this.byId.values()) frame.destroy()
    this.byId.clear()
    for (const spare of this.spares.values())
      void spare.then(
        (f) => f.destroy(),
        () => undefined,
      )
    this.spares.clear()
  }
}
