/**
 * The runtime worker: wiring only. The logic lives in RuntimeService (requests, graphs,
 * state), RunRegistry (runs) and EventBatcher (events); see docs/worker-protocol.md.
 */
import type { CodeHost } from '../core/compile/host'
import { SandboxCodeHost } from './sandbox/sandboxHost'
import type { WorkerMessage } from './protocol'
import { RuntimeService } from './service'
import { openDexieStorage } from './storage'

/** The worker's global scope, as far as this file uses it. */
interface WorkerScope {
  postMessage(message: WorkerMessage): void
  addEventListener(type: 'message', listener: (e: MessageEvent<unknown>) => void): void
}

const scope = self as unknown as WorkerScope
let sandbox: SandboxCodeHost | undefined

const service: RuntimeService = new RuntimeService({
  post: (m) => scope.postMessage(m),
  openStorage: (dbName) => openDexieStorage(dbName),
  connectSandbox: (port, { timeoutMs }): CodeHost => {
    if (sandbox) sandbox.replacePort(port)
    else sandbox = new SandboxCodeHost(port, { timeoutMs, onHung: () => service.sandboxHung() })
    return sandbox
  },
})

scope.addEventListener('message', (e) => void service.receive(e.data))
