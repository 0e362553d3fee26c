import type { ServerResponse } from 'node:http'
import type { Connect, Plugin } from 'vite'
import { defineConfig } from 'vitest/config'
import react from '@vitejs/plugin-react'
import { contentSecurityPolicy, type CspMode } from './src/csp.ts'

export default defineConfig({
  plugins: [react(), contentSecurityPolicyPlugin()],
  build: {
    target: 'es2022',
    sourcemap: true,
    // Test-only pages for e2e specs and benchmarks (sandbox, inspector, canvas).
    rollupOptions: {
      input: {
        main: 'index.html',
        sandboxTest: 'sandbox-test.html',
        inspectorTest: 'inspector-test.html',
        canvasTest: 'canvas-test.html',
      },
    },
  },
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    environment: 'node',
    testTimeout: 20_000,
  },
})

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

/** Adds the policy header to a response once it turns out to be HTML. */
function policyOnHtml(policy: string): Connect.NextHandleFunction {
  return (_req, res: ServerResponse, next) => {
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
