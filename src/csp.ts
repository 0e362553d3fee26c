/**
 * The page's Content-Security-Policy, in one place: `vite.config.ts` sends it as a header
 * with every HTML page of the dev server and of `vite preview`, and writes it as a
 * `<meta http-equiv>` into every built HTML page (static hosting sends no headers).
 *
 * What each relaxation is for:
 * - `style-src 'unsafe-inline'`: Monaco and React Flow inject `<style>` tags.
 * - `img-src data: blob:`: icons inlined by the bundler; nothing remote (a Markdown image in a
 *   hover cannot load).
 * - The code sandbox (src/worker/sandbox/sandboxFrame.ts) is an `<iframe srcdoc>` whose
 *   worker starts from a `blob:` URL. A srcdoc frame, and a blob worker it starts, inherit
 *   this page's policy on top of their own, so this policy must allow what the sandbox runs:
 *   its boot script (by hash, `SANDBOX_FRAME_SCRIPT_HASH`), `worker-src blob:`,
 *   `'unsafe-eval'` (user code is compiled with `new Function`), and `connect-src *` (a
 *   graph whose owner allowed the network fetches from there; the sandbox's own policy
 *   still says `connect-src 'none'` unless allowed). A frame loaded from a URL would not
 *   inherit, and these four could go.
 * - The runtime and Monaco workers are module workers loaded from this origin: a worker
 *   loaded from a URL gets the policy of its own response, not this one, so model calls from
 *   the runtime worker reach the endpoint the user chose. That is why the header goes with
 *   HTML responses only.
 * - Dev only: Vite's inline React Refresh preamble (`'unsafe-inline'`; a hash would switch it
 *   off) and its HMR websocket.
 */

/**
 * SHA-256 of the sandbox frame's inline boot script (the `<script>` of `frameDocument` in
 * sandboxFrame.ts). Change the script there and `csp.test.ts` prints the new value.
 */
export const SANDBOX_FRAME_SCRIPT_HASH = 'sha256-TL83nqZFz2ccv9ufIyB19GczE2g4uRsaDyLGeNy11N8='

/** Where the policy applies: the Vite dev server, or a build (preview and static hosting). */
export type CspMode = 'dev' | 'build'

/** How the policy is delivered: a `<meta>` cannot carry `frame-ancestors`. */
export type CspDelivery = 'header' | 'meta'

/** The directives, in the order they are written. */
export function cspDirectives(mode: CspMode, delivery: CspDelivery): [string, string[]][] {
  const dev = mode === 'dev'
  const directives: [string, string[]][] = [
    ['default-src', ["'self'"]],
    [
      'script-src',
      ["'self'", "'unsafe-eval'", dev ? "'unsafe-inline'" : `'${SANDBOX_FRAME_SCRIPT_HASH}'`],
    ],
    ['worker-src', ["'self'", 'blob:']],
    ['style-src', ["'self'", "'unsafe-inline'"]],
    ['img-src', ["'self'", 'data:', 'blob:']],
    ['font-src', ["'self'", 'data:']],
    ['connect-src', dev ? ["'self'", 'ws:', 'wss:', '*'] : ["'self'", '*']],
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
