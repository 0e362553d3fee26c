/**
 * The sandbox frame's own document, one per network mode. Self-contained (it imports only the
 * protocol's constants) so that vite.config.ts can write these files into the build and serve
 * them in dev.
 */
import { SANDBOX_PORT_MESSAGE, SANDBOX_STARTED_MESSAGE } from './sandboxProtocol'

/** What the frame and the page say to each other while the frame starts. */
export const FRAME_MESSAGE = {
  LOADED: 'superstep-sandbox-loaded',
  SOURCE: 'superstep-sandbox-source',
  READY: 'superstep-sandbox-ready',
  FAILED: 'superstep-sandbox-failed',
} as const
const { LOADED, SOURCE, READY, FAILED } = FRAME_MESSAGE

/** The frame's Content-Security-Policy: no network, no storage origin, scripts inline/blob. */
export function sandboxCsp(allowNetwork = false): string {
  const base =
    "default-src 'none'; script-src 'unsafe-inline' 'unsafe-eval' blob:; worker-src blob:"
  return allowNetwork ? `${base}; connect-src *` : base
}

/**
 * Where the frame's document is served (beside index.html), per network mode. The frame is
 * loaded from a URL, not `srcdoc`: a srcdoc frame (and a `blob:` worker it starts) would
 * inherit the page's policy, which allows no inline script, no eval and no network. The
 * build writes these files and the dev server serves them (vite.config.ts), without the
 * page's policy header: their own `<meta>` policy is the sandbox's.
 */
export const SANDBOX_FRAME_FILES = {
  offline: 'sandbox-frame.html',
  network: 'sandbox-frame-network.html',
} as const

/**
 * The iframe's document (the file served for its network mode). The CSP meta comes first,
 * before any script. The script waits for
 * the worker source from its parent, starts it from a `blob:` URL, hands it one end of a
 * MessageChannel and, once the worker says it started, the other end to the parent.
 */
export function frameDocument(allowNetwork: boolean): string {
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
