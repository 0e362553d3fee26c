import { describe, expect, it } from 'vitest'
import { formatDefault, parseDefaultText } from './jsonDefault'

describe('parseDefaultText', () => {
  it('reads any JSON value', () => {
    expect(parseDefaultText('0')).toEqual({ ok: true, value: 0, empty: false })
    expect(parseDefaultText(' [1, "a"] ')).toEqual({ ok: true, value: [1, 'a'], empty: false })
    expect(parseDefaultText('{"a": {"b": null}}')).toEqual({
      ok: true,
      value: { a: { b: null } },
      empty: false,
    })
    expect(parseDefaultText('false')).toMatchObject({ ok: true, value: false })
  })

  it('reads blank text as no default', () => {
    expect(parseDefaultText('')).toEqual({ ok: true, value: undefined, empty: true })
    expect(parseDefaultText('   ')).toEqual({ ok: true, value: undefined, empty: true })
  })

  it("refuses what is not JSON, with the parser's reason", () => {
    for (const bad of ['[1,', '{a: 1}', "'x'", 'undefined', '1 2', '{"a":1}}']) {
      const r = parseDefaultText(bad)
      expect(r.ok, bad).toBe(false)
      if (!r.ok) expect(r.error).toMatch(/^Invalid JSON: \S/)
    }
  })
})

describe('formatDefault', () => {
  it('shows compact JSON and blank for none, and round-trips', () => {
    expect(formatDefault(undefined)).toBe('')
    expect(formatDefault({ a: [1, 2] })).toBe('{"a":[1,2]}')
    expect(parseDefaultText(formatDefault({ a: [1, 2] }))).toMatchObject({ value: { a: [1, 2] } })
  })
})
