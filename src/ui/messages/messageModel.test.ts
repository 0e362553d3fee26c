import { describe, expect, it } from 'vitest'
import { createAddMessages } from '../../core/reducers/addMessages'
import { diffState } from '../../core/debug/diffState'
import type { CheckpointInspection } from '../../core/debug/types'
import { conversationsOf } from './conversations'
import { findMessage, groupDiffByMessage } from './messageDiff'
import {
  contentParts,
  holdsMessages,
  parseJsonText,
  readMessage,
  readMessages,
  summarize,
  toolCallsById,
  toolResultsByCallId,
} from './messageModel'

/** The ReAct template's conversation, as Superstep stores it after a run. */
const react = [
  { type: 'human', content: 'What is the weather in Paris?', id: 'h1' },
  {
    type: 'ai',
    content: '',
    id: 'a1',
    tool_calls: [{ name: 'get_weather', args: { city: 'Paris' }, id: 'call_1' }],
  },
  {
    type: 'tool',
    content: '{"city":"Paris","temperature":18,"sky":"sunny"}',
    id: 't1',
    name: 'get_weather',
    tool_call_id: 'call_1',
    status: 'success',
  },
  { type: 'ai', content: 'It is 18 °C and sunny in Paris.', id: 'a2' },
]

describe('readMessages: which values are conversations', () => {
  it('reads stored messages: role, id, tool calls, tool results', () => {
    const read = readMessages(react)
    expect(read?.map((m) => m.role)).toEqual(['human', 'ai', 'tool', 'ai'])
    expect(read?.[1]?.toolCalls).toEqual([
      { name: 'get_weather', args: { city: 'Paris' }, id: 'call_1' },
    ])
    expect(read?.[2]).toMatchObject({
      toolCallId: 'call_1',
      status: 'success',
      name: 'get_weather',
    })
    expect(read?.[0]?.raw).toBe(react[0])
  })

  it('reads the forms a node or an input writes: role names, OpenAI tool calls, LangChain classes', () => {
    const read = readMessages([
      { role: 'user', content: 'hi' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'c', type: 'function', function: { name: 'f', arguments: '{"x":1}' } },
          { id: 'd', type: 'function', function: { name: 'g', arguments: 'not json' } },
        ],
      },
      { role: 'developer', content: 'be brief' },
      {
        lc: 1,
        type: 'constructor',
        id: ['langchain_core', 'messages', 'ToolMessage'],
        kwargs: { content: 'ok', tool_call_id: 'c', status: 'error' },
      },
    ])
    expect(read?.map((m) => m.role)).toEqual(['human', 'ai', 'system', 'tool'])
    expect(read?.[1]?.toolCalls).toEqual([
      { id: 'c', name: 'f', args: { x: 1 } },
      { id: 'd', name: 'g', args: 'not json' },
    ])
    expect(read?.[3]).toMatchObject({ status: 'error', toolCallId: 'c' })
  })

  it('leaves other values as JSON: plain lists, objects with a type, a list with one stranger', () => {
    expect(readMessages([1, 2])).toBeNull()
    expect(readMessages(['hi', 'there'])).toBeNull()
    expect(readMessages([])).toBeNull()
    expect(readMessages({ type: 'ai' })).toBeNull()
    expect(readMessages({ type: 'human', content: 42 })).toBeNull()
    expect(readMessages({ type: 'circle', content: 'r=1' })).toBeNull()
    expect(readMessages([...react, { count: 1 }])).toBeNull()
    expect(readMessages('hello')).toBeNull()
  })

  it('in an add_messages field takes what its reducer coerces: strings, pairs, an empty list', () => {
    expect(readMessages([], true)).toEqual([])
    expect(readMessages('hello', true)?.map((m) => [m.role, m.content])).toEqual([
      ['human', 'hello'],
    ])
    const pairs = readMessages(
      [
        ['user', 'hi'],
        ['assistant', 'hello'],
      ],
      true,
    )
    expect(pairs?.map((m) => [m.role, m.content])).toEqual([
      ['human', 'hi'],
      ['ai', 'hello'],
    ])
    // As add_messages reads a list: element by element, so two strings are two messages.
    expect(readMessages(['user', 'hi'], true)?.map((m) => m.content)).toEqual(['user', 'hi'])
  })

  it('agrees with add_messages on what it coerces', () => {
    let n = 0
    const add = createAddMessages(() => `id-${++n}`)
    const writes: unknown[] = ['hi', ['ai', 'hello'], { role: 'user', content: 'x' }]
    for (const w of writes) {
      expect(readMessages(w, true)).not.toBeNull()
      const stored = add([], w)
      expect(readMessages(stored)?.length).toBe(Array.isArray(stored) ? stored.length : 1)
    }
  })

  it('a remove message is a message', () => {
    expect(readMessage({ type: 'remove', id: 'a1' })?.role).toBe('remove')
  })
})

describe('holdsMessages: a state or a Send that holds a conversation', () => {
  it('finds a conversation within a few levels', () => {
    expect(holdsMessages({ messages: react, n: 1 })).toBe(true)
    expect(holdsMessages([{ node: 'tools', args: { messages: react } }])).toBe(true)
    expect(holdsMessages({ messages: [] })).toBe(false)
    expect(holdsMessages({ a: { b: { c: { d: { e: react } } } } })).toBe(false)
    expect(holdsMessages({ count: 3, log: ['a'] })).toBe(false)
  })
})

describe('content and tool calls', () => {
  it('reads content blocks', () => {
    expect(contentParts('hi')).toEqual([{ kind: 'text', text: 'hi' }])
    expect(contentParts(null)).toEqual([])
    expect(
      contentParts([
        { type: 'text', text: 'look' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,AAA' } },
        { type: 'tool_use', id: 'x', input: {} },
      ]),
    ).toEqual([
      { kind: 'text', text: 'look' },
      { kind: 'image', url: 'data:image/png;base64,AAA' },
      { kind: 'json', value: { type: 'tool_use', id: 'x', input: {} } },
    ])
  })

  it('matches tool results to their calls by tool_call_id', () => {
    const read = readMessages(react) ?? []
    const results = toolResultsByCallId(read)
    expect(results.get('call_1')?.id).toBe('t1')
    expect(toolCallsById(read).get('call_1')?.name).toBe('get_weather')
    expect(results.get('call_2')).toBeUndefined()
  })

  it('parses JSON-looking tool results and summarizes a message', () => {
    expect(parseJsonText(' {"a":1} ')).toEqual({ a: 1 })
    expect(parseJsonText('{not json}')).toBeUndefined()
    expect(parseJsonText('plain text')).toBeUndefined()
    const read = readMessages(react) ?? []
    expect(summarize(read[1]!)).toBe('get_weather(…)')
    expect(summarize(read[3]!, 10)).toBe('It is 18 …')
  })
})

describe('groupDiffByMessage: a state diff by message id', () => {
  const fields = new Set(['messages'])
  const before = { messages: react.slice(0, 2), n: 1 }

  it('an added message is one item, with the message read', () => {
    const after = { messages: react.slice(0, 3), n: 2 }
    const items = groupDiffByMessage(diffState(before, after, fields), fields)
    expect(items).toHaveLength(2)
    expect(items[0]).toMatchObject({ type: 'message', kind: 'added', field: 'messages', key: 't1' })
    expect(items[1]).toMatchObject({ type: 'value', change: { path: ['n'], kind: 'changed' } })
  })

  it('a message kept by id whose content changed is one item with its inner changes', () => {
    const edited = { ...react[3], content: 'It is 20 °C.', name: 'bot' }
    const items = groupDiffByMessage(
      diffState({ messages: react }, { messages: [...react.slice(0, 3), edited] }, fields),
      fields,
    )
    expect(items).toHaveLength(1)
    expect(items[0]).toMatchObject({ type: 'message-changed', key: 'a2' })
    const changes = items[0]?.type === 'message-changed' ? items[0].changes : []
    expect(changes.map((c) => [c.path, c.kind])).toEqual([
      [['content'], 'changed'],
      [['name'], 'added'],
    ])
  })

  it('a removed message and a reordering by id: removed once, nothing by index', () => {
    const after = { messages: [react[1], react[0]] }
    expect(
      groupDiffByMessage(diffState({ messages: react.slice(0, 3) }, after, fields), fields),
    ).toEqual([
      {
        type: 'message',
        kind: 'removed',
        field: 'messages',
        key: 't1',
        message: expect.objectContaining({ role: 'tool' }),
      },
    ])
  })

  it('leaves fields that are not messages, and a whole field added, as values', () => {
    const items = groupDiffByMessage(diffState({}, { messages: react }, fields), fields)
    expect(items).toEqual([{ type: 'value', change: expect.objectContaining({ kind: 'added' }) }])
    const other = groupDiffByMessage(
      diffState({ log: [{ id: 'x', v: 1 }] }, { log: [{ id: 'x', v: 2 }] }, new Set()),
      fields,
    )
    expect(other.every((i) => i.type === 'value')).toBe(true)
  })

  it('finds the message a key names, by id or by index', () => {
    const read = readMessages(react)
    expect(findMessage(read, 'a2')?.content).toMatch(/sunny/)
    expect(findMessage(read, 0)?.id).toBe('h1')
    expect(findMessage(null, 'a2')).toBeUndefined()
  })
})

describe('conversationsOf', () => {
  it('reads the add_messages fields of a checkpoint, and only those', () => {
    const inspection = {
      channels: [
        { name: 'messages', role: 'field', reducer: 'add_messages', hasValue: true, value: react },
        { name: 'empty', role: 'field', reducer: 'add_messages', hasValue: false },
        { name: 'log', role: 'field', reducer: 'append', hasValue: true, value: react },
        { name: '__start__', role: 'start', hasValue: true, value: { messages: react } },
      ],
    } as unknown as CheckpointInspection
    const c = conversationsOf(inspection)
    expect([...c.keys()]).toEqual(['messages', 'empty'])
    expect(c.get('messages')?.length).toBe(4)
    expect(c.get('empty')).toBeNull()
    expect(conversationsOf(null).size).toBe(0)
  })
})
