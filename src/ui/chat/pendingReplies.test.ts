import { describe, expect, it } from 'vitest'
import type { StreamChunk } from '../../store/streamSlice'
import { pendingReplies } from './pendingReplies'

let seq = 0
const chunk = (message: unknown, step = 1, node = 'bot'): StreamChunk => ({
  seq: seq++,
  step,
  path: [],
  mode: 'messages',
  // A subgraph's own step number in the metadata: the chunk's root step is what counts.
  payload: [message, { langgraph_step: 99, langgraph_node: node }],
  node,
})

describe('pendingReplies', () => {
  it('puts a reply together from its AIMessageChunk pieces, text and tool-call fragments', () => {
    const chunks = [
      chunk({ type: 'AIMessageChunk', id: 'r1', content: 'Hel' }),
      { ...chunk(null), mode: 'updates', payload: { bot: {} } },
      chunk({ type: 'AIMessageChunk', id: 'r1', content: 'lo' }),
      chunk({
        type: 'AIMessageChunk',
        id: 'r1',
        content: '',
        tool_call_chunks: [{ index: 0, id: 'c1', name: 'get_', args: '{"ci' }],
      }),
      chunk({
        type: 'AIMessageChunk',
        id: 'r1',
        content: '!',
        tool_call_chunks: [{ index: 0, name: 'weather', args: 'ty":"Paris"}' }],
      }),
    ]
    expect(pendingReplies(chunks.slice(0, 3), new Set(), 0)).toEqual([
      { type: 'ai', id: 'r1', content: 'Hello' },
    ])
    expect(pendingReplies(chunks, new Set(), 0)).toEqual([
      {
        type: 'ai',
        id: 'r1',
        content: 'Hello!',
        tool_calls: [{ name: 'get_weather', args: { city: 'Paris' }, id: 'c1' }],
      },
    ])
    // Half-written arguments stay text until they parse.
    expect(pendingReplies(chunks.slice(0, 4), new Set(), 0)[0]?.tool_calls).toEqual([
      { name: 'get_', args: '{"ci', id: 'c1' },
    ])
  })

  it('pieces without an id join by node; the serialised class form is read too', () => {
    const lc = (content: string) => ({
      lc: 1,
      type: 'constructor',
      id: ['langchain_core', 'messages', 'AIMessageChunk'],
      kwargs: { content },
    })
    expect(pendingReplies([chunk(lc('a')), chunk(lc('b'))], new Set(), 0)).toEqual([
      { type: 'ai', content: 'ab' },
    ])
  })

  it('a whole message is shown as it is, until a checkpoint holds it or its step lands', () => {
    const whole = [
      chunk({ type: 'ai', id: 'm1', content: 'Hello! What would you like to build?' }, 3),
      chunk({ type: 'tool', id: 't1', content: '18', tool_call_id: 'c1' }, 4, 'tools'),
    ]
    expect(pendingReplies(whole, new Set(), 2).map((m) => m.id)).toEqual(['m1', 't1'])
    expect(pendingReplies(whole, new Set(['m1']), 2).map((m) => m.id)).toEqual(['t1'])
    expect(pendingReplies(whole, new Set(), 3).map((m) => m.id)).toEqual(['t1'])
    expect(pendingReplies(whole, new Set(), 4)).toEqual([])
  })
})
