import { FRAME_MESSAGE, SANDBOX_FRAME_FILES } from './sandboxFrameDocument'
import { sandboxWorkerSource } from './sandboxWorkerSource'
const { LOADED, SOURCE, READY, FAILED } = FRAME_MESSAGE

/** Options of createSandboxFrame. */
export interface SandboxFrameOptions {
  /** Lets user code use fetch/XHR/WebSocket (adds `connect-src *`); off by default. */
  allowNetwork?: boolean
  /** How long the frame may take to start its worker; default 10 s. */
  startTimeoutMs?: number
  /** Where the iframe goes; default `document.body`. */
  parent?: HTMLElement
}

/** A running sandbox: the port to its worker (for a SandboxCodeHost) and its teardown. */
export interface SandboxFrame {
  port: MessagePort
  /** Removes the iframe, which ends its worker wherever it is (a `while (true)` too). */
  destroy(): void
}

/**
 * Starts a sandbox: a hidden `<iframe sandbox="allow-scripts">` (opaque origin: no storage,
 * no access to this page) with a CSP that allows no network unless `allowNetwork`, running
 * the sandbox worker. Resolves once the worker runs, with the port to it.
 */
export function createSandboxFrame(options: SandboxFrameOptions = {}): Promise<SandboxFrame> {
  const iframe = document.createElement('iframe')
  iframe.setAttribute('sandbox', 'allow-scripts')
  iframe.setAttribute('aria-hidden', 'true')
  iframe.tabIndex = -1
  iframe.title = 'Superstep code sandbox'
  iframe.style.display = 'none'
  const file = SANDBOX_FRAME_FILES[options.allowNetwork ? 'network' : 'offline']
  iframe.src = new URL(file, document.baseURI).href

  return new Promise<SandboxFrame>((resolve, reject) => {
    const cleanup = () => {
      clearTimeout(timer)
      window.removeEventListener('message', onMessage)
    }
    const destroy = () => {
      cleanup()
      iframe.remove()
    }
    const fail = (message: string) => {
      destroy()
      const error = new Error(`The code sandbox did not start: ${message}`)
      error.name = 'SandboxStartError'
      reject(error)
    }
    const onMessage = (event: MessageEvent) => {
      if (event.source === null || event.source !== iframe.contentWindow) return
      const data = event.data as { type?: unknown; message?: unknown } | null
      if (data?.type === LOADED) {
        iframe.contentWindow?.postMessage({ type: SOURCE, source: sandboxWorkerSource() }, '*')
      } else if (data?.type === READY && event.ports[0]) {
        cleanup()
        resolve({ port: event.ports[0], destroy })
      } else if (data?.type === FAILED) {
        fail(String(data.message))
      }
    }
    const timer = setTimeout(
      () => fail('it took longer than allowed'),
      options.startTimeoutMs ?? 10_000,
    )
    window.addEventListener('message', onMessage)
    ;(options.parent ?? document.body).append(iframe)
  })
}
