import type { Reducer } from './named'

/**
 * A chat message as plain JSON, in LangChain's serialised vocabulary, so add_messages, the
 * exports and a LangGraph server agree on it.
 */
export interface Message {
  type: 'human' | 'ai' | 'system' | 'tool' | 'function' | 'generic' | 'remove'
  content: unknown
  id?: string
  name?: string
  tool_calls?: { name: string; args: unknown; id?: string }[]
  tool_call_id?: string
  /** Tool messages: whether the tool succeeded (LangChain's ToolMessage `status`). */
  status?: 'success' | 'error'
}

export const REMOVE_ALL_MESSAGES = '__remove_all__'

/** The roles and types a message-like value may name, and the type each one means. */
export const ROLE_TO_TYPE: Readonly<Record<string, Message['type']>> = {
  human: 'human',
  user: 'human',
  ai: 'ai',
  assistant: 'ai',
  system: 'system',
  developer: 'system',
  tool: 'tool',
  function: 'function',
  generic: 'generic',
  remove: 'remove',
}

/** Turns a message-like value (string, `[role, content]`, `{role|type, ...}`) into a Message. */
export function toMessage(like: unknown): Message {
  if (typeof like === 'string') return { type: 'human', content: like }
  if (Array.isArray(like) && like.length === 2 && typeof like[0] === 'string') {
    return { type: roleType(like[0]), content: like[1] }
  }
  if (typeof like !== 'object' || like === null) {
    throw new Error(`Unable to coerce message from: ${JSON.stringify(like)}`)
  }
  const o = like as Record<string, unknown>
  const role = typeof o.type === 'string' ? o.type : typeof o.role === 'string' ? o.role : undefined
  if (role === undefined) {
    throw new Error(
      `Unable to coerce message: it has neither "type" nor "role": ${JSON.stringify(like)}`,
    )
  }
  const m: Message = { type: roleType(role), content: o.content ?? '' }
  if (typeof o.id === 'string') m.id = o.id
  if (typeof o.name === 'string') m.name = o.name
  if (Array.isArray(o.tool_calls) && o.tool_calls.length > 0) {
    m.tool_calls = (o.tool_calls as Record<string, unknown>[]).map((c) => ({
      name: String(c.name),
      args: c.args ?? {},
      ...(typeof c.id === 'string' ? { id: c.id } : {}),
    }))
  }
  if (typeof o.tool_call_id === 'string') m.tool_call_id = o.tool_call_id
  if (m.type === 'tool' && (o.status === 'success' || o.status === 'error')) m.status = o.status
  return m
}

function roleType(role: string): Message['type'] {
  const t = ROLE_TO_TYPE[role]
  if (!t) throw new Error(`Unable to coerce message: unknown role or type "${role}".`)
  return t
}

/**
 * LangGraph's `add_messages`: merge by id (a message with a known id replaces it), remove
 * on `{ type: 'remove', id }`, clear on `{ type: 'remove', id: '__remove_all__' }`, and give
 * messages without an id a fresh one.
 */
export function createAddMessages(newId: () => string): Reducer {
  return (left, right) => {
    const withId = (m: Message): Message => (m.id === undefined ? { ...m, id: newId() } : m)
    const leftMessages = (Array.isArray(left) ? left : [left]).map(toMessage).map(withId)
    const rightMessages = (Array.isArray(right) ? right : [right]).map(toMessage).map(withId)
    const removeAll = rightMessages.findLastIndex(
      (m) => m.type === 'remove' && m.id === REMOVE_ALL_MESSAGES,
    )
    if (removeAll >= 0) return rightMessages.slice(removeAll + 1)

    const merged = [...leftMessages]
    const indexById = new Map(merged.map((m, i) => [m.id, i]))
    const toRemove = new Set<string>()
    for (const m of rightMessages) {
      const id = m.id as string
      const at = indexById.get(id)
      if (at !== undefined) {
        if (m.type === 'remove') toRemove.add(id)
        else {
          toRemove.delete(id)
          merged[at] = m
        }
      } else {
        if (m.type === 'remove') {
          throw new Error(`Attempting to delete a message with an ID that doesn't exist ('${id}')`)
        }
        indexById.set(id, merged.length)
        merged.push(m)
      }
    }
    return merged.filter((m) => !toRemove.has(m.id as string))
  }
}
