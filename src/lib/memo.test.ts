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

  it('reserved for a working set past its size, asked for over and over, it computes each once', () => {
    let calls = 0
    const f = memoByString((k) => (calls++, k), 2)
    const scan = () => ['a', 'b', 'c'].forEach((k) => f(k))
    scan()
    scan() // three keys through a memo of two, in order: every one forgotten before it is asked
    expect(calls).toBe(6)
    f.reserve(3)
    scan()
    calls = 0
    scan()
    expect(calls).toBe(0)
  })
})
