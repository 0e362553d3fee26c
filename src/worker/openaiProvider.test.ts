import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { startFakeOpenAi, type FakeOpenAi, type FakeScript } from '../../e2e/fakeOpenAi'
import type { AiMessageDelta, ChatModelRequest } from '../core/compile/kinds'
import { OpenAiProvider } from './openaiProvider'

const KEY = 'sk-test-SECRET-1234567890'

interface Seen {
  url: string
  headers: IncomingHttpHeaders
  body: Record<string, unknown>
}

/** A reply, after `delayMs` when set; `'hang'` never answers. */
type Reply = { status?: number; body: string; delayMs?: number } | 'hang'

let servers: Server[] = []
afterEach(async () => {
  await Promise.all(
    servers.map((s) => {
      s.closeAllConnections()
      return new Promise((r) => s.close(r))
    }),
  )
  servers = []
  await Promise.all(fakes.map((f) => f.close()))
  fakes = []
})

let fakes: FakeOpenAi[] = []
/** The e2e fake server (SSE in pieces with pauses, or a fault), closed after each test. */
async function fake(script: FakeScript): Promise<FakeOpenAi> {
  const f = await startFakeOpenAi(script)
  fakes.push(f)
  return f
}

/** A chat-completions mock answering each request with the next reply. */
async function mock(replies: Reply[]): Promise<{ baseUrl: string; seen: Seen[] }> {
  const seen: Seen[] = []
  const server = createServer((req, res) => {
    let raw = ''
    req.on('data', (c: Buffer) => (raw += c.toString()))
    req.on('end', () => {
      seen.push({ url: req.url ?? '', headers: req.headers, body: JSON.parse(raw || '{}') })
      const reply = replies[seen.length - 1] ?? { status: 500, body: 'no more replies' }
      if (reply === 'hang') return
      const answer = () => {
        if (res.destroyed) return
        res.writeHead(reply.status ?? 200, { 'content-type': 'application/json' })
        res.end(reply.body)
      }
      if (reply.delayMs) setTimeout(answer, reply.delayMs)
      else answer()
    })
  })
  servers.push(server)
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  return { baseUrl: `http://127.0.0.1:${port}/v1`, seen }
}

function completion(message: object, id = 'chatcmpl-1'): { body: string } {
  return { body: JSON.stringify({ id, choices: [{ index: 0, message }] }) }
}

function request(baseUrl: string, extra: Partial<ChatModelRequest> = {}): ChatModelRequest {
  return {
    node: 'agent',
    settings: { provider: 'openai', baseUrl, model: 'mock', temperature: 0 },
    messages: [
      { type: 'system', content: 'Be brief.' },
      { type: 'human', content: 'Weather in Paris?', id: 'h1' },
    ],
    tools: [],
    ...extra,
  }
}

const WEATHER = {
  name: 'get_weather',
  description: 'The current weather in a city.',
  parameters: { type: 'object', properties: { city: { type: 'string' } } },
}

async function failure(
  p: Promise<unknown>,
): Promise<{ name: string; message: string; code: string }> {
  try {
    await p
  } catch (e) {
    const err = e as { name: string; message: string; lc_error_code: string }
    return { name: err.name, message: err.message, code: err.lc_error_code }
  }
  throw new Error('expected the call to fail')
}

describe('OpenAiProvider', () => {
  it('sends the messages and bound tools and parses a tool call', async () => {
    const { baseUrl, seen } = await mock([
      completion({
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
          },
        ],
      }),
    ])
    const p = new OpenAiProvider()
    p.setKeys({ [`${baseUrl}/`]: KEY })
    const reply = await p.call(request(baseUrl, { tools: [WEATHER] }))
    expect(reply).toEqual({
      type: 'ai',
      content: '',
      id: 'chatcmpl-1',
      tool_calls: [{ name: 'get_weather', args: { city: 'Paris' }, id: 'call_1' }],
    })
    expect(seen).toHaveLength(1)
    expect(seen[0]?.url).toBe('/v1/chat/completions')
    expect(seen[0]?.headers.authorization).toBe(`Bearer ${KEY}`)
    expect(seen[0]?.body).toEqual({
      model: 'mock',
      stream: true,
      temperature: 0,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Weather in Paris?' },
      ],
      tools: [{ type: 'function', function: WEATHER }],
    })
  })

  it('sends earlier tool calls and tool results, and parses the final answer', async () => {
    const { baseUrl, seen } = await mock([
      completion({ role: 'assistant', content: 'It is 18 °C in Paris.' }, 'chatcmpl-2'),
    ])
    const p = new OpenAiProvider()
    const reply = await p.call(
      request(baseUrl, {
        tools: [WEATHER],
        messages: [
          { type: 'human', content: 'Weather in Paris?' },
          {
            type: 'ai',
            content: '',
            tool_calls: [{ name: 'get_weather', args: { city: 'Paris' }, id: 'call_1' }],
          },
          {
            type: 'tool',
            content: '{"temperature":18}',
            tool_call_id: 'call_1',
            name: 'get_weather',
          },
        ],
      }),
    )
    expect(reply).toEqual({ type: 'ai', content: 'It is 18 °C in Paris.', id: 'chatcmpl-2' })
    // No key for this base URL: no Authorization header.
    expect(seen[0]?.headers.authorization).toBeUndefined()
    expect(seen[0]?.body.messages).toEqual([
      { role: 'user', content: 'Weather in Paris?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
          },
        ],
      },
      { role: 'tool', content: '{"temperature":18}', tool_call_id: 'call_1' },
    ])
  })

  it('sends no tools when none are bound and a key only to its own base URL', async () => {
    const a = await mock([completion({ role: 'assistant', content: 'a' })])
    const b = await mock([completion({ role: 'assistant', content: 'b' })])
    const p = new OpenAiProvider()
    p.setKeys({ [a.baseUrl]: KEY })
    await p.call(request(a.baseUrl))
    await p.call(request(b.baseUrl))
    expect(a.seen[0]?.body).not.toHaveProperty('tools')
    expect(a.seen[0]?.headers.authorization).toBe(`Bearer ${KEY}`)
    expect(b.seen[0]?.headers.authorization).toBeUndefined()
    expect(JSON.stringify(b.seen)).not.toContain(KEY)
  })

  it('an HTTP 401 names the node, the status and the server message, never the key', async () => {
    const { baseUrl } = await mock([
      {
        status: 401,
        body: JSON.stringify({
          error: { message: `Incorrect API key provided: ${KEY}`, type: 'invalid_request_error' },
        }),
      },
    ])
    const p = new OpenAiProvider()
    p.setKeys({ [baseUrl]: KEY })
    const e = await failure(p.call(request(baseUrl)))
    expect(e.name).toBe('ModelCallError')
    expect(e.code).toBe('MODEL_HTTP_ERROR')
    expect(e.message).toContain('`agent`')
    expect(e.message).toContain('HTTP 401')
    expect(e.message).toContain('Incorrect API key provided')
    expect(e.message).not.toContain(KEY)
  })

  it('an HTTP 500 with a text body names the status', async () => {
    const { baseUrl } = await mock([{ status: 500, body: 'boom' }])
    const p = new OpenAiProvider()
    p.setKeys({ [baseUrl]: KEY })
    const e = await failure(p.call(request(baseUrl)))
    expect(e.code).toBe('MODEL_HTTP_ERROR')
    expect(e.message).toMatch(/Model node `agent`: .* answered HTTP 500/)
    expect(e.message).not.toContain(KEY)
  })

  it('a malformed body or an unexpected shape is a bad reply', async () => {
    const { baseUrl } = await mock([
      { body: '{"choices": [' },
      { body: '{"object": "list"}' },
      completion({
        role: 'assistant',
        tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{bad' } }],
      }),
    ])
    const p = new OpenAiProvider()
    p.setKeys({ [baseUrl]: KEY })
    const notJson = await failure(p.call(request(baseUrl)))
    expect(notJson.code).toBe('MODEL_BAD_REPLY')
    expect(notJson.message).toContain('not JSON')
    const shape = await failure(p.call(request(baseUrl)))
    expect(shape.code).toBe('MODEL_BAD_REPLY')
    expect(shape.message).toContain('choices[0].message')
    const args = await failure(p.call(request(baseUrl)))
    expect(args.message).toContain('arguments are not JSON')
    for (const e of [notJson, shape, args]) expect(e.message).not.toContain(KEY)
  })

  it('a refused connection and a bad base URL say so', async () => {
    const { baseUrl } = await mock([])
    const closed = servers.pop() as Server
    await new Promise((r) => closed.close(r))
    const p = new OpenAiProvider()
    p.setKeys({ [baseUrl]: KEY, 'not a url': KEY })
    const refused = await failure(p.call(request(baseUrl)))
    expect(refused.code).toBe('MODEL_CONNECTION_FAILED')
    expect(refused.message).toContain('`agent`: could not reach')
    expect(refused.message).not.toContain(KEY)
    const bad = await failure(p.call(request('not a url')))
    expect(bad.code).toBe('MODEL_BAD_BASE_URL')
    expect(bad.message).toContain('"not a url"')
    expect(bad.message).not.toContain(KEY)
  })

  it('a server that never answers times out', async () => {
    const { baseUrl, seen } = await mock(['hang'])
    const p = new OpenAiProvider({ timeoutMs: 200 })
    p.setKeys({ [baseUrl]: KEY })
    const e = await failure(p.call(request(baseUrl)))
    expect(seen).toHaveLength(1)
    expect(e.code).toBe('MODEL_TIMEOUT')
    expect(e.message).toContain('did not answer within 0.2 s')
    expect(e.message).not.toContain(KEY)
  })

  it('a stop abandons a request under way at once, saying so (not as a connection failure)', async () => {
    const { baseUrl, seen } = await mock(['hang'])
    const p = new OpenAiProvider({ timeoutMs: 10_000 })
    const stop = new AbortController()
    const started = Date.now()
    const call = failure(p.call(request(baseUrl), stop.signal))
    await new Promise((r) => setTimeout(r, 100))
    stop.abort()
    const e = await call
    expect(Date.now() - started).toBeLessThan(2_000)
    expect(seen).toHaveLength(1)
    expect(e.code).toBe('MODEL_CALL_STOPPED')
    expect(e.message).toContain('the run was stopped')
    // Stopped before it starts: no request leaves.
    expect((await failure(p.call(request(baseUrl), stop.signal))).code).toBe('MODEL_CALL_STOPPED')
    expect(seen).toHaveLength(1)
  })

  it("a node's own timeoutMs wins over the provider's default", async () => {
    const late = { ...completion({ role: 'assistant', content: 'late' }), delayMs: 600 }
    const { baseUrl, seen } = await mock([late, late])
    const p = new OpenAiProvider() // the default: 60 s
    p.setKeys({ [baseUrl]: KEY })
    const settings = { provider: 'openai' as const, baseUrl, model: 'mock', timeoutMs: 150 }
    const started = Date.now()
    const e = await failure(p.call(request(baseUrl, { node: 'slow_agent', settings })))
    expect(Date.now() - started).toBeLessThan(550)
    expect(seen).toHaveLength(1)
    expect(e.name).toBe('ModelCallError')
    expect(e.code).toBe('MODEL_TIMEOUT')
    expect(e.message).toContain('Model node `slow_agent`')
    expect(e.message).toContain('did not answer within 0.15 s')
    expect(e.message).not.toContain(KEY)
    // A longer node limit lets a reply through that the provider's short default would not.
    const short = new OpenAiProvider({ timeoutMs: 100 })
    const reply = await short.call(
      request(baseUrl, { settings: { ...settings, timeoutMs: 5_000 } }),
    )
    expect(reply.content).toBe('late')
  })
})

describe('OpenAiProvider, streamed', () => {
  /** A call that records each delta with how much of the reply the server had sent by then. */
  function streamed(f: FakeOpenAi, p: OpenAiProvider, extra: Partial<ChatModelRequest> = {}) {
    const deltas: { delta: AiMessageDelta; sent: number; finished: boolean }[] = []
    const call = p.call(
      request(f.baseUrl, {
        onDelta: (delta) =>
          deltas.push({
            delta,
            sent: f.requests[0]?.sent.length ?? 0,
            finished: f.requests[0]?.finished ?? true,
          }),
        ...extra,
      }),
    )
    return { deltas, call }
  }

  it('asks for a stream and reports each delta in order, while the server still streams', async () => {
    const f = await fake([{ content: ['Hel', 'lo', ', wor', 'ld.'], delayMs: 100 }])
    const p = new OpenAiProvider()
    p.setKeys({ [f.baseUrl]: KEY })
    const { deltas, call } = streamed(f, p)
    expect(await call).toEqual({ type: 'ai', content: 'Hello, world.', id: 'chatcmpl-fake-1' })
    expect(f.requests[0]?.body.stream).toBe(true)
    expect(f.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`)
    // Each piece carries the reply's id, the id the whole reply resolves with.
    const id = 'chatcmpl-fake-1'
    expect(deltas.map((d) => d.delta)).toEqual([
      { content: 'Hel', id },
      { content: 'lo', id },
      { content: ', wor', id },
      { content: 'ld.', id },
    ])
    // The first piece came while the response was held open with events still to be written
    // (role, 4 pieces, the finish chunk and [DONE]: 7 in all).
    expect(deltas[0]?.finished).toBe(false)
    expect(deltas[0]?.sent).toBeLessThan(7)
    expect(f.requests[0]?.sent).toHaveLength(7)
  })

  it('assembles tool calls streamed across chunks, by index, and parses their arguments', async () => {
    const f = await fake([
      {
        content: 'Checking.',
        toolCalls: [
          { name: 'get_weather', args: '{"city":"Paris","unit":"C"}', id: 'call_a', argPieces: 4 },
          { name: 'get_time', args: '{"zone":"Europe/Paris"}', id: 'call_b', argPieces: 3 },
        ],
      },
    ])
    const { deltas, call } = streamed(f, new OpenAiProvider(), { tools: [WEATHER] })
    expect(await call).toEqual({
      type: 'ai',
      content: 'Checking.',
      id: 'chatcmpl-fake-1',
      tool_calls: [
        { name: 'get_weather', args: { city: 'Paris', unit: 'C' }, id: 'call_a' },
        { name: 'get_time', args: { zone: 'Europe/Paris' }, id: 'call_b' },
      ],
    })
    const chunks = deltas.flatMap((d) => d.delta.tool_call_chunks ?? [])
    expect(chunks.length).toBe(7)
    expect(chunks[0]).toEqual({ index: 0, id: 'call_a', name: 'get_weather', args: '{"city"' })
    const argsOf = (i: number) =>
      chunks
        .filter((c) => c.index === i)
        .map((c) => c.args)
        .join('')
    expect(argsOf(0)).toBe('{"city":"Paris","unit":"C"}')
    expect(argsOf(1)).toBe('{"zone":"Europe/Paris"}')
  })

  it('reads events split anywhere across network chunks, a multi-byte character included', async () => {
    const events = [
      { id: 'chatcmpl-s', choices: [{ index: 0, delta: { role: 'assistant', content: '' } }] },
      { id: 'chatcmpl-s', choices: [{ index: 0, delta: { content: 'Il fait 18 °C' } }] },
      { id: 'chatcmpl-s', choices: [{ index: 0, delta: { content: ' à Paris.' } }] },
      { id: 'chatcmpl-s', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
      { id: 'chatcmpl-s', choices: [], usage: { prompt_tokens: 9, completion_tokens: 5 } },
    ]
    const wire = Buffer.from(
      `: keep-alive\r\n\r\n${events.map((e) => `data: ${JSON.stringify(e)}\r\n\r\n`).join('')}data: [DONE]\r\n\r\n`,
    )
    // Cut inside the `°` (two bytes in UTF-8), inside a JSON string and inside `data:`.
    const degree = wire.indexOf(Buffer.from('°'))
    const cuts = [3, degree + 1, wire.indexOf(Buffer.from('à')) + 1, wire.length - 9, wire.length]
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      let from = 0
      const next = (i: number) => {
        const to = cuts[i]
        if (to === undefined) return void res.end()
        res.write(wire.subarray(from, to))
        from = to
        setTimeout(() => next(i + 1), 30)
      }
      next(0)
    })
    servers.push(server)
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const { port } = server.address() as AddressInfo
    const deltas: AiMessageDelta[] = []
    const reply = await new OpenAiProvider().call(
      request(`http://127.0.0.1:${port}/v1`, { onDelta: (d) => deltas.push(d) }),
    )
    expect(reply).toEqual({ type: 'ai', content: 'Il fait 18 °C à Paris.', id: 'chatcmpl-s' })
    expect(deltas).toEqual([
      { content: 'Il fait 18 °C', id: 'chatcmpl-s' },
      { content: ' à Paris.', id: 'chatcmpl-s' },
    ])
  })

  it('a server answering application/json to a stream request still works (no deltas)', async () => {
    const f = await fake([{ content: 'whole', json: true }])
    const { deltas, call } = streamed(f, new OpenAiProvider())
    expect(await call).toEqual({ type: 'ai', content: 'whole', id: 'chatcmpl-fake-1' })
    expect(deltas).toEqual([])
  })

  it('HTTP 429 and 500 name the node, the URL, the status and the server message, never the key', async () => {
    const f = await fake([
      { kind: 'status', status: 429, message: `Rate limit reached for ${KEY}` },
      { kind: 'status', status: 500, message: 'The server had an error' },
    ])
    const p = new OpenAiProvider()
    p.setKeys({ [f.baseUrl]: KEY })
    const limited = await failure(p.call(request(f.baseUrl)))
    expect(limited.code).toBe('MODEL_HTTP_ERROR')
    expect(limited.message).toBe(
      `Model node \`agent\`: ${f.baseUrl}/chat/completions answered HTTP 429 Too Many Requests: Rate limit reached for [key].`,
    )
    const broken = await failure(p.call(request(f.baseUrl)))
    expect(broken.code).toBe('MODEL_HTTP_ERROR')
    expect(broken.message).toContain(`${f.baseUrl}/chat/completions answered HTTP 500`)
    expect(broken.message).toContain('The server had an error')
  })

  it('a malformed event says what was wrong and at which event, after the deltas before it', async () => {
    const f = await fake([
      { kind: 'malformed', before: ['Hi', ' there'] },
      { kind: 'malformed', data: '{"object":"chat.completion.chunk"}' },
      { kind: 'malformed', before: ['x'], data: `{"error":{"message":"overloaded, ${KEY}"}}` },
    ])
    const p = new OpenAiProvider()
    p.setKeys({ [f.baseUrl]: KEY })
    const { deltas, call } = streamed(f, p)
    const notJson = await failure(call)
    expect(notJson.code).toBe('MODEL_BAD_REPLY')
    expect(notJson.message).toBe(
      `Model node \`agent\`: ${f.baseUrl}/chat/completions sent a malformed event stream: event 4 whose data is not JSON ("{\\"choices\\": [ not json").`,
    )
    expect(deltas.map((d) => d.delta.content)).toEqual(['Hi', ' there'])
    const shape = await failure(p.call(request(f.baseUrl)))
    expect(shape.code).toBe('MODEL_BAD_REPLY')
    expect(shape.message).toContain('event 2 without a choices list')
    // An error the server reports inside the stream is its own message, not a parse failure.
    const reported = await failure(p.call(request(f.baseUrl)))
    expect(reported.code).toBe('MODEL_HTTP_ERROR')
    expect(reported.message).toContain('answered HTTP 200 but then reported an error at event 3')
    expect(reported.message).toContain('overloaded, [key]')
    expect(reported.message).not.toContain(KEY)
  })

  it('a connection dropped mid-reply says how much had arrived', async () => {
    const f = await fake([
      { kind: 'drop', before: ['Hel', 'lo'] },
      { kind: 'drop', before: ['Hel'], clean: true },
    ])
    const p = new OpenAiProvider()
    p.setKeys({ [f.baseUrl]: KEY })
    const { deltas, call } = streamed(f, p)
    const cut = await failure(call)
    expect(cut.code).toBe('MODEL_CONNECTION_FAILED')
    expect(cut.message).toMatch(
      /^Model node `agent`: the reply from http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions broke off after 3 events: 5 characters of text \(.+\)\.$/,
    )
    expect(deltas.map((d) => d.delta.content)).toEqual(['Hel', 'lo'])
    // A body that ends without [DONE] or a finish reason is cut short too.
    const short = await failure(p.call(request(f.baseUrl)))
    expect(short.code).toBe('MODEL_CONNECTION_FAILED')
    expect(short.message).toContain(
      'ended after 2 events: 3 characters of text, before it was complete (no [DONE] and no finish_reason)',
    )
  })

  it('the timeout bounds each wait: a stream that goes quiet fails, a slow steady one does not', async () => {
    const f = await fake([
      { kind: 'hang', before: ['Hi'] },
      { content: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'], delayMs: 80 },
    ])
    const p = new OpenAiProvider({ timeoutMs: 300 })
    p.setKeys({ [f.baseUrl]: KEY })
    const quiet = await failure(p.call(request(f.baseUrl)))
    expect(quiet.code).toBe('MODEL_TIMEOUT')
    expect(quiet.message).toContain(
      `${f.baseUrl}/chat/completions sent nothing for 0.3 s after 2 events: 2 characters of text.`,
    )
    await expect.poll(() => f.requests[0]?.closedByClient).toBe(true)
    // 11 events 80 ms apart take longer than 0.3 s in all, but no wait between two is that long.
    expect((await p.call(request(f.baseUrl))).content).toBe('abcdefgh')
  })

  it('a stop mid-stream abandons the request at once: no delta after it, the connection closed', async () => {
    const f = await fake([{ content: ['one ', 'two ', 'three ', 'four ', 'five'], delayMs: 150 }])
    const p = new OpenAiProvider()
    const stop = new AbortController()
    const deltas: AiMessageDelta[] = []
    const call = failure(
      p.call(
        request(f.baseUrl, {
          onDelta: (d) => {
            deltas.push(d)
            stop.abort()
          },
        }),
        stop.signal,
      ),
    )
    const e = await call
    expect(e.code).toBe('MODEL_CALL_STOPPED')
    expect(e.message).toBe(
      `Model node \`agent\`: the run was stopped, so the request to ${f.baseUrl}/chat/completions was abandoned.`,
    )
    expect(deltas).toEqual([{ content: 'one ', id: 'chatcmpl-fake-1' }])
    await expect.poll(() => f.requests[0]?.closedByClient).toBe(true)
    expect(f.requests[0]?.finished).toBe(false)
    expect(f.requests[0]?.sent.length).toBeLessThan(8)
  })
})
