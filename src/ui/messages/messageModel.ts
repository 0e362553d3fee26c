/**
 * Reading LangChain-style messages out of any value the debugger shows: which values are
 * conversations, each message's role, content, tool calls and tool results, and how a
 * state diff's changes group by message. Pure functions; the components only draw them.
 */
import { ROLE_TO_TYPE, toMessage } from '../../core/reducers/addMessages'

/** The role a message is drawn with (LangChain's message types). */
export type MessageRole = 'human' | 'ai' | 'system' | 'tool' | 'function' | 'generic' | 'remove'

/** A tool call as an AI message carries it, in LangChain's form whatever form it came in. */
export interface ToolCallView {
  id?: string
  name: string
  /** The arguments; a string the call's JSON `arguments` did not parse from. */
  args: unknown
}

/** One message, read for drawing. `raw` is the value as it is stored. */
export interface MessageView {
  role: MessageRole
  id?: string
  name?: string
  content: unknown
  toolCalls: ToolCallView[]
  toolCallId?: string
  status?: 'success' | 'error'
  raw: unknown
}

/** One piece of a message's content: text, an image reference, or any other block as JSON. */
export type ContentPart =
  { kind: 'text'; text: string } | { kind: 'image'; url: string } | { kind: 'json'; value: unknown }

/** add_messages' roles and types, and the `chat` of LangChain's ChatMessage. */
const ROLES: Readonly<Record<string, MessageRole>> = { ...ROLE_TO_TYPE, chat: 'generic' }

/** LangChain's class names, as its serialised form (`{lc: 1, type: 'constructor', id}`) names them. */
const CLASSES: Record<string, MessageRole> = {
  HumanMessage: 'human',
  HumanMessageChunk: 'human',
  AIMessage: 'ai',
  AIMessageChunk: 'ai',
  SystemMessage: 'system',
  SystemMessageChunk: 'system',
  ToolMessage: 'tool',
  ToolMessageChunk: 'tool',
  FunctionMessage: 'function',
  ChatMessage: 'generic',
  RemoveMessage: 'remove',
}

type Obj = Record<string, unknown>

const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * `v` read as one message, or null when it is not one. Any object with a known `type` or
 * `role` and a `content` (an AI message may have tool calls instead; a remove message an
 * id) is one, as is LangChain's serialised class form. `loose` (the value sits in an
 * add_messages field, whose reducer coerces what is written) also takes a string (a human
 * message) and a `[role, content]` pair.
 */
export function readMessage(v: unknown, loose = false): MessageView | null {
  if (typeof v === 'string' || Array.isArray(v)) {
    if (!loose) return null
    // What add_messages coerces a string or a `[role, content]` pair to.
    try {
      const m = toMessage(v)
      return { role: m.type, content: m.content, toolCalls: [], raw: v }
    } catch {
      return null
    }
  }
  if (!isObject(v)) return null
  if (v.lc === 1 && v.type === 'constructor' && Array.isArray(v.id) && isObject(v.kwargs)) {
    const role = CLASSES[String(v.id[v.id.length - 1])]
    return role ? fromFields(role, v.kwargs, v) : null
  }
  const key = typeof v.type === 'string' ? v.type : typeof v.role === 'string' ? v.role : null
  const role = key === null ? undefined : ROLES[key]
  if (!role) return null
  const hasBody =
    'content' in v ||
    (role === 'ai' && Array.isArray(v.tool_calls)) ||
    (role === 'remove' && typeof v.id === 'string')
  if (!hasBody) return null
  const content = v.content
  if (content !== undefined && content !== null && typeof content !== 'string') {
    if (!Array.isArray(content)) return null
  }
  return fromFields(role, v, v)
}

function fromFields(role: MessageRole, f: Obj, raw: unknown): MessageView {
  const m: MessageView = { role, content: f.content ?? '', toolCalls: readToolCalls(f), raw }
  if (typeof f.id === 'string' || typeof f.id === 'number') m.id = String(f.id)
  if (typeof f.name === 'string') m.name = f.name
  if (typeof f.tool_call_id === 'string') m.toolCallId = f.tool_call_id
  if (f.status === 'success' || f.status === 'error') m.status = f.status
  return m
}

/** LangChain's `{name, args, id}` and OpenAI's `{id, function: {name, arguments}}` alike. */
function readToolCalls(f: Obj): ToolCallView[] {
  const calls =
    f.tool_calls ?? (isObject(f.additional_kwargs) ? f.additional_kwargs.tool_calls : [])
  if (!Array.isArray(calls)) return []
  const out: ToolCallView[] = []
  for (const c of calls) {
    if (!isObject(c)) continue
    const fn = isObject(c.function) ? c.function : null
    const name =
      typeof c.name === 'string' ? c.name : fn && typeof fn.name === 'string' ? fn.name : ''
    let args: unknown = 'args' in c ? c.args : fn ? fn.arguments : undefined
    if (!('args' in c) && typeof args === 'string') {
      try {
        args = JSON.parse(args)
      } catch {
        // kept as the string it is: the model wrote arguments that are not JSON
      }
    }
    const call: ToolCallView = { name, args: args ?? {} }
    if (typeof c.id === 'string') call.id = c.id
    out.push(call)
  }
  return out
}

/**
 * `value` read as a conversation: a list of messages (every element one), or a single
 * message. `inMessagesField` (the value is an add_messages field's, or a write to one)
 * takes what that reducer coerces, and an empty list. Null: show it as JSON.
 */
export function readMessages(value: unknown, inMessagesField = false): MessageView[] | null {
  if (Array.isArray(value)) {
    if (value.length === 0) return inMessagesField ? [] : null
    // Element by element, as add_messages coerces a list (`['user', 'hi']` is two messages).
    const out: MessageView[] = []
    for (const v of value) {
      const m = readMessage(v, inMessagesField)
      if (!m) return null
      out.push(m)
    }
    return out
  }
  const one = readMessage(value, inMessagesField)
  return one ? [one] : null
}

/**
 * Whether `value` holds a conversation somewhere within `depth` levels of objects and
 * lists (a state, a Send's arguments), so it is drawn field by field rather than as JSON.
 */
export function holdsMessages(value: unknown, depth = 3): boolean {
  if (depth < 0 || typeof value !== 'object' || value === null) return false
  if (Array.isArray(value) && value.length > 0 && readMessages(value)) return true
  const children = Array.isArray(value) ? value : Object.values(value)
  return children.some((v) => holdsMessages(v, depth - 1))
}

/** A message's content as parts: a string is one text, a list of blocks is read block by block. */
export function contentParts(content: unknown): ContentPart[] {
  if (content === undefined || content === null || content === '') return []
  if (typeof content === 'string') return [{ kind: 'text', text: content }]
  if (!Array.isArray(content)) return [{ kind: 'json', value: content }]
  return content.map((b): ContentPart => {
    if (typeof b === 'string') return { kind: 'text', text: b }
    if (isObject(b) && b.type === 'text' && typeof b.text === 'string')
      return { kind: 'text', text: b.text }
    if (isObject(b) && b.type === 'image_url') {
      const u = b.image_url
      const url = typeof u === 'string' ? u : isObject(u) && typeof u.url === 'string' ? u.url : ''
      if (url) return { kind: 'image', url }
    }
    return { kind: 'json', value: b }
  })
}

/** Tool messages by the id of the call they answer (the first answer wins, as ToolNode's check). */
export function toolResultsByCallId(messages: readonly MessageView[]): Map<string, MessageView> {
  const out = new Map<string, MessageView>()
  for (const m of messages) {
    if (m.role === 'tool' && m.toolCallId !== undefined && !out.has(m.toolCallId))
      out.set(m.toolCallId, m)
  }
  return out
}

/** Tool calls by their id, to show a tool message with the call it answers. */
export function toolCallsById(messages: readonly MessageView[]): Map<string, ToolCallView> {
  const out = new Map<string, ToolCallView>()
  for (const m of messages) {
    for (const c of m.toolCalls) if (c.id !== undefined && !out.has(c.id)) out.set(c.id, c)
  }
  return out
}

/** A string that holds a JSON object or list (a tool's result), parsed; undefined otherwise. */
export function parseJsonText(text: string): unknown {
  const t = text.trim()
  if (!(t.startsWith('{') && t.endsWith('}')) && !(t.startsWith('[') && t.endsWith(']')))
    return undefined
  try {
    return JSON.parse(t) as unknown
  } catch {
    return undefined
  }
}

/** One line of a message for a heading or a title: its role, its name, its first words. */
export function summarize(m: MessageView, max = 60): string {
  const text = contentParts(m.content)
    .map((p) => (p.kind === 'text' ? p.text : p.kind === 'image' ? '[image]' : '[block]'))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim()
  const calls = m.toolCalls.map((c) => `${c.name}(…)`).join(', ')
  const body = text || calls
  return body.length > max ? `${body.slice(0, max - 1)}…` : body
}
