/**
 * One call of a chat-completions endpoint: the request, its reply read as it arrives (an event
 * stream, or a whole JSON body), and every way it can fail as a {@link ModelCallError} that
 * names the node and the URL, never the key.
 */
import type { AiMessageDelta, AiMessageJson } from '../core/compile/kinds'
import { StreamedReply, StreamFault } from './openaiStream'

/** Why a model call failed, as `code` on the error. */
export type ModelCallFailure =
  | 'MODEL_BAD_BASE_URL'
  | 'MODEL_CONNECTION_FAILED'
  | 'MODEL_HTTP_ERROR'
  | 'MODEL_BAD_REPLY'
  | 'MODEL_TIMEOUT'
  | 'MODEL_NETWORK_OFF'
  | 'MODEL_CALL_STOPPED'

/** A model call that failed; the node ends with it (matched by `name`/`code`). */
export class ModelCallError extends Error {
  override name = 'ModelCallError'
  readonly lc_error_code: ModelCallFailure
  constructor(code: ModelCallFailure, message: string) {
    super(message)
    this.lc_error_code = code
  }
}

export interface EndpointCallOptions {
  /** The model node's id. */
  node: string
  /** `…/chat/completions`. */
  url: URL
  /** The base URL's key: never in an error, even when the server echoes it. */
  key: string | undefined
  /** The longest wait: for the response, then between two pieces of its body. */
  timeoutMs: number
  /** The run's stop, which aborts the call at once. */
  stopped: AbortSignal | undefined
  fetch: typeof fetch
}

/** A call under way; `run` settles it (its timer and abort listener are gone after). */
export class EndpointCall {
  private readonly abort = new AbortController()
  private timedOut = false
  private timer: ReturnType<typeof setTimeout> | undefined
  private readonly where: string

  constructor(private readonly o: EndpointCallOptions) {
    this.where = `Model node \`${o.node}\``
  }

  /** Posts `init` and resolves to the whole reply, each streamed delta to `onDelta` first. */
  async run(
    init: { headers: Record<string, string>; body: string },
    onDelta?: (delta: AiMessageDelta) => void,
  ): Promise<AiMessageJson> {
    const { stopped } = this.o
    const stop = () => this.abort.abort()
    stopped?.addEventListener('abort', stop)
    try {
      if (stopped?.aborted) throw this.stoppedError()
      const res = await this.send(init)
      return await this.read(res, onDelta)
    } finally {
      clearTimeout(this.timer)
      stopped?.removeEventListener('abort', stop)
      // Ends a body left unread (after [DONE], or on a fault): the connection is let go.
      this.abort.abort()
    }
  }

  private fail(code: ModelCallFailure, what: string): ModelCallError {
    const text = `${this.where}: ${what}`
    return new ModelCallError(code, this.o.key ? text.split(this.o.key).join('[key]') : text)
  }

  private stoppedError(): ModelCallError {
    return this.fail(
      'MODEL_CALL_STOPPED',
      `the run was stopped, so the request to ${this.o.url.href} was abandoned.`,
    )
  }

  /** (Re)starts the wait: a piece that arrives in time starts the next one. */
  private arm(): void {
    clearTimeout(this.timer)
    this.timer = setTimeout(() => {
      this.timedOut = true
      this.abort.abort()
    }, this.o.timeoutMs)
  }

  private async send(init: { headers: Record<string, string>; body: string }): Promise<Response> {
    this.arm()
    try {
      return await this.o.fetch(this.o.url.href, {
        method: 'POST',
        ...init,
        signal: this.abort.signal,
      })
    } catch (e) {
      if (this.timedOut) throw this.noAnswer()
      if (this.o.stopped?.aborted) throw this.stoppedError()
      throw this.fail(
        'MODEL_CONNECTION_FAILED',
        `could not reach ${this.o.url.href} (${describe(e)}). Is the server running, and does it allow this page's origin (CORS)?`,
      )
    }
  }

  private noAnswer(): ModelCallError {
    const s = this.o.timeoutMs / 1000
    return this.fail('MODEL_TIMEOUT', `${this.o.url.href} did not answer within ${s} s.`)
  }

  /** The body, piece by piece: an event stream (when 2xx and `text/event-stream`) or text. */
  private async read(
    res: Response,
    onDelta?: (delta: AiMessageDelta) => void,
  ): Promise<AiMessageJson> {
    const type = (res.headers.get('content-type') ?? '').toLowerCase()
    const reply = res.ok && type.includes('text/event-stream') ? new StreamedReply(onDelta) : null
    const reader = res.body?.getReader()
    const decoder = new TextDecoder()
    let text = ''
    for (;;) {
      const chunk = await this.next(reader, reply)
      const piece = chunk.done ? decoder.decode() : decoder.decode(chunk.value, { stream: true })
      if (reply) {
        this.feed(reply, piece, chunk.done, res.status)
        if (reply.done) break
      } else text += piece
      if (chunk.done) break
    }
    const { href } = this.o.url
    if (!res.ok) {
      const detail = serverMessage(text)
      const status = `${res.status}${res.statusText ? ` ${res.statusText}` : ''}`
      throw this.fail(
        'MODEL_HTTP_ERROR',
        `${href} answered HTTP ${status}${detail ? `: ${detail}` : ''}.`,
      )
    }
    if (!reply) return this.replyOf(parseJson(text, (what) => this.badReply(what)))
    if (!reply.complete) {
      throw this.fail(
        'MODEL_CONNECTION_FAILED',
        `the reply from ${href} ended after ${reply.progress()}, before it was complete (no [DONE] and no finish_reason).`,
      )
    }
    return this.replyOf(reply.reply())
  }

  /** The next piece of the body, within the timeout. */
  private async next(
    reader: ReadableStreamDefaultReader<Uint8Array> | undefined,
    reply: StreamedReply | null,
  ): Promise<ReadableStreamReadResult<Uint8Array>> {
    if (!reader) return { done: true, value: undefined }
    this.arm()
    try {
      return await reader.read()
    } catch (e) {
      const got = reply ? ` after ${reply.progress()}` : ''
      const { href } = this.o.url
      if (this.timedOut) {
        if (!reply || reply.events === 0) throw this.noAnswer()
        throw this.fail(
          'MODEL_TIMEOUT',
          `${href} sent nothing for ${this.o.timeoutMs / 1000} s${got}.`,
        )
      }
      if (this.o.stopped?.aborted) throw this.stoppedError()
      throw this.fail(
        'MODEL_CONNECTION_FAILED',
        `the reply from ${href} broke off${got} (${describe(e)}).`,
      )
    }
  }

  private feed(reply: StreamedReply, piece: string, done: boolean, status: number): void {
    const { href } = this.o.url
    try {
      reply.feed(piece)
      if (done) reply.end()
    } catch (e) {
      if (!(e instanceof StreamFault)) throw e // onDelta's own error
      if (e.kind === 'malformed')
        throw this.fail('MODEL_BAD_REPLY', `${href} sent a malformed event stream: ${e.message}.`)
      throw this.fail(
        'MODEL_HTTP_ERROR',
        `${href} answered HTTP ${status} but then reported an error at ${e.message}`,
      )
    }
  }

  private badReply(what: string): ModelCallError {
    return this.fail('MODEL_BAD_REPLY', `${this.o.url.href} sent ${what}.`)
  }

  /** OpenAI's `choices[0].message` (whole, or joined from a stream) as a Superstep AI message. */
  private replyOf(json: unknown): AiMessageJson {
    const reply = json as { id?: unknown; choices?: unknown } | null
    const choice = Array.isArray(reply?.choices) ? (reply.choices[0] as unknown) : undefined
    const message = (choice as { message?: unknown } | undefined)?.message as
      { content?: unknown; tool_calls?: unknown } | undefined
    if (typeof message !== 'object' || message === null) {
      throw this.badReply('a reply without choices[0].message')
    }
    const out: AiMessageJson = { type: 'ai', content: message.content ?? '' }
    if (typeof reply?.id === 'string') out.id = reply.id
    const calls = message.tool_calls
    if (calls !== undefined && calls !== null) {
      if (!Array.isArray(calls)) throw this.badReply('tool_calls that is not a list')
      const parsed = calls.map((c: unknown, i: number) =>
        toolCallOf(c, i, (what) => this.badReply(what)),
      )
      if (parsed.length > 0) out.tool_calls = parsed
    }
    return out
  }
}

function describe(e: unknown): string {
  const m = (e as { message?: unknown } | null)?.message
  return typeof m === 'string' && m !== '' ? m : String(e)
}

function parseJson(text: string, bad: (what: string) => Error): unknown {
  try {
    return JSON.parse(text)
  } catch {
    throw bad(`a reply that is not JSON (${JSON.stringify(text.slice(0, 80))})`)
  }
}

/** The server's own error message, when its body is OpenAI's `{ error: { message } }`. */
function serverMessage(text: string): string | undefined {
  try {
    const j = JSON.parse(text) as { error?: unknown; message?: unknown }
    const err = j.error
    if (typeof err === 'string') return err
    if (typeof err === 'object' && err !== null) {
      const m = (err as { message?: unknown }).message
      if (typeof m === 'string') return m
    }
    if (typeof j.message === 'string') return j.message
  } catch {
    // not JSON: the status alone says it
  }
  return undefined
}

function toolCallOf(c: unknown, i: number, bad: (what: string) => Error) {
  const call = c as { id?: unknown; function?: { name?: unknown; arguments?: unknown } } | null
  const name = call?.function?.name
  if (typeof name !== 'string') throw bad(`tool_calls[${i}] without a function name`)
  const raw = call?.function?.arguments
  let args: unknown = {}
  if (typeof raw === 'string' && raw.trim() !== '') {
    try {
      args = JSON.parse(raw)
    } catch {
      throw bad(`tool_calls[${i}] (${name}) whose arguments are not JSON`)
    }
  } else if (typeof raw === 'object' && raw !== null) args = raw
  return { name, args, ...(typeof call?.id === 'string' ? { id: call.id } : {}) }
}
