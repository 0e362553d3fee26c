import { describe, expect, it } from 'vitest'
import { add, append, merge, union } from './named'
import { createAddMessages, REMOVE_ALL_MESSAGES } from './addMessages'
import { reducerFor } from '.'

/** An id source like the injected env's: `id-1`, `id-2`, … */
function counterIds() {
  let n = 0
  return () => `id-${++n}`
}

describe('append', () => {
  it('concatenates two lists, one level only', () => {
    expect(append([1], [2, [3]])).toEqual([1, 2, [3]])
  })

  it('appends a non-list write as one item', () => {
    expect(append(['a'], 'b')).toEqual(['a', 'b'])
    expect(append(['a'], { k: 1 })).toEqual(['a', { k: 1 }])
    expect(append(['a'], null)).toEqual(['a', null])
  })

  it('treats a non-list current value as a one-item list and undefined as none', () => {
    expect(append('a', ['b'])).toEqual(['a', 'b'])
    expect(append(undefined, 'x')).toEqual(['x'])
  })

  it('does not mutate its inputs', () => {
    const left = [1]
    append(left, [2])
    expect(left).toEqual([1])
  })
})

describe('add', () => {
  it('adds numbers and concatenates strings, as JavaScript + does', () => {
    expect(add(2, 3)).toBe(5)
    expect(add('ab', 'c')).toBe('abc')
    expect(add(1, '2')).toBe('12')
  })
})

describe('union', () => {
  it('keeps the first occurrence of each item, in first-seen order', () => {
    expect(union([3, 1, 3], [2, 1, 4])).toEqual([3, 1, 2, 4])
  })

  it('deduplicates JSON-equal objects whatever their key order, keeping the first', () => {
    const first = { a: 1, b: { c: 2, d: 3 } }
    const out = union([first], [{ b: { d: 3, c: 2 }, a: 1 }, { a: 2 }]) as unknown[]
    expect(out).toEqual([first, { a: 2 }])
    expect(out[0]).toBe(first)
  })

  it('tells apart values that print alike but differ in type', () => {
    expect(union([1, null], ['1', 'null'])).toEqual([1, null, '1', 'null'])
  })

  it('accepts a single non-list item on either side', () => {
    expect(union('a', ['a', 'b'])).toEqual(['a', 'b'])
  })
})

describe('merge', () => {
  it('merges shallowly: later keys win, nested objects are replaced, not merged', () => {
    const left = { a: 1, nested: { x: 1 } }
    expect(merge(left, { b: 2, nested: { y: 2 } })).toEqual({ a: 1, b: 2, nested: { y: 2 } })
    expect(left).toEqual({ a: 1, nested: { x: 1 } })
  })

  it('replaces the value when the update is not an object', () => {
    expect(merge({ a: 1 }, 5)).toBe(5)
    expect(merge({ a: 1 }, [1])).toEqual([1])
  })

  it('starts from nothing when the current value is not an object', () => {
    expect(merge(undefined, { a: 1 })).toEqual({ a: 1 })
  })
})

describe('add_messages', () => {
  it('turns a string into a human message with an id from the injected source', () => {
    const reduce = createAddMessages(counterIds())
    expect(reduce([], 'hi')).toEqual([{ type: 'human', content: 'hi', id: 'id-1' }])
  })

  it('coerces {role: "user"} to human and {role: "assistant"} to ai', () => {
    const reduce = createAddMessages(counterIds())
    expect(
      reduce(
        [],
        [
          { role: 'user', content: 'q' },
          { role: 'assistant', content: 'a' },
        ],
      ),
    ).toEqual([
      { type: 'human', content: 'q', id: 'id-1' },
      { type: 'ai', content: 'a', id: 'id-2' },
    ])
  })

  it('assigns missing ids on the left first, then on the right, in order', () => {
    const reduce = createAddMessages(counterIds())
    const out = reduce(['old'], ['new1', { type: 'ai', content: 'x', id: 'keep' }, 'new2'])
    expect((out as { id: string }[]).map((m) => m.id)).toEqual(['id-1', 'id-2', 'keep', 'id-3'])
  })

  it('replaces a message with the same id in place', () => {
    const reduce = createAddMessages(counterIds())
    const left = [
      { type: 'human', content: 'a', id: '1' },
      { type: 'ai', content: 'b', id: '2' },
    ]
    expect(reduce(left, { type: 'ai', content: 'B', id: '1' })).toEqual([
      { type: 'ai', content: 'B', id: '1' },
      { type: 'ai', content: 'b', id: '2' },
    ])
  })

  it('removes a message on {type: "remove", id}', () => {
    const reduce = createAddMessages(counterIds())
    const left = [
      { type: 'human', content: 'a', id: '1' },
      { type: 'ai', content: 'b', id: '2' },
    ]
    expect(reduce(left, { type: 'remove', id: '1' })).toEqual([
      { type: 'ai', content: 'b', id: '2' },
    ])
  })

  it('can remove a message added earlier in the same update', () => {
    const reduce = createAddMessages(counterIds())
    const out = reduce(
      [],
      [
        { type: 'human', content: 'gone', id: 'n' },
        { type: 'remove', id: 'n' },
      ],
    )
    expect(out).toEqual([])
  })

  it('throws when removing an id that does not exist', () => {
    const reduce = createAddMessages(counterIds())
    expect(() =>
      reduce([{ type: 'human', content: 'a', id: '1' }], { type: 'remove', id: 'zz' }),
    ).toThrow("Attempting to delete a message with an ID that doesn't exist ('zz')")
  })

  it('__remove_all__ drops everything before it and keeps what follows in the update', () => {
    const reduce = createAddMessages(counterIds())
    const left = [{ type: 'human', content: 'a', id: '1' }]
    const out = reduce(left, [
      'before',
      { type: 'remove', id: REMOVE_ALL_MESSAGES },
      { type: 'ai', content: 'after', id: 'x' },
    ])
    expect(out).toEqual([{ type: 'ai', content: 'after', id: 'x' }])
  })

  it('refuses values that are not messages', () => {
    const reduce = createAddMessages(counterIds())
    expect(() => reduce([], 42)).toThrow(/coerce/)
    expect(() => reduce([], { content: 'no role' })).toThrow(/neither "type" nor "role"/)
    expect(() => reduce([], { role: 'robot', content: 'x' })).toThrow(/robot/)
  })
})

describe('reducerFor', () => {
  const noEval = () => {
    throw new Error('evaluate must not be called')
  }

  it('gives LastValue fields (no reducer, overwrite) and channel fields no reducer', () => {
    expect(reducerFor({ name: 'x' }, counterIds(), noEval)).toBeNull()
    expect(reducerFor({ name: 'x', reducer: 'overwrite' }, counterIds(), noEval)).toBeNull()
    expect(reducerFor({ name: 't', channel: 'topic' }, counterIds(), noEval)).toBeNull()
  })

  it('wires add_messages to the injected id source and custom code to the evaluator', () => {
    const reduce = reducerFor({ name: 'm', reducer: 'add_messages' }, () => 'fixed', noEval)
    expect(reduce?.([], 'hi')).toEqual([{ type: 'human', content: 'hi', id: 'fixed' }])
    const custom = reducerFor(
      { name: 'c', reducer: 'custom', code: '(a, b) => b' },
      counterIds(),
      (code) => {
        expect(code).toBe('(a, b) => b')
        return (a, b) => [a, b]
      },
    )
    expect(custom?.(1, 2)).toEqual([1, 2])
  })
})
