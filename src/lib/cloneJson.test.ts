import { describe, expect, it } from 'vitest'
import { cloneJson } from './cloneJson'

describe('cloneJson', () => {
  it('copies nested JSON deeply', () => {
    const v = { a: [1, { b: 'x' }], c: null, d: { e: true } }
    const c = cloneJson(v)
    expect(c).toEqual(v)
    expect(c).not.toBe(v)
    expect(c.a[1]).not.toBe(v.a[1])
    ;(c.a[1] as { b: string }).b = 'changed'
    expect((v.a[1] as { b: string }).b).toBe('x')
  })

  it('keeps undefined entries and falls back to structuredClone for non-plain objects', () => {
    expect(cloneJson({ x: undefined })).toEqual({ x: undefined })
    expect('x' in cloneJson({ x: undefined })).toBe(true)
    const d = new Date(0)
    const c = cloneJson({ d })
    expect(c.d).toBeInstanceOf(Date)
    expect(c.d).not.toBe(d)
    expect(c.d.getTime()).toBe(0)
  })

  it('copes with cycles', () => {
    const a: Record<string, unknown> = { n: 1 }
    a.self = a
    const c = cloneJson(a)
    expect(c.self).toBe(c)
    expect(c).not.toBe(a)
  })
})
