import { describe, expect, it } from 'vitest'
import type { AiMessageDelta } from '../core/compile/kinds'
import { StreamedReply, StreamFault } from './openaiStream'

const event = (data: unknown) =>
  `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`
const chunk = (delta: object, finish: string | null = null) =>
  event({ id: 'c1', choices: [{ index: 0, delta, finish_reason: finish }] })

function faultOf(f: () => void): StreamFault {
  try {
    f()
  } catch (e) {
    if (e instanceof StreamFault) return e
    throw e
  }
  throw new Error('expected a fault')
}

describe('StreamedReply', () => {
  it('joins tool calls by index, whatever order their fragments come in', () => {
    const deltas: AiMessageDelta[] = []
    const r = new StreamedReply((d) => deltas.push(d))
    r.feed(
      chunk({
        tool_calls: [{ index: 1, id: 'b', function: { name: 'second', arguments: '{"y"' } }],
      }) +
        chunk({ tool_calls: [{ index: 0, id: 'a', function: { name: 'first', arguments: '' } }] }) +
        chunk({
          tool_calls: [
            { index: 0, function: { arguments: '{"x":1}' } },
            { index: 1, function: { arguments: ':2}' } },
          ],
        }) +
        chunk({}, 'tool_calls') +
        event('[DONE]'),
    )
    expect(r.done).toBe(true)
    expect(r.reply()).toEqual({
      id: 'c1',
      choices: [
        {
          message: {
            role: 'assistant',
            content: '',
            tool_calls: [
              { id: 'a', type: 'function', function: { name: 'first', arguments: '{"x":1}' } },
              { id: 'b', type: 'function', function: { name: 'second', arguments: '{"y":2}' } },
            ],
          },
        },
      ],
    })
    expect(deltas[2]).toEqual({
      id: 'c1',
      tool_call_chunks: [
        { index: 0, args: '{"x":1}' },
        { index: 1, args: ':2}' },
      ],
    })
    expect(r.progress()).toBe('5 events: 0 characters of text and 2 tool calls')
  })

  it('a server that repeats the whole name in each fragment does not double it', () => {
    const r = new StreamedReply()
    const piece = (args: string) =>
      chunk({
        tool_calls: [{ index: 0, id: 'a', function: { name: 'get_weather', arguments: args } }],
      })
    r.feed(piece('{"city":') + piece('"Paris"}') + chunk({}, 'tool_calls'))
    r.end() // no [DONE], but a finish reason: complete
    expect(r.complete).toBe(true)
    const message = r.reply().choices[0].message as { tool_calls: { function: object }[] }
    expect(message.tool_calls[0]?.function).toEqual({
      name: 'get_weather',
      arguments: '{"city":"Paris"}',
    })
  })

  it('an event without its blank line still counts at the end; nothing after [DONE] is read', () => {
    const deltas: AiMessageDelta[] = []
    const r = new StreamedReply((d) => deltas.push(d))
    r.feed(
      chunk({ content: 'a' }) +
        `data: ${JSON.stringify({ choices: [{ delta: { content: 'b' } }] })}`,
    )
    expect(deltas).toHaveLength(1)
    r.end()
    expect(deltas.map((d) => d.content)).toEqual(['a', 'b'])
    expect(r.complete).toBe(false) // neither [DONE] nor a finish reason
    const done = new StreamedReply((d) => deltas.push(d))
    done.feed(event('[DONE]') + chunk({ content: 'late' }))
    expect(deltas).toHaveLength(2)
  })

  it('says which event was wrong, and how', () => {
    const bad = (text: string) =>
      faultOf(() => new StreamedReply().feed(chunk({ content: 'x' }) + text))
    expect(bad(event('nope')).message).toBe('event 2 whose data is not JSON ("nope")')
    expect(bad(event('[1]')).message).toBe('event 2 whose data is not a JSON object')
    expect(bad(event({ id: 'c1' })).message).toBe('event 2 without a choices list')
    expect(bad(event({ choices: [{ delta: 'text' }] })).message).toBe(
      'event 2 whose delta is not an object',
    )
    expect(bad(chunk({ tool_calls: [{ function: { name: 'f' } }] })).message).toBe(
      'event 2 with a tool call whose index is not a small whole number',
    )
    const error = bad(event({ error: { message: 'overloaded' } }))
    expect(error.kind).toBe('server-error')
    expect(error.message).toBe('event 2: overloaded')
  })
})
