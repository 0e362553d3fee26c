import { existsSync } from 'node:fs'
import type { ServerResponse } from 'node:http'
import { resolve } from 'node:path'
import type { Connect, Plugin } from 'vite'
import { defineConfig } from 'vitest/config'
import react from '@vitejs/plugin-react'
import { contentSecurityPolicy, type CspMode } from './src/csp.ts'
import { frameDocument, SANDBOX_FRAME_FILES } from './src/worker/sandbox/sandboxFrameDocument.ts'
import { buildSandboxLoop } from './scripts/sandboxLoop.ts'

/**
 * Test-only pages for e2e specs and benchmarks (sandbox, inspector, canvas): built only by
 * `vite build --mode test` (`npm run build:test`, which `npm test`, `npm run test:e2e` and
 * `npm run bench` use), never by `npm run build`. The dev server serves them in any mode.
 */
const TEST_PAGES = {
  sandboxTest: 'sandbox-test.html',
  inspectorTest: 'inspector-test.html',
  canvasTest: 'canvas-test.html',
}

/**
 * React's memo, forwardRef and createContext make nothing but their value: a component of a
 * library nobody renders (React Flow's NodeResizer, say) goes with its call. Shared with the
 * first-load bench's floor build (bench/firstLoad.bench.ts).
 */
export const TREESHAKE = { manualPureFunctions: ['memo', 'forwardRef', 'createContext'] }

export default defineConfig(({ mode }) => ({
  plugins: [
    react(),
    sandboxFramePlugin(),
    contentSecurityPolicyPlugin(),
    testPagesPlugin(),
    sandboxLoopPlugin(),
  ],
  // The runtime worker's bundle: it carries the loop program it hands its sandboxes.
  worker: { plugins: () => [sandboxLoopPlugin()] },
  build: {
    target: 'es2022',
    sourcemap: true,
    rollupOptions: {
      input: { main: 'index.html', ...(mode === 'test' ? TEST_PAGES : {}) },
      treeshake: TREESHAKE,
    },
  },
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    environment: 'node',
    // What the page fetches as a chunk of its own (the graph tools before its first render,
    // dagre when a graph needs it, the store's less used actions on first use) is there from
    // the start.
    setupFiles: [
      'src/store/graphToolsEager.ts',
      'src/store/lazyActionsEager.ts',
      'src/ui/canvas/dagreEager.ts',
    ],
    testTimeout: 20_000,
  },
}))

/**
 * `virtual:sandbox-loop`: the program a sandbox runs for a run beside the code
 * (src/worker/sandbox/loopMain.ts and what it imports: the Pregel loop, the channels, the
 * compiler, the code host), bundled into one classic script, as a string the runtime worker
 * posts to its sandbox (a `blob:` worker in an opaque-origin frame imports nothing). The
 * script defines `__superstepLoop`, loopMain's exports.
 */
function sandboxLoopPlugin(): Plugin {
  const ID = 'virtual:sandbox-loop'
  return {
    name: 'superstep:sandbox-loop',
    resolveId: (id) => (id === ID ? `\0${ID}` : undefined),
    async load(id) {
      if (id !== `\0${ID}`) return undefined
      const { text, inputs } = await buildSandboxLoop()
      for (const input of inputs) this.addWatchFile(resolve(input))
      return `export default ${JSON.stringify(text)}`
    },
  }
}

/**
 * A test page asked of `vite preview` over a build without it answers 404 with the reason
 * (otherwise the single-page fallback would serve index.html, and a spec would fail on a
 * page it never meant to load).
 */
function testPagesPlugin(): Plugin {
  const pages = new Set(Object.values(TEST_PAGES))
  return {
    name: 'superstep:test-pages',
    configurePreviewServer(server) {
      const outDir = resolve(server.config.root, server.config.build.outDir)
      server.middlewares.use((req, res, next) => {
        const file = frameFileOf(req.url)
        if (!pages.has(file) || existsSync(resolve(outDir, file))) return next()
        res.statusCode = 404
        res.setHeader('content-type', 'text/plain; charset=utf-8')
        res.end(
          `${file} is a test page: build with \`vite build --mode test\` (npm run build:test).`,
        )
      })
    },
  }
}

/**
 * The page policy of src/csp.ts: a `<meta http-equiv>` in the head of every HTML page (the
 * built ones too, for static hosting), and a header with every HTML response of the dev
 * server and of `vite preview`. Not `server.headers`: those go with every response, and a
 * worker script served with a policy would be bound by it (the runtime worker's model calls).
 */
function contentSecurityPolicyPlugin(): Plugin {
  let mode: CspMode = 'build'
  return {
    name: 'superstep:content-security-policy',
    configResolved(config) {
      mode = config.command === 'serve' ? 'dev' : 'build'
    },
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const meta = `<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(mode, 'meta')}" />`
        // After the charset (which must come within the first 1024 bytes), before any script.
        const charset = /<meta charset[^>]*>/i
        return charset.test(html)
          ? html.replace(charset, (m) => `${m}\n    ${meta}`)
          : html.replace(/<head[^>]*>/i, (m) => `${m}\n    ${meta}`)
      },
    },
    configureServer(server) {
      server.middlewares.use(policyOnHtml(contentSecurityPolicy('dev', 'header')))
    },
    configurePreviewServer(server) {
      server.middlewares.use(policyOnHtml(contentSecurityPolicy('build', 'header')))
    },
  }
}

/** The sandbox frame's documents by file name (each carries its own, stricter policy). */
const FRAME_DOCUMENTS = new Map<string, string>([
  [SANDBOX_FRAME_FILES.offline, frameDocument(false)],
  [SANDBOX_FRAME_FILES.network, frameDocument(true)],
])

const frameFileOf = (url: string | undefined) => (url ?? '').split(/[?#]/)[0]!.replace(/^\//, '')

/**
 * The sandbox frame's documents (src/worker/sandbox/sandboxFrameDocument.ts) as files beside
 * index.html: written into the build, served by the dev server. They are loaded by URL so
 * that the page's policy, far stricter, does not apply to them (a srcdoc frame inherits it).
 */
function sandboxFramePlugin(): Plugin {
  return {
    name: 'superstep:sandbox-frame',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const doc = FRAME_DOCUMENTS.get(frameFileOf(req.url))
        if (doc === undefined) return next()
        res.setHeader('content-type', 'text/html; charset=utf-8')
        res.end(doc)
      })
    },
    generateBundle() {
      for (const [fileName, source] of FRAME_DOCUMENTS)
        this.emitFile({ type: 'asset', fileName, source })
    },
  }
}

/** Adds the policy header to a response once it turns out to be HTML (not a sandbox frame's). */
function policyOnHtml(policy: string): Connect.NextHandleFunction {
  return (req, res: ServerResponse, next) => {
    if (FRAME_DOCUMENTS.has(frameFileOf(req.url))) return next()
    const writeHead = res.writeHead
    res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
      const given = args.find((a): a is Record<string, unknown> => !!a && typeof a === 'object')
      const key = given && Object.keys(given).find((k) => k.toLowerCase() === 'content-type')
      const type = String((key && given[key]) ?? res.getHeader('content-type') ?? '')
      if (type.startsWith('text/html')) res.setHeader('Content-Security-Policy', policy)
      return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args)
    } as ServerResponse['writeHead']
    next()
  }
}
