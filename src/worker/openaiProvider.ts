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
import { EndpointCall, ModelCallError } from './endpointCall'

export { ModelCallError, type ModelCallFailure } from './endpointCall'

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
      // Always streamed (docs/runtime.md, Streamed replies): one path, read as it arrives.
      stream: true,
    }
    if (settings.temperature !== undefined) body.temperature = settings.temperature
    if (request.tools.length > 0) body.tools = request.tools.map(toOpenAiTool)
    // The node's own limit when it sets one (validated as positive), else the provider's.
    const timeoutMs = isPositiveFinite(settings.timeoutMs) ? settings.timeoutMs : this.timeoutMs
    const call = new EndpointCall({ node, url, key, timeoutMs, stopped, fetch: this.fetchFn })
    return call.run({ headers, body: JSON.stringify(body) }, request.onDelta)
  }
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
