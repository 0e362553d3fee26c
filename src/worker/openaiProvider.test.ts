import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import type { ChatModelRequest } from '../core/compile/kinds'
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
})

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
