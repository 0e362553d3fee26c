import { afterEach, describe, expect, it } from 'vitest'
import chatbot from '../../examples/chatbot.json'
import { closeAll, setup } from './serviceHarness'

afterEach(closeAll)

describe('watchStream', () => {
  it("sends a watched thread's chunks, of the modes asked for only", async () => {
    const t = await setup()
    const graphId = await t.compile(chatbot)
    const run = (threadId: string, content: string) =>
      t.client.request('run', {
        graphId,
        threadId,
        mode: 'toEnd',
        input: { messages: [{ type: 'human', content }] },
      })
    const modesOf = (threadId: string) =>
      new Set(
        t.events.flatMap((e) =>
          e.type === 'stream_chunk' && e.threadId === threadId ? [e.mode] : [],
        ),
      )
    await t.client.request('watchStream', { threadId: 'g:chat', on: true, modes: ['messages'] })
    await run('g:chat', 'hi')
    expect([...modesOf('g:chat')]).toEqual(['messages'])
    const pieces = t.events.flatMap((e) =>
      e.type === 'stream_chunk' && e.threadId === 'g:chat' ? [e] : [],
    )
    // Watched for messages, the model streams its reply: pieces of one AIMessageChunk id that
    // add up to the reply, in the root's super-step of the checkpoint it lands in (the input
    // is -1, __start__ 0).
    expect(pieces.length).toBeGreaterThan(1)
    for (const p of pieces)
      expect(p).toMatchObject({
        step: 1,
        payload: [{ type: 'AIMessageChunk', id: expect.any(String) }, { langgraph_node: 'bot' }],
      })
    const chunks = pieces.map((p) => (p.payload as [{ content: string; id: string }])[0])
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1)
    expect(chunks.map((c) => c.content).join('')).toBe('Hello! What would you like to build?')
    // Watched with no modes: every mode; not watched: none.
    await t.client.request('watchStream', { threadId: 'g:all', on: true })
    await run('g:all', 'hi')
    expect(modesOf('g:all')).toEqual(
      new Set(['values', 'updates', 'messages', 'debug', 'checkpoints', 'tasks']),
    )
    await t.client.request('watchStream', { threadId: 'g:all', on: false })
    const before = t.events.length
    await run('g:all', 'more')
    expect(t.events.slice(before).filter((e) => e.type === 'stream_chunk')).toEqual([])
  })
})
