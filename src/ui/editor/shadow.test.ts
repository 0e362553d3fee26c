import { describe, expect, it } from 'vitest'
import { flattenMessage, symbolEntries, toCodeSpan, wrapCode } from './shadow'

describe('wrapCode', () => {
  it('casts the code with a JSDoc type, offsets shifted by the prefix only', () => {
    const w = wrapCode('(s) => s. // done', 'NodeFn')
    expect(w.text).toBe('/** @type {NodeFn} */ ((s) => s. // done\n)')
    expect(w.text.slice(w.prefixLength, w.prefixLength + 3)).toBe('(s)')
  })
})

describe('toCodeSpan', () => {
  it('maps shadow spans back into the code and clamps the wrapper away', () => {
    const { prefixLength } = wrapCode('abc', 'T')
    expect(toCodeSpan(prefixLength + 1, 2, prefixLength, 3)).toEqual({ start: 1, end: 3 })
    expect(toCodeSpan(prefixLength + 3, 2, prefixLength, 3)).toEqual({ start: 3, end: 3 })
    expect(toCodeSpan(0, 5, prefixLength, 3)).toEqual({ start: 0, end: 0 })
  })
})

describe('symbolEntries and flattenMessage', () => {
  it("drops JavaScript's plain-identifier guesses and flattens message chains", () => {
    const entries = [
      { name: 'count', kind: 'property', sortText: '11' },
      { name: 'NodeFn', kind: 'warning', sortText: '18' },
    ]
    expect(symbolEntries(entries).map((e) => e.name)).toEqual(['count'])
    expect(flattenMessage({ messageText: 'a', next: [{ messageText: 'b' }] })).toBe('a\nb')
  })
})
