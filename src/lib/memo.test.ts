import { describe, expect, it } from 'vitest'
import { memoByString } from './memo'

describe('memoByString', () => {
  it('computes once per key and forgets the oldest beyond its size', () => {
    const calls: string[] = []
    const f = memoByString((k) => {
      calls.push(k)
      return { k }
    }, 2)
    const a = f('a')
    expect(f('a')).toBe(a)
    f('b')
    f('c') // forgets a
    f('b')
    expect(f('a')).not.toBe(a)
    expect(calls).toEqual(['a', 'b', 'c', 'a'])
  })
})
