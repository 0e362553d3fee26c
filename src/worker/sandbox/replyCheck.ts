import { describeRef, messageOf, protocolError, type SandboxCallRef } from './hostErrors'
import { sandboxReplySchema } from './replySchema'
import type { SandboxReply, SandboxRequest } from './sandboxProtocol'

/** The `id` of a message, when it has a usable one (so a malformed reply can fail its call). */
export function replyId(data: unknown): number | null {
  const v = (data as { id?: unknown } | null)?.id
  return typeof data === 'object' && Number.isSafeInteger(v) ? (v as number) : null
}

/** What the host makes of one message from the sandbox. */
export type Verdict =
  | { kind: 'ignore'; why: string }
  | { kind: 'started'; id: number }
  | { kind: 'routing'; id: number }
  | { kind: 'fail'; id: number; error: Error }
  | { kind: 'reply'; id: number; reply: SandboxReply }

/** What the host knows about the call a message names. */
export interface CallInfo {
  type: SandboxRequest['type']
  ref: SandboxCallRef
}

/**
 * Judges one message from the sandbox (a stranger): which call it answers, whether it is
 * small enough, and whether it has the shape that call's reply must have. Never throws.
 */
export function judgeMessage(
  data: unknown,
  callOf: (id: number) => CallInfo | undefined,
  maxBytes: number,
): Verdict {
  try {
    const id = replyId(data)
    const call = id === null ? undefined : callOf(id)
    if (id === null || !call) return { kind: 'ignore', why: 'a message that answers no call' }
    const kind = (data as { kind?: unknown }).kind
    if (kind === 'started') return { kind, id }
    if (kind === 'routing') return { kind, id }
    if (jsonSizeAtMost(data, maxBytes) > maxBytes) {
      const error = new Error(
        `The reply of ${describeRef(call.ref)} is larger than ${formatBytes(maxBytes)}; values that large do not belong in graph state.`,
      )
      error.name = 'SandboxReplyTooLargeError'
      return { kind: 'fail', id, error }
    }
    const parsed = sandboxReplySchema.safeParse(data)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      const where = issue?.path.length ? `${issue.path.join('.')}: ` : ''
      const error = protocolError(call.ref, `${where}${issue?.message ?? 'bad reply'}`)
      return { kind: 'fail', id, error }
    }
    const reply = parsed.data as SandboxReply
    const expected = call.type === 'runNode' ? ['ok', 'interrupt', 'error'] : ['value', 'error']
    if (!expected.includes(reply.kind)) {
      const error = protocolError(call.ref, `unexpected reply kind \`${reply.kind}\``)
      return { kind: 'fail', id, error }
    }
    return { kind: 'reply', id, reply }
  } catch (e) {
    // Reading the reply itself failed (a value nested too deep for the checks, say): the
    // call it answers fails now with the reason, instead of waiting for its timeout.
    const id = safely(() => replyId(data))
    const call = id === null ? undefined : safely(() => callOf(id))
    if (id === null || !call)
      return { kind: 'ignore', why: `a message that could not be handled: ${messageOf(e)}` }
    const error = new Error(
      `The reply of ${describeRef(call.ref)} could not be read: ${messageOf(e)}. Is the value nested too deeply?`,
    )
    error.name = 'SandboxReplyUnreadableError'
    return { kind: 'fail', id, error }
  }
}

function safely<T>(f: () => T): T | null {
  try {
    return f() ?? null
  } catch {
    return null
  }
}

/**
 * About how many characters `value` takes as JSON, counting at most `limit + 1` (it stops
 * early). Tolerates what structured clone can deliver and JSON cannot (cycles, Map, Set,
 * typed arrays, BigInt), so a hostile reply cannot make the measuring throw or run long.
 */
export function jsonSizeAtMost(value: unknown, limit: number): number {
  let size = 0
  const seen = new Set<object>()
  const stack: unknown[] = [value]
  while (stack.length > 0 && size <= limit) {
    const v = stack.pop()
    switch (typeof v) {
      case 'string':
        size += v.length + 2
        break
      case 'number':
      case 'bigint':
        size += String(v).length
        break
      case 'boolean':
        size += v ? 4 : 5
        break
      case 'object':
        if (v === null) size += 4
        else if (!seen.has(v)) {
          seen.add(v)
          size += sizeOfObject(v, stack, limit - size)
        }
        break
      default:
        break
    }
  }
  return Math.min(size, limit + 1)
}

/**
 * The size of an object's own framing; pushes its children on `stack` unless the framing
 * alone is over `budget` (a sparse array of length 2^32 costs nothing to clone, a lot to walk).
 */
function sizeOfObject(v: object, stack: unknown[], budget: number): number {
  if (ArrayBuffer.isView(v) || v instanceof ArrayBuffer) return v.byteLength * 4 + 2
  if (typeof Blob !== 'undefined' && v instanceof Blob) return v.size + 2
  if (v instanceof Map || v instanceof Set) {
    const size = 2 + v.size * 2
    if (size <= budget) for (const [k, x] of v.entries()) stack.push(k, x)
    return size
  }
  if (Array.isArray(v)) {
    const size = 2 + v.length
    if (size <= budget) for (const x of v) stack.push(x)
    return size
  }
  const keys = Object.keys(v)
  let size = 2 + keys.length * 4
  if (size > budget) return size
  for (const k of keys) {
    size += k.length
    stack.push((v as Record<string, unknown>)[k])
  }
  return size
}

/** `bytes` as `32 MB`, `1.5 MB` or `900 kB`. */
export function formatBytes(bytes: number): string {
  const mb = bytes / (1024 * 1024)
  if (mb >= 1) return `${Number(mb.toFixed(1))} MB`
  return `${Math.ceil(bytes / 1024)} kB`
}
