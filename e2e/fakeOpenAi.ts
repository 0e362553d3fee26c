/**
 * A fake OpenAI-compatible chat-completions server on loopback, for e2e specs (and Node tests):
 * each request is answered by the next scripted reply, streamed as server-sent events in
 * pieces with a pause between them (as `stream: true` asks), or a fault. It sends CORS headers
 * and answers preflights, since the page's worker fetches it from another origin. Nothing here
 * reaches outside the machine.
 *
 * ```ts
 * const fake = await startFakeOpenAi([
 *   { toolCalls: [{ name: 'get_weather', args: '{"city":"Paris"}' }] },
 *   { content: ['It is ', '18 °C', ' in Paris.'], delayMs: 100 },
 * ])
 * // model node: { provider: 'openai', baseUrl: fake.baseUrl, model: 'fake' }
 * await fake.close()
 * ```
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

/** A tool call to stream: `args` is its JSON text, sent in `argPieces` pieces (default 2). */
export interface FakeToolCall {
  name: string
  args: string
  id?: string
  argPieces?: number
}

/** A reply streamed in pieces (or answered whole when the request did not ask to stream). */
export interface FakeStream {
  kind?: 'stream'
  /** The text, one piece per element (a string is one piece). */
  content?: string | string[]
  toolCalls?: FakeToolCall[]
  /** Pause before each event (default 20 ms). */
  delayMs?: number
  /** The completion's id (default `chatcmpl-fake-<n>`). */
  id?: string
  /** Answer `application/json` (the whole message at once) even when asked to stream. */
  json?: boolean
}

/** The faults an endpoint shows. */
export type FakeFault =
  /** An HTTP error with OpenAI's `{ error: { message } }` body (or `body` as is). */
  | { kind: 'status'; status: number; message?: string; body?: string }
  /** `before` content pieces stream fine, then an event whose data is `data` (default not JSON). */
  | { kind: 'malformed'; before?: string[]; data?: string; delayMs?: number }
  /**
   * `before` content pieces stream, then the connection is cut mid-body (no `[DONE]`); with
   * `clean`, the body ends properly instead, but still without `[DONE]` or a finish reason.
   */
  | { kind: 'drop'; before?: string[]; delayMs?: number; clean?: boolean }
  /** Headers and `before` pieces are sent (none by default: not even headers), then nothing, ever. */
  | { kind: 'hang'; before?: string[]; delayMs?: number }

export type FakeReply = FakeStream | FakeFault

/** One request the server received. */
export interface FakeRequest {
  method: string
  url: string
  headers: IncomingHttpHeaders
  body: {
    model?: string
    stream?: boolean
    messages?: { role: string; content: unknown; tool_call_id?: string }[]
    tools?: unknown[]
    [k: string]: unknown
  }
  /** The events written so far (the `data:` payloads), in order. */
  sent: string[]
  /** Whether the client closed the connection before the reply ended (e.g. Stop). */
  closedByClient: boolean
  /** Whether the reply was written to its end. */
  finished: boolean
}

export interface FakeOpenAi {
  /** `http://127.0.0.1:<port>/v1`: a model node's base URL. */
  baseUrl: string
  port: number
  /** Every chat-completions request so far (preflights not counted). */
  requests: FakeRequest[]
  /** Resolves once `n` requests have arrived. */
  waitForRequests(n: number, timeoutMs?: number): Promise<void>
  close(): Promise<void>
}

/** The replies in order (a request past the end gets HTTP 500), or a function choosing one. */
export type FakeScript = FakeReply[] | ((request: FakeRequest, index: number) => FakeReply)

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': 'authorization, content-type',
  'access-control-allow-methods': 'POST, OPTIONS',
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Starts the fake server on 127.0.0.1 and a free port. */
export async function startFakeOpenAi(script: FakeScript): Promise<FakeOpenAi> {
  const requests: FakeRequest[] = []
  const sockets = new Set<Socket>()
  const waiters: (() => void)[] = []
  const server = createServer((req, res) => {
    if (req.method === 'OPTIONS') {
      res.writeHead(204, CORS)
      res.end()
      return
    }
    let raw = ''
    req.on('data', (c: Buffer) => (raw += c.toString()))
    req.on('end', () => {
      let body: FakeRequest['body'] = {}
      try {
        body = JSON.parse(raw || '{}') as FakeRequest['body']
      } catch {
        // recorded as an empty body; the reply still follows the script
      }
      const seen: FakeRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body,
        sent: [],
        closedByClient: false,
        finished: false,
      }
      const index = requests.length
      requests.push(seen)
      res.on('close', () => {
        if (!res.writableFinished) seen.closedByClient = true
      })
      for (const w of waiters.splice(0)) w()
      const reply =
        typeof script === 'function'
          ? script(seen, index)
          : (script[index] ?? {
              kind: 'status' as const,
              status: 500,
              message: `the fake server has no reply ${index + 1}`,
            })
      void answer(res, seen, reply, index)
    })
  })
  server.on('connection', (s) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    async waitForRequests(n, timeoutMs = 10_000) {
      const until = Date.now() + timeoutMs
      while (requests.length < n) {
        if (Date.now() > until)
          throw new Error(`fake OpenAI: ${requests.length} of ${n} requests arrived`)
        await Promise.race([new Promise<void>((r) => waiters.push(r)), sleep(100)])
      }
    },
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy()
        server.close(() => r())
      }),
  }
}

function chunk(id: string, delta: object, finish: string | null = null): string {
  return JSON.stringify({
    id,
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: 'fake',
    choices: [{ index: 0, delta, finish_reason: finish }],
  })
}

function split(text: string, n: number): string[] {
  const size = Math.max(1, Math.ceil(text.length / Math.max(1, n)))
  const out: string[] = []
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size))
  return out.length > 0 ? out : ['']
}

/** The `data:` payloads of a streamed reply, `[DONE]` last. */
function streamEvents(r: FakeStream, id: string): string[] {
  const pieces =
    r.content === undefined ? [] : typeof r.content === 'string' ? [r.content] : r.content
  const events = [chunk(id, { role: 'assistant', content: '' })]
  for (const p of pieces) events.push(chunk(id, { content: p }))
  ;(r.toolCalls ?? []).forEach((c, index) => {
    const callId = c.id ?? `call_fake_${index + 1}`
    const [first = '', ...rest] = split(c.args, c.argPieces ?? 2)
    events.push(
      chunk(id, {
        tool_calls: [
          { index, id: callId, type: 'function', function: { name: c.name, arguments: first } },
        ],
      }),
    )
    for (const a of rest)
      events.push(chunk(id, { tool_calls: [{ index, function: { arguments: a } }] }))
  })
  events.push(chunk(id, {}, r.toolCalls?.length ? 'tool_calls' : 'stop'))
  events.push('[DONE]')
  return events
}

function wholeMessage(r: FakeStream, id: string): string {
  const content = r.content === undefined ? '' : [r.content].flat().join('')
  const message: Record<string, unknown> = { role: 'assistant', content }
  if (r.toolCalls?.length) {
    if (content === '') message.content = null
    message.tool_calls = r.toolCalls.map((c, i) => ({
      id: c.id ?? `call_fake_${i + 1}`,
      type: 'function',
      function: { name: c.name, arguments: c.args },
    }))
  }
  return JSON.stringify({
    id,
    object: 'chat.completion',
    choices: [{ index: 0, message, finish_reason: r.toolCalls?.length ? 'tool_calls' : 'stop' }],
  })
}

async function answer(
  res: ServerResponse,
  seen: FakeRequest,
  reply: FakeReply,
  index: number,
): Promise<void> {
  const id = ('id' in reply && reply.id) || `chatcmpl-fake-${index + 1}`
  const delay = reply.kind === 'status' ? 0 : (reply.delayMs ?? 20)
  const write = async (data: string): Promise<boolean> => {
    await sleep(delay)
    if (res.destroyed) return false
    seen.sent.push(data)
    res.write(`data: ${data}\n\n`)
    return true
  }
  const openStream = () =>
    res.writeHead(200, {
      ...CORS,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
    })
  switch (reply.kind) {
    case 'status': {
      res.writeHead(reply.status, { ...CORS, 'content-type': 'application/json' })
      res.end(reply.body ?? JSON.stringify({ error: { message: reply.message ?? 'fake error' } }))
      seen.finished = true
      return
    }
    case 'malformed':
    case 'drop':
    case 'hang': {
      const before = reply.before ?? []
      if (reply.kind === 'hang' && reply.before === undefined) return // not even headers
      openStream()
      const events = [chunk(id, { role: 'assistant', content: '' })]
      for (const p of before) events.push(chunk(id, { content: p }))
      for (const e of events) if (!(await write(e))) return
      if (reply.kind === 'malformed') {
        if (!(await write(reply.data ?? '{"choices": [ not json'))) return
        await sleep(delay)
        res.end()
      } else if (reply.kind === 'drop') {
        await sleep(delay)
        if (reply.clean) res.end()
        else res.socket?.destroy() // mid-reply: the chunked body never ends
      }
      return
    }
    default: {
      if (reply.json === true || seen.body.stream !== true) {
        await sleep(delay)
        if (res.destroyed) return
        res.writeHead(200, { ...CORS, 'content-type': 'application/json' })
        res.end(wholeMessage(reply, id))
        seen.finished = true
        return
      }
      openStream()
      for (const e of streamEvents(reply, id)) if (!(await write(e))) return
      res.end()
      seen.finished = true
    }
  }
}
