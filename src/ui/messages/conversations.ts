import type { ChannelRow, CheckpointInspection } from '../../core/debug/types'
import { readMessages, type MessageView } from './messageModel'

/** A state field whose reducer is add_messages: its value, and writes to it, are messages. */
export function isMessagesField(c: ChannelRow): boolean {
  return c.role === 'field' && c.reducer === 'add_messages'
}

/**
 * The conversation in each add_messages field of a checkpoint (null: the field is empty or
 * holds something else), for showing a write or a diff of one with its tool calls and results.
 */
export function conversationsOf(
  inspection: CheckpointInspection | null,
): ReadonlyMap<string, readonly MessageView[] | null> {
  const out = new Map<string, readonly MessageView[] | null>()
  for (const c of inspection?.channels ?? []) {
    if (isMessagesField(c)) out.set(c.name, c.hasValue ? readMessages(c.value, true) : null)
  }
  return out
}
