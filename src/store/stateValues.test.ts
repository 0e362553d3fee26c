import { describe, expect, it } from 'vitest'
import type { GraphSpec } from '../core/graph/schema'
import { parseStateUpdate } from './stateValues'

const spec: GraphSpec = {
  superstep: 1,
  name: 'g',
  state: [
    { name: 'count', reducer: 'add', default: 0 },
    { name: 'log', reducer: 'append', default: [] },
    { name: 'messages', reducer: 'add_messages' },
    { name: 'meta', reducer: 'merge' },
    { name: 'answer' },
  ],
  nodes: [],
  edges: [],
}

describe('parseStateUpdate', () => {
  it('accepts known fields with fitting values', () => {
    expect(parseStateUpdate(spec, '{"count": 5, "answer": {"a": [1]}}')).toEqual({
      ok: true,
      values: { count: 5, answer: { a: [1] } },
    })
    expect(parseStateUpdate(spec, '').ok).toBe(true)
    expect(parseStateUpdate(spec, '{"messages": [{"type": "human", "content": "hi"}]}').ok).toBe(
      true,
    )
  })

  it('says what is wrong and where', () => {
    expect(parseStateUpdate(spec, '{"count": "five"}')).toEqual({
      ok: false,
      error: expect.stringMatching(/^count: .*number/),
    })
    expect(parseStateUpdate(spec, '{"cuont": 1}')).toEqual({
      ok: false,
      error: 'cuont: not a field of the state (fields: count, log, messages, meta, answer)',
    })
    expect(parseStateUpdate(spec, '{"meta": [1]}')).toMatchObject({ ok: false })
    expect(parseStateUpdate(spec, '{count: 1}')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^Not JSON/),
    })
    expect(parseStateUpdate(spec, '[1]')).toMatchObject({ ok: false })
  })
})
