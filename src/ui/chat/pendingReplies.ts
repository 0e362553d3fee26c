/**
 * The replies being written: the `messages` chunks of the run under way that no checkpoint
 * holds yet, each message put together from its pieces. A chunk is LangGraph's
 * `[message, metadata]`; an `AIMessageChunk` piece adds to the message with its id (its
 * text appended, its tool-call fragments joined by index), a whole message replaces it.
 * Pure: the Chat tab draws what this returns.
 */
import type { StreamChunk } from '../../store/streamSlice'

type Obj = Record<string, unknown>
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v)

interface CallPiece {
  id?: string
  name: string
  args: string
}

interface Pending {
  key: string
  id?: string
  step: number
  node?: string
  type: string
  content: string | unknown[]
  /** Tool calls of a whole message, as it gave them. */
  toolCalls?: unknown[]
  /** Tool-call fragments of pieces, by index. */
  callPieces: Map<number, CallPiece>
  rest: Obj
}

/** A chunk's message in plain form: LangChain's serialised class form opened. */
function plain(m: unknown): { type: string; fields: Obj; chunk: boolean } | null {
  if (!isObject(m)) return null
  if (m.lc === 1 && m.type === 'constructor' && Array.isArray(m.id) && isObject(m.kwargs)) {
    const cls = String(m.id[m.id.length - 1])
    const chunk = cls.endsWith('Chunk')
    const base = cls.replace(/Chunk$/, '').replace(/Message$/, '')
    const type = base === 'AI' ? 'ai' : base.toLowerCase()
    return { type, fields: m.kwargs, chunk }
  }
  const raw = typeof m.type === 'string' ? m.type : typeof m.role === 'string' ? m.role : ''
  const chunk = raw.endsWith('Chunk') || Array.isArray(m.tool_call_chunks)
  const type =
    raw === 'AIMessageChunk' || raw === 'AIMessage' || raw === 'assistant'
      ? 'ai'
      : raw === 'ToolMessage' || raw === 'ToolMessageChunk'
        ? 'tool'
        : raw || 'ai'
  return { type, fields: m, chunk }
}

const textOf = (c: unknown): string =>
  typeof c === 'string'
    ? c
    : Array.isArray(c)
      ? c.map((b) => (isObject(b) && typeof b.text === 'string' ? b.text : '')).join('')
      : ''

/**
 * The messages the run is writing, oldest first, as plain LangChain-style messages: the
 * `messages` chunks in `chunks` whose message is not in `stored` (ids of the shown
 * conversation) and whose step has no checkpoint yet (`landedStep`: the newest checkpoint's
 * step; its step's messages are in it, whatever their ids).
 */
export function pendingReplies(
  chunks: readonly StreamChunk[],
  stored: ReadonlySet<string>,
  landedStep: number,
): Obj[] {
  const byKey = new Map<string, Pending>()
  for (const c of chunks) {
    if (c.mode !== 'messages' || !Array.isArray(c.payload)) continue
    const [message, meta] = c.payload as [unknown, unknown]
    const m = plain(message)
    if (!m) continue
    const metadata = isObject(meta) ? meta : {}
    // The root's super-step (a subgraph's chunk has the subgraph's own in its metadata).
    const step = c.step
    const id = typeof m.fields.id === 'string' ? m.fields.id : undefined
    const where = `${c.path.join('/')}|${String(metadata.langgraph_checkpoint_ns ?? '')}|${c.node ?? ''}`
    const key = id ?? `${where}|${m.chunk ? 'pieces' : c.seq}`
    const old = byKey.get(key)
    const { content, tool_calls, tool_call_chunks, id: _id, type: _t, ...rest } = m.fields
    if (!m.chunk || !old) {
      const p: Pending = {
        key,
        step,
        type: m.type,
        content: Array.isArray(content) ? content : textOf(content),
        callPieces: new Map(),
        rest,
        ...(id !== undefined && { id }),
        ...(c.node !== undefined && { node: c.node }),
        ...(Array.isArray(tool_calls) && !m.chunk && { toolCalls: tool_calls }),
      }
      byKey.delete(key) // a whole message moves to where it came
      byKey.set(key, p)
      if (m.chunk) addPieces(p, tool_call_chunks)
      continue
    }
    old.content = textOf(old.content) + textOf(content)
    addPieces(old, tool_call_chunks)
  }
  const out: Obj[] = []
  for (const p of byKey.values()) {
    if (p.id !== undefined && stored.has(p.id)) continue
    if (p.step <= landedStep) continue
    out.push(toMessage(p))
  }
  return out
}

function addPieces(p: Pending, pieces: unknown): void {
  if (!Array.isArray(pieces)) return
  for (const piece of pieces) {
    if (!isObject(piece)) continue
    const index = typeof piece.index === 'number' ? piece.index : p.callPieces.size
    const call = p.callPieces.get(index) ?? { name: '', args: '' }
    if (typeof piece.id === 'string') call.id = piece.id
    if (typeof piece.name === 'string') call.name += piece.name
    if (typeof piece.args === 'string') call.args += piece.args
    p.callPieces.set(index, call)
  }
}

function toMessage(p: Pending): Obj {
  const calls = [...p.callPieces.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, c]) => {
      let args: unknown = c.args
      try {
        args = c.args ? JSON.parse(c.args) : {}
      } catch {
        // still being written: the text so far
      }
      return { name: c.name, args, ...(c.id !== undefined && { id: c.id }) }
    })
  const toolCalls = p.toolCalls ?? (calls.length ? calls : undefined)
  return {
    ...p.rest,
    type: p.type,
    content: p.content,
    ...(p.id !== undefined && { id: p.id }),
    ...(toolCalls && { tool_calls: toolCalls }),
  }
}
