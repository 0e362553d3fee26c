import { useMemo } from 'react'
import { MessageList } from '../messages/MessageList'
import { holdsMessages, readMessages, type MessageView } from '../messages/messageModel'
import { RawJson, jsonText } from '../messages/RawJson'
import { Name } from '../Name'

/**
 * A value as the debugger shows it: a conversation as messages (role, content, tool calls
 * with their results, a toggle to the raw JSON); an object that holds one (a state, a Send's
 * arguments) field by field; anything else as JSON, short values inline, objects and lists
 * collapsible. The outermost element carries the value's full JSON on `data-json` whenever
 * it is not inline text.
 *
 * `messages`: the value is an add_messages field's (or a write to one), so strings and
 * `[role, content]` pairs are messages too, as that reducer coerces them. `context`: the
 * conversation around the value, where tool calls and results are looked up.
 */
export function JsonValue({
  value,
  label,
  messages = false,
  context,
}: {
  value: unknown
  label?: string
  messages?: boolean
  context?: readonly MessageView[] | null
}) {
  return <Value value={value} label={label} messages={messages} context={context} root />
}

function Value({
  value,
  label,
  messages,
  context,
  root,
}: {
  value: unknown
  label?: string | undefined
  messages: boolean
  context?: readonly MessageView[] | null | undefined
  root: boolean
}) {
  const read = useMemo(
    () => (typeof value === 'object' || messages ? readMessages(value, messages) : null),
    [value, messages],
  )
  const nested = useMemo(() => !read && holdsMessages(value), [read, value])
  if (read)
    return <MessageList messages={read} value={value} label={label} root={root} context={context} />
  if (nested) return <Fields value={value as object} label={label} root={root} />
  return <RawJson value={value} label={label} root={root} />
}

/** An object or list that holds a conversation somewhere: one row per field or item. */
function Fields({
  value,
  label,
  root,
}: {
  value: object
  label?: string | undefined
  root: boolean
}) {
  const json = useMemo(() => (root ? jsonText(value) : undefined), [root, value])
  const entries = Array.isArray(value)
    ? value.map((v, i) => [String(i), v] as const)
    : Object.entries(value)
  return (
    <div role="group" aria-label={label} data-json={json}>
      <dl className="value-fields">
        {entries.map(([k, v]) => (
          <div key={k} className="value-field">
            <dt>
              <Name>{k}</Name>
            </dt>
            <dd>
              <Value value={v} messages={false} root={false} />
            </dd>
          </div>
        ))}
      </dl>
    </div>
  )
}
