import { describe, expect, it } from 'vitest'
import { uniqueName } from './uniqueName'

describe('uniqueName', () => {
  it('keeps a free name, numbers a taken one from 2, and counts on from a number', () => {
    expect(uniqueName('counter', ['react'])).toBe('counter')
    expect(uniqueName('counter', ['counter'])).toBe('counter 2')
    expect(uniqueName('counter', ['counter', 'counter 2', 'counter 3'])).toBe('counter 4')
    expect(uniqueName('counter 2', ['counter', 'counter 2'])).toBe('counter 3')
    expect(uniqueName('counter copy', ['counter copy'])).toBe('counter copy 2')
  })
})
