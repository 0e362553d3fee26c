import { useVirtualizer } from '@tanstack/react-virtual'
import { useEffect, useMemo, useRef, useState } from 'react'
import { MessageCard, type MessageLinks } from './MessageCard'
import { toolCallsById, toolResultsByCallId, type MessageView } from './messageModel'
import { RawJson, jsonText } from './RawJson'
import './messages.css'

/** From this many messages on, only the visible ones are drawn. */
const VIRTUAL_FROM = 40

/**
 * A conversation as messages, with a toggle to the stored JSON. `context` is the wider
 * conversation the messages belong to (the field's value around a write or a diff), where
 * tool calls and their results are looked up; by default the messages themselves.
 * `root`: the outermost view of a value carries its full JSON on `data-json`.
 */
export function MessageList({
  messages,
  value,
  label,
  root,
  context,
}: {
  messages: readonly MessageView[]
  value: unknown
  label?: string
  root: boolean
  context?: readonly MessageView[] | null
}) {
  const [raw, setRaw] = useState(false)
  const links = useMemo<MessageLinks>(() => {
    const all = context ? [...context, ...messages] : messages
    return { results: toolResultsByCallId(all), calls: toolCallsById(all) }
  }, [messages, context])
  const json = useMemo(() => (root ? jsonText(value) : undefined), [root, value])
  const count = messages.length === 1 ? '1 message' : `${messages.length} messages`
  return (
    <div className="msg-list" role="group" aria-label={label} data-json={json}>
      <div className="msg-list-bar">
        <span className="muted">{count}</span>
        <button
          type="button"
          className="msg-raw-toggle"
          aria-pressed={raw}
          title="Show the value as it is stored (JSON)"
          onClick={() => setRaw((r) => !r)}
        >
          Raw JSON
        </button>
      </div>
      {raw ? (
        <RawJson value={value} root={false} />
      ) : messages.length >= VIRTUAL_FROM ? (
        <VirtualMessages messages={messages} links={links} />
      ) : (
        <ol className="msg-items">
          {messages.map((m, i) => (
            <li key={i}>
              <MessageCard message={m} links={links} />
            </li>
          ))}
        </ol>
      )}
    </div>
  )
}

/** A long conversation in its own scroller, drawn a screenful at a time, opened at its end. */
function VirtualMessages({
  messages,
  links,
}: {
  messages: readonly MessageView[]
  links: MessageLinks
}) {
  const scroller = useRef<HTMLDivElement>(null)
  // The virtualizer's functions change every render; this component is not memoized anyway.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtual = useVirtualizer({
    count: messages.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 72,
    overscan: 6,
  })
  const opened = useRef(false)
  useEffect(() => {
    if (opened.current) return
    opened.current = true
    virtual.scrollToIndex(messages.length - 1, { align: 'end' })
  }, [virtual, messages.length])
  return (
    <div
      className="msg-scroll"
      ref={scroller}
      tabIndex={0}
      role="group"
      aria-label={`${messages.length} messages, scrollable`}
    >
      <ol className="msg-items msg-virtual" style={{ height: virtual.getTotalSize() }}>
        {virtual.getVirtualItems().map((v) => (
          <li
            key={v.key}
            data-index={v.index}
            ref={virtual.measureElement}
            style={{ transform: `translateY(${v.start}px)` }}
          >
            <MessageCard message={messages[v.index] as MessageView} links={links} />
          </li>
        ))}
      </ol>
    </div>
  )
}
