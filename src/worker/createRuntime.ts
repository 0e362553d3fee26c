import { createSandboxFrame, type SandboxFrame } from './sandbox/sandboxFrame'
import { RuntimeClient, RuntimeRequestError } from './client'

export interface CreateRuntimeOptions {
  /** IndexedDB database for checkpoints; default 'superstep'. */
  dbName?: string
  /** Lets user code reach the network (the sandbox frame's CSP); off by default. */
  allowNetwork?: boolean
  /** How long one call into the sandbox may run before it counts as hung; default 5000 ms. */
  sandboxTimeoutMs?: number
  /** Replacing a hung sandbox failed (the runtime's code calls then fail until one works). */
  onSandboxError?: (error: Error) => void
}

/** A running runtime: the client to talk to, and the way to end it all. */
export interface Runtime {
  client: RuntimeClient
  /**
   * Makes the sandbox allow (or block) the network for the runs that follow, replacing the
   * sandbox frame when the setting changes. Call it with no run in flight: calls into the
   * old frame fail.
   */
  setNetwork(allowed: boolean): Promise<void>
  /** Rejects pending calls, ends the worker, removes the sandbox frame. */
  terminate(): void
}

/**
 * Starts the runtime: the module worker (the only writer of checkpoints), its database,
 * and the sandbox frame whose port it gets. On `sandbox_hung` the frame is destroyed and a
 * fresh one's port is sent. Resolves when the worker is ready to compile and run.
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
  let frame: SandboxFrame | undefined
  let ended = false
  let allowNetwork = o.allowNetwork ?? false
  const connect = async () => {
    frame?.destroy()
    frame = undefined
    const next = await createSandboxFrame({ allowNetwork })
    if (ended) return next.destroy()
    frame = next
    await client.request('sandboxPort', { port: next.port, allowNetwork }, [next.port])
  }
  const terminate = () => {
    ended = true
    frame?.destroy()
    client.terminate()
  }
  try {
    await client.request('init', { dbName: o.dbName, sandboxTimeoutMs: o.sandboxTimeoutMs })
    await connect()
  } catch (e) {
    terminate()
    throw e
  }
  let replacing: Promise<void> | undefined
  client.on((e) => {
    // Hangs reported while a replacement is under way are about the frame being replaced.
    if (e.type !== 'sandbox_hung' || ended || replacing) return
    replacing = connect()
      .catch((error: unknown) => {
        if (!ended) o.onSandboxError?.(error instanceof Error ? error : new Error(String(error)))
      })
      .finally(() => (replacing = undefined))
  })
  const setNetwork = async (allowed: boolean) => {
    if (allowed === allowNetwork || ended) return
    allowNetwork = allowed
    await (replacing ?? Promise.resolve())
    await connect()
  }
  return { client, terminate, setNetwork }
}
