import type { StateChange } from '../../core/debug/types'
import { readMessage, type MessageView } from './messageModel'

/** A change of a state diff, as the Diff tab draws it. */
export type DiffItem =
  /** Any change that is not one message's: drawn as values. */
  | { type: 'value'; change: StateChange }
  /** A message added to or removed from a messages field. */
  | {
      type: 'message'
      kind: 'added' | 'removed'
      field: string
      key: string | number
      message: MessageView
    }
  /** A message kept (same id) whose fields changed: each change relative to the message. */
  | { type: 'message-changed'; field: string; key: string | number; changes: StateChange[] }

/**
 * Groups a state diff (`diffState`, which compares add_messages fields message by message,
 * by id: paths `[field, id, ...]`) by message: an added or removed message is one item
 * with the message read; the changes inside one kept message are one item, in the place of
 * its first change. Changes outside `messageFields` stay as they are.
 */
export function groupDiffByMessage(
  changes: readonly StateChange[],
  messageFields: ReadonlySet<string>,
): DiffItem[] {
  const out: DiffItem[] = []
  const changedAt = new Map<string, StateChange[]>()
  for (const c of changes) {
    const [field, key] = c.path
    const inMessages = typeof field === 'string' && messageFields.has(field) && c.path.length >= 2
    if (!inMessages || key === undefined) {
      out.push({ type: 'value', change: c })
      continue
    }
    if (c.path.length === 2 && c.kind !== 'changed') {
      const message = readMessage(c.kind === 'added' ? c.after : c.before, true)
      if (message) {
        out.push({ type: 'message', kind: c.kind, field, key, message })
        continue
      }
    }
    if (c.path.length === 2) {
      out.push({ type: 'value', change: c })
      continue
    }
    const group = `${field}\u0000${String(key)}`
    const inner = { ...c, path: c.path.slice(2) }
    const seen = changedAt.get(group)
    if (seen) seen.push(inner)
    else {
      const list = [inner]
      changedAt.set(group, list)
      out.push({ type: 'message-changed', field, key, changes: list })
    }
  }
  return out
}

/**
 * The message a diff key names in `messages`: by id, or by position when the diff went by
 * index (a list where some message had no id).
 */
export function findMessage(
  messages: readonly MessageView[] | null,
  key: string | number,
): MessageView | undefined {
  if (!messages) return undefined
  if (typeof key === 'number') return messages[key]
  return messages.find((m) => m.id === key)
}
