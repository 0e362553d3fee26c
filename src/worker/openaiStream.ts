/**
 * A chat-completions event stream (`stream: true`) read into one reply: the server-sent
 * events are parsed by eventsource-parser, each chunk's `delta` is reported as it arrives, and
 * the pieces are joined into the `choices[0].message` the non-streamed reply would have had.
 */
import { createParser, type EventSourceParser } from 'eventsource-parser'
import type { AiMessageDelta } from '../core/compile/kinds'

/** Why a stream cannot be read; the provider words it with the node and the URL. */
export class StreamFault extends Error {
  constructor(
    readonly kind: 'malformed' | 'server-error',
    message: string,
  ) {
    super(message)
  }
}

interface ToolCallSoFar {
  id?: string
  name: string
  args: string
}

/** The OpenAI tool-call fragment of a `delta`. */
interface ToolCallChunk {
  index?: unknown
  id?: unknown
  function?: { name?: unknown; arguments?: unknown }
}

/**
 * Feeds text as it arrives; each event's chunk goes to `onDelta` (when there is one) before
 * the next event is read. `reply()` is the whole completion, in the non-streamed shape.
 */
export class StreamedReply {
  /** Events read (`[DONE]` included). */
  events = 0
  /** The server sent `[DONE]`. */
  done = false
  private finishReason: string | undefined
  private id: string | undefined
  private content = ''
  private readonly calls = new Map<number, ToolCallSoFar>()
  private fault: StreamFault | undefined
  private readonly parser: EventSourceParser

  constructor(private readonly onDelta?: (delta: AiMessageDelta) => void) {
    this.parser = createParser({ onEvent: (e) => this.onEvent(e.data) })
  }

  /** Parses `text`; throws the first fault (a bad event, an error event), or `onDelta`'s error. */
  feed(text: string): void {
    if (this.done) return
    this.parser.feed(text)
    if (this.fault) throw this.fault
  }

  /**
   * The body ended: an event left without its blank line still counts (the SSE spec drops it;
   * a server that omits the last blank line loses no piece of its reply this way).
   */
  end(): void {
    if (this.done) return
    this.parser.feed('\n\n')
    if (this.fault) throw this.fault
  }

  /** Whether the reply ended as a complete one (`[DONE]`, or a finish reason before the end). */
  get complete(): boolean {
    return this.done || this.finishReason !== undefined
  }

  /** What had arrived, for an error that cuts it short. */
  progress(): string {
    const events = `${this.events} event${this.events === 1 ? '' : 's'}`
    const calls = this.calls.size
    return `${events}: ${this.content.length} characters of text${calls ? ` and ${calls} tool call${calls === 1 ? '' : 's'}` : ''}`
  }

  /** The whole reply as a non-streamed completion: `{ id, choices: [{ message }] }`. */
  reply(): { id?: string; choices: [{ message: Record<string, unknown> }] } {
    const message: Record<string, unknown> = { role: 'assistant', content: this.content }
    if (this.calls.size > 0) {
      const byIndex = [...this.calls].sort(([a], [b]) => a - b)
      message.tool_calls = byIndex.map(([, c]) => ({
        ...(c.id !== undefined ? { id: c.id } : {}),
        type: 'function',
        function: { name: c.name, arguments: c.args },
      }))
    }
    return { ...(this.id !== undefined ? { id: this.id } : {}), choices: [{ message }] }
  }

  private onEvent(data: string): void {
    if (this.fault || this.done) return
    this.events += 1
    const at = `event ${this.events}`
    if (data.trim() === '[DONE]') {
      this.done = true
      return
    }
    let json: unknown
    try {
      json = JSON.parse(data)
    } catch {
      return this.fail(
        'malformed',
        `${at} whose data is not JSON (${JSON.stringify(data.slice(0, 80))})`,
      )
    }
    if (typeof json !== 'object' || json === null || Array.isArray(json)) {
      return this.fail('malformed', `${at} whose data is not a JSON object`)
    }
    const chunk = json as { id?: unknown; choices?: unknown; error?: unknown }
    if (chunk.error !== undefined && chunk.error !== null) {
      const e = chunk.error as { message?: unknown }
      const text =
        typeof e === 'string' ? e : typeof e.message === 'string' ? e.message : JSON.stringify(e)
      return this.fail('server-error', `${at}: ${text}`)
    }
    if (!Array.isArray(chunk.choices)) return this.fail('malformed', `${at} without a choices list`)
    if (typeof chunk.id === 'string' && this.id === undefined) this.id = chunk.id
    // A usage chunk has no choices; only the first choice is the reply.
    const choice = chunk.choices[0] as { delta?: unknown; finish_reason?: unknown } | undefined
    if (choice === undefined) return
    if (typeof choice.finish_reason === 'string') this.finishReason = choice.finish_reason
    const delta = (choice.delta ?? {}) as { content?: unknown; tool_calls?: unknown }
    if (typeof delta !== 'object')
      return this.fail('malformed', `${at} whose delta is not an object`)
    const out: AiMessageDelta = {}
    if (typeof delta.content === 'string' && delta.content !== '') {
      this.content += delta.content
      out.content = delta.content
    }
    if (delta.tool_calls !== undefined && delta.tool_calls !== null) {
      if (!Array.isArray(delta.tool_calls)) {
        return this.fail('malformed', `${at} whose tool_calls is not a list`)
      }
      const chunks: NonNullable<AiMessageDelta['tool_call_chunks']> = []
      for (const raw of delta.tool_calls as ToolCallChunk[]) {
        const piece = this.toolCallPiece(raw, at)
        if (!piece) return
        chunks.push(piece)
      }
      if (chunks.length > 0) out.tool_call_chunks = chunks
    }
    if (out.content === undefined && out.tool_call_chunks === undefined) return
    if (this.id !== undefined) out.id = this.id // the reply's id, the same in every chunk
    this.onDelta?.(out)
  }

  /** Adds a tool-call fragment to its call (by index); the fragment as a delta's chunk. */
  private toolCallPiece(raw: ToolCallChunk, at: string) {
    const index = raw?.index
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index > 127) {
      this.fail('malformed', `${at} with a tool call whose index is not a small whole number`)
      return undefined
    }
    let call = this.calls.get(index)
    if (!call) this.calls.set(index, (call = { name: '', args: '' }))
    const piece: { index: number; id?: string; name?: string; args?: string } = { index }
    if (typeof raw.id === 'string' && raw.id !== '') {
      call.id ??= raw.id
      piece.id = raw.id
    }
    const name = raw.function?.name
    if (typeof name === 'string' && name !== '') {
      // Name fragments join; a server that repeats the whole name each chunk is not doubled.
      if (name !== call.name) call.name += name
      piece.name = name
    }
    const args = raw.function?.arguments
    if (typeof args === 'string' && args !== '') {
      call.args += args
      piece.args = args
    }
    return piece
  }

  private fail(kind: StreamFault['kind'], message: string): void {
    this.fault = new StreamFault(kind, message)
  }
}
