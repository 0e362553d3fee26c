/**
 * The page's Content-Security-Policy, in one place: `vite.config.ts` sends it as a header
 * with every HTML page of the dev server and of `vite preview`, and writes it as a
 * `<meta http-equiv>` into every built HTML page (static hosting sends no headers).
 *
 * What each relaxation is for:
 * - `style-src 'unsafe-inline'`: Monaco and React Flow inject `<style>` tags.
 * - `img-src data: blob:`: icons inlined by the bundler; nothing remote (a Markdown image in a
 *   hover cannot load).
 * - The code sandbox is an `<iframe sandbox>` loaded from this origin's
 *   `sandbox-frame*.html` (src/worker/sandbox/sandboxFrameDocument.ts), which carry their own
 *   policy; a frame loaded by URL does not inherit this one, so nothing here is loosened
 *   for it (`frame-src 'self'` loads it).
 * - The runtime and Monaco workers are module workers loaded from this origin: a worker
 *   loaded from a URL gets the policy of its own response, not this one, so model calls from
 *   the runtime worker reach the endpoint the user chose. That is why the header goes with
 *   HTML responses only.
 * - Dev only: Vite's inline React Refresh preamble (`'unsafe-inline'`; a hash would switch it
 *   off) and its HMR websocket.
 */

/** Where the policy applies: the Vite dev server, or a build (preview and static hosting). */
export type CspMode = 'dev' | 'build'

/** How the policy is delivered: a `<meta>` cannot carry `frame-ancestors`. */
export type CspDelivery = 'header' | 'meta'

/** The directives, in the order they are written. */
export function cspDirectives(mode: CspMode, delivery: CspDelivery): [string, string[]][] {
  const dev = mode === 'dev'
  const directives: [string, string[]][] = [
    ['default-src', ["'self'"]],
    ['script-src', dev ? ["'self'", "'unsafe-inline'"] : ["'self'"]],
    ['worker-src', ["'self'"]],
    ['style-src', ["'self'", "'unsafe-inline'"]],
    ['img-src', ["'self'", 'data:', 'blob:']],
    ['font-src', ["'self'", 'data:']],
    ['connect-src', dev ? ["'self'", 'ws:', 'wss:'] : ["'self'"]],
    ['frame-src', ["'self'"]],
    ['media-src', ["'none'"]],
    ['object-src', ["'none'"]],
    ['base-uri', ["'none'"]],
    ['form-action', ["'none'"]],
  ]
  if (delivery === 'header') directives.push(['frame-ancestors', ["'none'"]])
  return directives
}

/** The policy as a header or meta value. */
export function contentSecurityPolicy(mode: CspMode, delivery: CspDelivery): string {
  return cspDirectives(mode, delivery)
    .map(([name, sources]) => `${name} ${sources.join(' ')}`)
    .join('; ')
}
