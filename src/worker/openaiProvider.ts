/**
 * The OpenAI-compatible chat-completions client the runtime worker injects as
 * `CompileOptions.models`. It runs in the trusted worker, never in the sandbox, and holds the
 * API keys (per base URL, in memory only): a key goes into the `Authorization` header of
 * requests to its own base URL and nowhere else — not into errors, logs, events or checkpoints.
 */
import { isPositiveFinite } from '../lib/numbers'
import type {
  AiMessageJson,
  ChatModelProvider,
  ChatModelRequest,
  ToolDefinition,
} from '../core/compile/kinds'
import type { Message } from '../core/reducers/addMessages'

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

/**
 * The models of a graph whose Network setting is off: an endpoint model node fails before
 * any request leaves, naming the node and the endpoint it would have reached.
 */
export const networkOffModels: ChatModelProvider = {
  call({ node, settings }) {
    return Promise.reject(
      new ModelCallError(
        'MODEL_NETWORK_OFF',
        `Model node \`${node}\` calls ${JSON.stringify(settings.baseUrl)}, but this graph's Network setting is off: nothing was sent. Turn Network on (run drawer) to let it reach the endpoint.`,
      ),
    )
  },
}

export interface OpenAiProviderOptions {
  /** The worker's `fetch` (tests may pass another). */
  fetch?: typeof fetch
  /** How long one call may take before it is abandoned (default 60 s): a node's `timeoutMs` wins. */
  timeoutMs?: number
}

/** An OpenAI chat-completions message. */
interface OpenAiMessage {
  role: 'system' | 'user' | 'assistant' | 'tool'
  content: unknown
  name?: string
  tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[]
  tool_call_id?: string
}

/** Strips a trailing slash, so `…/v1/` and `…/v1` share a key. */
export function normalizeBaseUrl(baseUrl: string): string {
  return baseUrl.trim().replace(/\/+$/, '')
}

/** The chat-completions provider over `fetch`; `setKeys` replaces all keys at once. */
export class OpenAiProvider implements ChatModelProvider {
  private keys = new Map<string, string>()
  private readonly fetchFn: typeof fetch
  readonly timeoutMs: number

  constructor(o: OpenAiProviderOptions = {}) {
    this.fetchFn = o.fetch ?? ((input, init) => fetch(input, init))
    this.timeoutMs = o.timeoutMs ?? 60_000
  }

  /** Replaces the keys (base URL → key); empty keys are dropped. */
  setKeys(keys: Record<string, string>): void {
    this.keys = new Map(
      Object.entries(keys)
        .filter(([, k]) => typeof k === 'string' && k.trim() !== '')
        .map(([url, k]) => [normalizeBaseUrl(url), k.trim()]),
    )
  }

  /** How many keys are held (never the keys). */
  get keyCount(): number {
    return this.keys.size
  }

  /** `stopped`: the run's stop, which aborts a request under way at once. */
  async call(request: ChatModelRequest, stopped?: AbortSignal): Promise<AiMessageJson> {
    const { node, settings } = request
    const where = `Model node \`${node}\``
    const base = normalizeBaseUrl(settings.baseUrl)
    let url: URL
    try {
      url = new URL(`${base}/chat/completions`)
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http')
    } catch {
      throw new ModelCallError(
        'MODEL_BAD_BASE_URL',
        `${where}: the base URL ${JSON.stringify(settings.baseUrl)} is not an http(s) URL.`,
      )
    }
    const headers: Record<string, string> = { 'content-type': 'application/json' }
    const key = this.keys.get(base)
    if (key !== undefined) headers.authorization = `Bearer ${key}`
    const body: Record<string, unknown> = {
      model: settings.model,
      messages: request.messages.map(toOpenAiMessage),
    }
    if (settings.temperature !== undefined) body.temperature = settings.temperature
    if (request.tools.length > 0) body.tools = request.tools.map(toOpenAiTool)

    // The node's own limit when it sets one (validated as positive), else the provider's.
    const ms = isPositiveFinite(settings.timeoutMs) ? settings.timeoutMs : this.timeoutMs
    const abort = new AbortController()
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      abort.abort()
    }, ms)
    const stop = () => abort.abort()
    stopped?.addEventListener('abort', stop)
    const ended = () =>
      stopped?.aborted
        ? new ModelCallError(
            'MODEL_CALL_STOPPED',
            `${where}: the run was stopped, so the request to ${url.href} was abandoned.`,
          )
        : null
    try {
      if (stopped?.aborted) throw ended()
      let res: Response
      try {
        res = await this.fetchFn(url.href, {
          method: 'POST',
          headers,
          body: JSON.stringify(body),
          signal: abort.signal,
        })
      } catch (e) {
        if (timedOut) throw timeout(where, url, ms)
        throw (
          ended() ??
          new ModelCallError(
            'MODEL_CONNECTION_FAILED',
            `${where}: could not reach ${url.href} (${redact(describe(e), key)}). Is the server running, and does it allow this page's origin (CORS)?`,
          )
        )
      }
      let text: string
      try {
        text = await res.text()
      } catch (e) {
        if (timedOut) throw timeout(where, url, ms)
        const stoppedNow = ended()
        if (stoppedNow) throw stoppedNow
        throw new ModelCallError(
          'MODEL_CONNECTION_FAILED',
          `${where}: the reply from ${url.href} broke off (${redact(describe(e), key)}).`,
        )
      }
      if (!res.ok) {
        const detail = serverMessage(text)
        throw new ModelCallError(
          'MODEL_HTTP_ERROR',
          redact(
            `${where}: ${url.href} answered HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}${detail ? `: ${detail}` : ''}.`,
            key,
          ),
        )
      }
      return parseReply(text, where, url)
    } finally {
      clearTimeout(timer)
      stopped?.removeEventListener('abort', stop)
    }
  }
}

function timeout(where: string, url: URL, ms: number): ModelCallError {
  return new ModelCallError(
    'MODEL_TIMEOUT',
    `${where}: ${url.href} did not answer within ${ms / 1000} s.`,
  )
}

function describe(e: unknown): string {
  const m = (e as { message?: unknown } | null)?.message
  return typeof m === 'string' && m !== '' ? m : String(e)
}

/** A server may echo what it was sent; a key never leaves in an error. */
function redact(text: string, key: string | undefined): string {
  return key ? text.split(key).join('[key]') : text
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

const ROLES: Partial<Record<Message['type'], OpenAiMessage['role']>> = {
  human: 'user',
  ai: 'assistant',
  system: 'system',
  tool: 'tool',
  generic: 'user',
}

/** A Superstep (LangChain plain-form) message as OpenAI's chat-completions message. */
export function toOpenAiMessage(m: Message): OpenAiMessage {
  const role = ROLES[m.type]
  if (!role) throw new Error(`A ${m.type} message cannot be sent to a chat-completions model.`)
  const out: OpenAiMessage = { role, content: contentOf(m) }
  if (m.name !== undefined && role !== 'tool') out.name = m.name
  if (m.type === 'ai' && m.tool_calls?.length) {
    out.tool_calls = m.tool_calls.map((c, i) => ({
      id: c.id ?? `call_${i}`,
      type: 'function',
      function: { name: c.name, arguments: JSON.stringify(c.args ?? {}) },
    }))
    if (out.content === '') out.content = null
  }
  if (m.type === 'tool') out.tool_call_id = m.tool_call_id ?? ''
  return out
}

function contentOf(m: Message): unknown {
  const c = m.content
  if (typeof c === 'string' || Array.isArray(c)) return c
  if (c === undefined || c === null) return ''
  return JSON.stringify(c)
}

function toOpenAiTool(t: ToolDefinition) {
  return {
    type: 'function' as const,
    function: { name: t.name, description: t.description, parameters: t.parameters },
  }
}

function badReply(where: string, url: URL, what: string): ModelCallError {
  return new ModelCallError('MODEL_BAD_REPLY', `${where}: ${url.href} sent ${what}.`)
}

/** OpenAI's `choices[0].message` as a Superstep AI message. */
function parseReply(text: string, where: string, url: URL): AiMessageJson {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    throw badReply(where, url, `a reply that is not JSON (${JSON.stringify(text.slice(0, 80))})`)
  }
  const reply = json as { id?: unknown; choices?: unknown } | null
  const choice = Array.isArray(reply?.choices) ? (reply.choices[0] as unknown) : undefined
  const message = (choice as { message?: unknown } | undefined)?.message as
    { content?: unknown; tool_calls?: unknown } | undefined
  if (typeof message !== 'object' || message === null) {
    throw badReply(where, url, 'a reply without choices[0].message')
  }
  const out: AiMessageJson = { type: 'ai', content: message.content ?? '' }
  if (typeof reply?.id === 'string') out.id = reply.id
  if (message.tool_calls !== undefined && message.tool_calls !== null) {
    if (!Array.isArray(message.tool_calls))
      throw badReply(where, url, 'tool_calls that is not a list')
    const calls = message.tool_calls.map((c: unknown, i: number) => toolCallOf(c, i, where, url))
    if (calls.length > 0) out.tool_calls = calls
  }
  return out
}

function toolCallOf(c: unknown, i: number, where: string, url: URL) {
  const call = c as { id?: unknown; function?: { name?: unknown; arguments?: unknown } } | null
  const name = call?.function?.name
  if (typeof name !== 'string')
    throw badReply(where, url, `tool_calls[${i}] without a function name`)
  const raw = call?.function?.arguments
  let args: unknown = {}
  if (typeof raw === 'string' && raw.trim() !== '') {
    try {
      args = JSON.parse(raw)
    } catch {
      throw badReply(where, url, `tool_calls[${i}] (${name}) whose arguments are not JSON`)
    }
  } else if (typeof raw === 'object' && raw !== null) args = raw
  return { name, args, ...(typeof call?.id === 'string' ? { id: call.id } : {}) }
}
