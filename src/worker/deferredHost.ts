import type { CodeHost, RemoteNodeResult, ScratchpadData } from '../core/compile/host'
import { WorkerRequestError } from './errors'
import { systemTimer, type Timer } from './timer'

/**
 * The CodeHost graphs are compiled against before the sandbox exists: each call waits for
 * the real host (`connect`), up to `waitMs`, then fails with `SANDBOX_UNAVAILABLE`. Once
 * connected, calls go straight through. Compiled graphs keep this object, so replacing the
 * sandbox never means recompiling.
 */
export class DeferredCodeHost implements CodeHost {
  private host: CodeHost | undefined
  private waiters: ((host: CodeHost) => void)[] = []
  private calls = 0

  constructor(
    private readonly waitMs = 5000,
    private readonly timer: Timer = systemTimer,
  ) {}

  /** Whether a real host is connected. */
  get connected(): boolean {
    return this.host !== undefined
  }

  /** Whether any call is waiting for the sandbox or running in it. */
  get busy(): boolean {
    return this.calls > 0
  }

  /**
   * New calls wait again (until the next `connect`): the sandbox is being replaced, and a
   * call sent to the old one now would only queue behind the code that made it hang.
   */
  disconnect(): void {
    this.host = undefined
  }

  connect(host: CodeHost): void {
    this.host = host
    const waiters = this.waiters
    this.waiters = []
    for (const w of waiters) w(host)
  }

  runNode(
    owner: string,
    code: string,
    input: unknown,
    pad: ScratchpadData,
  ): Promise<RemoteNodeResult> {
    return this.call((h) => h.runNode(owner, code, input, pad))
  }

  runRouter(owner: string, code: string, state: unknown): Promise<unknown> {
    return this.call((h) => h.runRouter(owner, code, state))
  }

  foldReducer(field: string, code: string, current: unknown, values: unknown[]): Promise<unknown> {
    return this.call((h) => h.foldReducer(field, code, current, values))
  }

  check(owner: string, kind: 'node' | 'router' | 'reducer', code: string): Promise<string | null> {
    return this.call((h) => h.check(owner, kind, code))
  }

  private call<T>(fn: (host: CodeHost) => Promise<T>): Promise<T> {
    this.calls += 1
    const done = () => {
      this.calls -= 1
    }
    const p = this.ready().then(fn)
    p.then(done, done)
    return p
  }

  private ready(): Promise<CodeHost> {
    if (this.host) return Promise.resolve(this.host)
    return new Promise((resolve, reject) => {
      const handle = this.timer.set(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter)
        reject(
          new WorkerRequestError(
            'SANDBOX_UNAVAILABLE',
            `No sandbox connected after ${this.waitMs} ms: user code cannot run. The page must create the sandbox frame and send its port (sandboxPort).`,
            'SandboxUnavailableError',
          ),
        )
      }, this.waitMs)
      const waiter = (host: CodeHost) => {
        this.timer.clear(handle)
        resolve(host)
      }
      this.waiters.push(waiter)
    })
  }
}
