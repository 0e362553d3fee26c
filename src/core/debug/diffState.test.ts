import { describe, expect, it } from 'vitest'
import { diffState } from './diffState'

const none = new Set<string>()
const messages = new Set(['messages'])

describe('diffState', () => {
  it('is empty for equal states, deep ones included', () => {
    const s = { x: 1, o: { a: [1, { b: 2 }] } }
    expect(diffState(s, structuredClone(s), none)).toEqual([])
  })

  it('reports a field present on one side only as one change, in key order', () => {
    expect(diffState({ a: 1, gone: { deep: [1, 2] } }, { a: 1, fresh: [3] }, none)).toEqual([
      { path: ['gone'], kind: 'removed', before: { deep: [1, 2] } },
      { path: ['fresh'], kind: 'added', after: [3] },
    ])
  })

  it('prefixes the deep changes inside a field with its name', () => {
    const before = { log: ['a'], o: { n: 1, drop: true }, x: 'old' }
    const after = { log: ['a', 'b'], o: { n: 2, add: null }, x: 'new' }
    expect(diffState(before, after, none)).toEqual([
      { path: ['log', 1], kind: 'added', after: 'b' },
      { path: ['o', 'n'], kind: 'changed', before: 1, after: 2 },
      { path: ['o', 'drop'], kind: 'removed', before: true },
      { path: ['o', 'add'], kind: 'added', after: null },
      { path: ['x'], kind: 'changed', before: 'old', after: 'new' },
    ])
  })

  it('reports a change of kind (value to object, array to object) at the field', () => {
    expect(diffState({ x: 1, y: [1] }, { x: { v: 1 }, y: { 0: 1 } }, none)).toEqual([
      { path: ['x'], kind: 'changed', before: 1, after: { v: 1 } },
      { path: ['y'], kind: 'changed', before: [1], after: { 0: 1 } },
    ])
  })

  it('counts a field holding undefined as present (a write of undefined is a write)', () => {
    expect(diffState({}, { x: undefined }, none)).toEqual([
      { path: ['x'], kind: 'added', after: undefined },
    ])
  })

  describe('add_messages fields: messages matched by id', () => {
    const m = (id: string, content: string, extra: object = {}) => ({
      id,
      type: 'human',
      content,
      ...extra,
    })

    it('reports an appended message once, at its id, not as shifted array slots', () => {
      const before = { messages: [m('m-1', 'hi')] }
      const after = { messages: [m('m-0', 'first'), m('m-1', 'hi')] }
      expect(diffState(before, after, messages)).toEqual([
        { path: ['messages', 'm-0'], kind: 'added', after: m('m-0', 'first') },
      ])
    })

    it('reports a removed message, and a replaced one by what changed inside it', () => {
      const before = { messages: [m('m-1', 'hi'), m('m-2', 'draft', { tags: ['a'] })] }
      const after = { messages: [m('m-2', 'final', { tags: ['a', 'b'] })] }
      expect(diffState(before, after, messages)).toEqual([
        { path: ['messages', 'm-1'], kind: 'removed', before: m('m-1', 'hi') },
        { path: ['messages', 'm-2', 'content'], kind: 'changed', before: 'draft', after: 'final' },
        { path: ['messages', 'm-2', 'tags', 1], kind: 'added', after: 'b' },
      ])
    })

    it('sees no change when only the order of the same messages differs', () => {
      const before = { messages: [m('a', '1'), m('b', '2')] }
      const after = { messages: [m('b', '2'), m('a', '1')] }
      expect(diffState(before, after, messages)).toEqual([])
    })

    it('diffs a messages field without ids by position, and other fields as usual', () => {
      const before = { messages: ['plain'], n: 1 }
      const after = { messages: ['plain', 'more'], n: 2 }
      expect(diffState(before, after, messages)).toEqual([
        { path: ['messages', 1], kind: 'added', after: 'more' },
        { path: ['n'], kind: 'changed', before: 1, after: 2 },
      ])
    })

    it('treats a field not named in messageFields by position even when it holds messages', () => {
      const before = { messages: [m('m-1', 'hi')] }
      const after = { messages: [m('m-0', 'first'), m('m-1', 'hi')] }
      expect(diffState(before, after, none).map((c) => c.path)).toEqual([
        ['messages', 0, 'id'],
        ['messages', 0, 'content'],
        ['messages', 1],
      ])
    })
  })
})
