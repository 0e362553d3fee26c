import { diffValues as diff, type Difference } from '../../lib/diff'
import type { StateChange } from './types'

/**
 * What changed between two states, field by field (fields in the order of
 * `Object.keys({ ...before, ...after })`). A field on one side only is one `added` or
 * `removed` change; inside a field the changes are microdiff's, under the field's name.
 * Fields in `messageFields` (add_messages) are compared message by message, by `id`: a
 * message is `added`/`removed` at `[field, id]`, a changed one has its changes at
 * `[field, id, ...path]`, the way add_messages itself matches them.
 */
export function diffState(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  messageFields: ReadonlySet<string>,
): StateChange[] {
  const out: StateChange[] = []
  for (const field of Object.keys({ ...before, ...after })) {
    const inBefore = Object.hasOwn(before, field)
    const inAfter = Object.hasOwn(after, field)
    if (!inAfter) out.push({ path: [field], kind: 'removed', before: before[field] })
    else if (!inBefore) out.push({ path: [field], kind: 'added', after: after[field] })
    else if (messageFields.has(field) && areMessages(before[field]) && areMessages(after[field]))
      out.push(...diffMessages(field, before[field], after[field]))
    else out.push(...deepChanges([field], before[field], after[field]))
  }
  return out
}

type Message = Record<string, unknown> & { id: string | number }

function areMessages(v: unknown): v is Message[] {
  return Array.isArray(v) && v.every(isMessage)
}

function isMessage(m: unknown): m is Message {
  if (typeof m !== 'object' || m === null || Array.isArray(m)) return false
  const id = (m as { id?: unknown }).id
  return typeof id === 'string' || typeof id === 'number'
}

/** Removed and changed messages in the order of `before`, then added ones in the order of `after`. */
function diffMessages(field: string, before: Message[], after: Message[]): StateChange[] {
  const out: StateChange[] = []
  const afterById = new Map(after.map((m) => [m.id, m]))
  const beforeIds = new Set(before.map((m) => m.id))
  for (const m of before) {
    const now = afterById.get(m.id)
    if (!now) out.push({ path: [field, m.id], kind: 'removed', before: m })
    else out.push(...deepChanges([field, m.id], m, now))
  }
  for (const m of after) {
    if (!beforeIds.has(m.id)) out.push({ path: [field, m.id], kind: 'added', after: m })
  }
  return out
}

/** microdiff of two values of any kind (wrapped, so primitives and type changes work too). */
function deepChanges(prefix: (string | number)[], a: unknown, b: unknown): StateChange[] {
  return diff({ v: a }, { v: b }).map((d) => toChange(prefix, d))
}

function toChange(prefix: (string | number)[], d: Difference): StateChange {
  const path = [...prefix, ...d.path.slice(1)]
  switch (d.type) {
    case 'CREATE':
      return { path, kind: 'added', after: d.value }
    case 'REMOVE':
      return { path, kind: 'removed', before: d.oldValue }
    case 'CHANGE':
      return { path, kind: 'changed', before: d.oldValue, after: d.value }
  }
}
