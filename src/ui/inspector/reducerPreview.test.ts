import { describe, expect, it } from 'vitest'
import type { FieldSpec } from '../../core/graph/schema'
import { formatValue, reducerPreview } from './reducerPreview'

const text = (field: Omit<FieldSpec, 'name'>) => reducerPreview({ name: 'f', ...field }).text

describe('reducerPreview', () => {
  it('folds two writes through each named reducer, by running it', () => {
    expect(text({ reducer: 'append' })).toBe('[1] + [2] → [1, 2]')
    expect(text({ reducer: 'add' })).toBe('1 + 2 → 3')
    expect(text({ reducer: 'union' })).toBe('[1, 2] ∪ [2, 3] → [1, 2, 3]')
    expect(text({ reducer: 'merge' })).toBe('{a:1} ⊕ {b:2} → {a:1, b:2}')
    expect(text({ reducer: 'add_messages' })).toBe('[human hi] + [ai hello] → 2 messages')
  })

  it('shows add concatenating when the default is a string', () => {
    expect(text({ reducer: 'add', default: '' })).toBe("'a' + 'b' → 'ab'")
  })

  it('reports the LastValue error for overwrite and for no reducer at all', () => {
    for (const field of [{}, { reducer: 'overwrite' as const }]) {
      expect(reducerPreview({ name: 'f', ...field })).toEqual({
        kind: 'refused',
        text: '1, 2 → InvalidUpdateError',
        code: 'INVALID_CONCURRENT_GRAPH_UPDATE',
        note: 'One write per super-step: two writes in one step fail it (INVALID_CONCURRENT_GRAPH_UPDATE). A reducer lets a field take several.',
      })
    }
  })

  it('reports the ephemeral channel refusing two writes (LangGraph gives that one no code)', () => {
    expect(reducerPreview({ name: 'f', channel: 'ephemeral' })).toEqual({
      kind: 'refused',
      text: '1, 2 → InvalidUpdateError',
      note: 'One write per super-step: two writes in one step fail it. A reducer lets a field take several.',
    })
  })

  it('collects topic writes, and shows what accumulate changes in the next step', () => {
    expect(text({ channel: 'topic' })).toBe('1, 2 → [1, 2], then 3 → [3]')
    expect(text({ channel: 'topic', accumulate: true })).toBe('1, 2 → [1, 2], then 3 → [1, 2, 3]')
  })

  it('lets a channel win over a reducer, as the compiler does', () => {
    expect(text({ channel: 'topic', reducer: 'add' })).toMatch(/^1, 2 → \[1, 2\]/)
  })

  it('never runs custom code: it shows the code, on one line, shortened', () => {
    let ran = false
    ;(globalThis as { __ran?: () => void }).__ran = () => (ran = true)
    const code = '(a, b) => {\n  globalThis.__ran()\n  return b\n}'
    expect(reducerPreview({ name: 'f', reducer: 'custom', code })).toEqual({
      kind: 'code',
      text: '(a, b) => { globalThis.__ran() return b }',
    })
    expect(ran).toBe(false)
    expect(text({ reducer: 'custom' })).toBe('(a, b) => …')
    expect(text({ reducer: 'custom', code: `(a, b) => ${'a + '.repeat(20)}b` })).toHaveLength(48)
  })
})

describe('formatValue', () => {
  it('prints lists, objects, strings and numbers compactly', () => {
    expect(formatValue([1, 'x', { a: [true] }, null])).toBe("[1, 'x', {a:[true]}, null]")
  })
})
