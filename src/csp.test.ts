import { describe, expect, it } from 'vitest'
import { contentSecurityPolicy } from './csp'
import { frameDocument, sandboxCsp } from './worker/sandbox/sandboxFrameDocument'

const directive = (policy: string, name: string) =>
  policy
    .split('; ')
    .find((d) => d.startsWith(`${name} `))
    ?.split(' ')
    .slice(1)

describe('the page Content-Security-Policy', () => {
  it('loads and connects to nothing but this origin; images also from data: and blob:', () => {
    const policy = contentSecurityPolicy('build', 'header')
    expect(directive(policy, 'default-src')).toEqual(["'self'"])
    expect(directive(policy, 'img-src')).toEqual(["'self'", 'data:', 'blob:'])
    expect(directive(policy, 'script-src')).toEqual(["'self'"])
    expect(directive(policy, 'connect-src')).toEqual(["'self'"])
    expect(directive(policy, 'worker-src')).toEqual(["'self'"])
    expect(directive(policy, 'frame-src')).toEqual(["'self'"])
    expect(directive(policy, 'style-src')).toEqual(["'self'", "'unsafe-inline'"])
    expect(directive(policy, 'frame-ancestors')).toEqual(["'none'"])
  })

  it('has no frame-ancestors in a meta, and allows inline scripts and HMR only in dev', () => {
    expect(contentSecurityPolicy('build', 'meta')).not.toContain('frame-ancestors')
    expect(directive(contentSecurityPolicy('build', 'meta'), 'script-src')).toEqual(["'self'"])
    expect(contentSecurityPolicy('dev', 'meta')).toMatch(/script-src [^;]*'unsafe-inline'/)
    expect(directive(contentSecurityPolicy('dev', 'meta'), 'connect-src')).toEqual([
      "'self'",
      'ws:',
      'wss:',
    ])
  })
})

describe("the sandbox frame's own documents", () => {
  it('start with their own policy: no network unless the network file, never storage', () => {
    for (const network of [false, true]) {
      const doc = frameDocument(network)
      expect(doc.startsWith(`<!doctype html><meta http-equiv="Content-Security-Policy"`)).toBe(true)
      expect(doc).toContain(`content="${sandboxCsp(network)}"`)
      expect(directive(sandboxCsp(network), 'default-src')).toEqual(["'none'"])
      expect(directive(sandboxCsp(network), 'connect-src')).toEqual(network ? ['*'] : undefined)
    }
  })
})
