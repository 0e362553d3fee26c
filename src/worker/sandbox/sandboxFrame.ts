import { SANDBOX_PORT_MESSAGE, SANDBOX_STARTED_MESSAGE } from './sandboxProtocol'
import { sandboxWorkerSource } from './sandboxWorkerSource'

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

const LOADED = 'superstep-sandbox-loaded'
const SOURCE = 'superstep-sandbox-source'
const READY = 'superstep-sandbox-ready'
const FAILED = 'superstep-sandbox-failed'

/** The frame's Content-Security-Policy: no network, no storage origin, scripts inline/blob. */
export function sandboxCsp(allowNetwork = false): string {
  const base =
    "default-src 'none'; script-src 'unsafe-inline' 'unsafe-eval' blob:; worker-src blob:"
  return allowNetwork ? `${base}; connect-src *` : base
}

/**
 * The iframe's document. The CSP meta comes first, before any script. The script waits for
 * the worker source from its parent, starts it from a `blob:` URL, hands it one end of a
 * MessageChannel and, once the worker says it started, the other end to the parent.
 */
function frameDocument(allowNetwork: boolean): string {
  const script = `
'use strict';
addEventListener('message', function boot(e) {
  if (e.source !== parent || !e.data || e.data.type !== '${SOURCE}') return;
  removeEventListener('message', boot);
  var fail = function (message) { parent.postMessage({ type: '${FAILED}', message: message }, '*'); };
  try {
    var url = URL.createObjectURL(new Blob([e.data.source], { type: 'text/javascript' }));
    var worker = new Worker(url);
    var channel = new MessageChannel();
    var started = false;
    worker.onerror = function (ev) { if (!started) fail(String(ev.message || 'the sandbox worker failed to start')); };
    worker.onmessage = function (ev) {
      if (started || !ev.data || ev.data.type !== '${SANDBOX_STARTED_MESSAGE}') return;
      started = true;
      worker.onmessage = null;
      worker.postMessage({ type: '${SANDBOX_PORT_MESSAGE}' }, [channel.port1]);
      parent.postMessage({ type: '${READY}' }, '*', [channel.port2]);
    };
  } catch (err) { fail(String(err && err.message || err)); }
});
parent.postMessage({ type: '${LOADED}' }, '*');
`
  return `<!doctype html><meta http-equiv="Content-Security-Policy" content="${sandboxCsp(allowNetwork)}"><script>${script}</script>`
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
  iframe.srcdoc = frameDocument(options.allowNetwork ?? false)

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
