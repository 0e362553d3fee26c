/**
 * The runtime worker: wiring only. The logic lives in RuntimeService (requests, graphs,
 * state), RunRegistry (runs), SandboxPool (sandboxes) and EventBatcher (events); see
 * docs/worker-protocol.md.
 */
import { SandboxCodeHost } from './sandbox/sandboxHost'
import type { WorkerMessage } from './protocol'
import { RuntimeService } from './service'
import { openDexieStorage } from './storage'
import { webThreadLocks } from './threadLocks'

/** The worker's global scope, as far as this file uses it. */
interface WorkerScope {
  postMessage(message: WorkerMessage): void
  addEventListener(type: 'message', listener: (e: MessageEvent<unknown>) => void): void
}

const scope = self as unknown as WorkerScope

const service = new RuntimeService({
  post: (m) => scope.postMessage(m),
  openStorage: (dbName) => openDexieStorage(dbName),
  makeSandboxHost: ({ timeoutMs, onHung }) => new SandboxCodeHost(null, { timeoutMs, onHung }),
  locks: webThreadLocks(navigator.locks),
})

scope.addEventListener('message', (e) => void service.receive(e.data))
