import { describe, expect, it } from 'vitest'
import { Send } from '../core/pregel/types'
import { toJsonSafe } from './jsonSafe'

describe('toJsonSafe', () => {
  it('returns plain data as it is, without copying', () => {
    const v = { a: [1, 'x', { b: null, c: undefined }], d: true }
    expect(toJsonSafe(v)).toBe(v)
  })

  it('gives everything else its plain form, copying only the path to it', () => {
    const shared = { keep: 1 }
    const cyclic: Record<string, unknown> = { name: 'c' }
    cyclic.self = cyclic
    const v = {
      shared,
      send: new Send('n', { q: 1 }),
      when: new Date(Date.UTC(2026, 0, 1)),
      map: new Map([['k', 1n]]),
      set: new Set([1, 2]),
      fn: function named() {},
      err: new TypeError('bad'),
      bytes: new Uint8Array([1, 2]),
      cyclic,
    }
    const out = toJsonSafe(v) as Record<string, unknown>
    expect(out).toEqual({
      shared: { keep: 1 },
      send: { lg_name: 'Send', node: 'n', args: { q: 1 } },
      when: '2026-01-01T00:00:00.000Z',
      map: { k: '1n' },
      set: [1, 2],
      fn: '[Function named]',
      err: { name: 'TypeError', message: 'bad' },
      bytes: [1, 2],
      cyclic: { name: 'c', self: '[Circular]' },
    })
    expect(out.shared).toBe(shared)
    expect(() => structuredClone(out)).not.toThrow()
    expect(JSON.parse(JSON.stringify(out))).toEqual(out)
  })
})
