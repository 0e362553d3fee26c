import './chat.css'
import { useState, type KeyboardEvent } from 'react'
import { selectCanRun } from '../../store/appStore'
import { MessageList } from '../messages/MessageList'
import { readMessages } from '../messages/messageModel'
import { useApp } from '../storeContext'
import { InterruptPanel } from './InterruptPanel'

/**
 * The Chat tab, for a graph with a messages field (add_messages): the conversation at the
 * shown checkpoint, and a box whose message goes in as a human message and runs the graph on
 * the thread, as LangGraph Studio's chat does. An interrupt waiting is answered here too.
 */
export function ChatView({ onEditState }: { onEditState(): void }) {
  const s = useApp((s) => ({
    spec: s.spec,
    inspection: s.inspection,
    canRun: selectCanRun(s),
    runState: s.runState,
    interrupts: s.interrupts,
    sendChat: s.sendChat,
  }))
  const [text, setText] = useState('')
  const field = s.spec?.state.find((f) => f.reducer === 'add_messages')?.name
  if (!field)
    return (
      <p className="muted">
        The chat is for graphs with a messages field (a field with the <code>add_messages</code>{' '}
        reducer): this one has none.
      </p>
    )
  const value = s.inspection?.channels.find((c) => c.name === field)?.value ?? []
  const messages = readMessages(value, true) ?? []
  const waiting = s.runState === 'interrupted' && s.interrupts.length > 0
  const send = () => {
    const content = text.trim()
    if (!content || !s.canRun || waiting) return
    setText('')
    void s.sendChat(field, content)
  }
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault()
      send()
    }
  }
  return (
    <div className="chat">
      <section className="chat-log" aria-label="Chat conversation">
        {messages.length === 0 ? (
          <p className="muted">No messages yet: write the first one below.</p>
        ) : (
          <MessageList messages={messages} value={value} root label="Conversation" />
        )}
        {s.runState === 'running' && <p className="muted chat-thinking">Running…</p>}
      </section>
      {waiting ? (
        <InterruptPanel onEditState={onEditState} />
      ) : (
        <form
          className="chat-input"
          onSubmit={(e) => {
            e.preventDefault()
            send()
          }}
        >
          <textarea
            aria-label="Chat message"
            placeholder="Message the graph (Enter sends, Shift+Enter for a new line)"
            rows={2}
            value={text}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={onKeyDown}
          />
          <button type="submit" className="primary" disabled={!s.canRun || !text.trim()}>
            Send
          </button>
        </form>
      )}
    </div>
  )
}
