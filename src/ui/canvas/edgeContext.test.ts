import { describe, expect, it } from 'vitest'
import { createRouteStore } from './edgeContext'

describe('createRouteStore', () => {
  it('wakes only the edges whose route changed, came or went', () => {
    const store = createRouteStore()
    const woken: string[] = []
    for (const id of ['a', 'b', 'c', 'd']) store.subscribe(id, () => woken.push(id))
    store.set(
      new Map([
        ['a', { offset: 10 }],
        ['b', { offset: -10 }],
      ]),
    )
    expect(woken.sort()).toEqual(['a', 'b'])
    woken.length = 0
    // a: same route in a new object; b: moved; c: new; the map is new.
    store.set(
      new Map([
        ['a', { offset: 10 }],
        ['b', { offset: 0, lane: { at: 5, lr: true } }],
        ['c', { offset: 1 }],
      ]),
    )
    expect(woken.sort()).toEqual(['b', 'c'])
    expect(store.get('b')).toEqual({ offset: 0, lane: { at: 5, lr: true } })
    woken.length = 0
    store.set(new Map([['b', { offset: 0, lane: { at: 5, lr: true } }]]))
    expect(woken.sort()).toEqual(['a', 'c'])
    expect(store.get('a')).toBeUndefined()
  })

  it('forgets a listener once it unsubscribes', () => {
    const store = createRouteStore()
    let calls = 0
    const stop = store.subscribe('a', () => calls++)
    store.set(new Map([['a', { offset: 1 }]]))
    stop()
    store.set(new Map([['a', { offset: 2 }]]))
    expect(calls).toBe(1)
  })
})
