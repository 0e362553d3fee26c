import { createHash } from 'node:crypto'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { contentSecurityPolicy, SANDBOX_FRAME_SCRIPT_HASH } from './csp'
import { createSandboxFrame } from './worker/sandbox/sandboxFrame'

/** The srcdoc createSandboxFrame gives its iframe, read through a stand-in document. */
function sandboxSrcdoc(allowNetwork: boolean): string {
  const iframe = {
    srcdoc: '',
    style: {},
    setAttribute() {},
    remove() {},
    contentWindow: null,
  }
  vi.stubGlobal('document', { createElement: () => iframe, body: { append() {} } })
  vi.stubGlobal('window', { addEventListener() {}, removeEventListener() {} })
  vi.useFakeTimers()
  createSandboxFrame({ allowNetwork }).catch(() => {})
  // Its start timeout gives up and removes the frame while the stand-ins are still there.
  vi.runAllTimers()
  vi.useRealTimers()
  return iframe.srcdoc
}

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('the page Content-Security-Policy', () => {
  it("allows the sandbox frame's boot script by its hash (the frame inherits the policy)", () => {
    for (const allowNetwork of [false, true]) {
      const script = /<script>([\s\S]*)<\/script>/.exec(sandboxSrcdoc(allowNetwork))?.[1]
      expect(script, 'the sandbox frame has one inline script').toBeDefined()
      const hash = `sha256-${createHash('sha256').update(script!).digest('base64')}`
      // The whole value in the message: a diff of two hashes would cut them short.
      if (hash !== SANDBOX_FRAME_SCRIPT_HASH)
        expect.fail(`set SANDBOX_FRAME_SCRIPT_HASH in src/csp.ts to '${hash}'`)
    }
  })

  it('loads nothing from elsewhere but lets the sandbox work', () => {
    const policy = contentSecurityPolicy('build', 'header')
    const directive = (name: string) =>
      policy
        .split('; ')
        .find((d) => d.startsWith(`${name} `))
        ?.split(' ')
        .slice(1)
    expect(directive('default-src')).toEqual(["'self'"])
    expect(directive('img-src')).toEqual(["'self'", 'data:', 'blob:'])
    expect(directive('script-src')).toEqual([
      "'self'",
      "'unsafe-eval'",
      `'${SANDBOX_FRAME_SCRIPT_HASH}'`,
    ])
    expect(directive('style-src')).toEqual(["'self'", "'unsafe-inline'"])
    expect(directive('worker-src')).toEqual(["'self'", 'blob:'])
    expect(directive('frame-ancestors')).toEqual(["'none'"])
  })

  it('has no frame-ancestors in a meta, and allows inline scripts only in dev', () => {
    expect(contentSecurityPolicy('build', 'meta')).not.toContain('frame-ancestors')
    expect(contentSecurityPolicy('build', 'meta')).not.toContain("'unsafe-inline' ")
    expect(contentSecurityPolicy('dev', 'meta')).toMatch(/script-src [^;]*'unsafe-inline'/)
    expect(contentSecurityPolicy('dev', 'meta')).not.toContain('sha256-')
  })
})
