import '../messages/messages.css'
import './chat.css'
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import { selectCanRun } from '../../store/appStore'
import { ChatTurnBar } from '../chat/ChatTurnBar'
import { chatTurns, checkpointTree, newestDescendant, turnStarts } from '../chat/chatBranches'
import { pendingReplies } from '../chat/pendingReplies'
import { MessageCard, type MessageLinks } from '../messages/MessageCard'
import {
  contentParts,
  readMessage,
  readMessages,
  toolCallsById,
  toolResultsByCallId,
  type MessageView,
} from '../messages/messageModel'
import { useApp } from '../storeContext'
import { InterruptPanel } from './InterruptPanel'

const STREAM_MODES = ['messages']

/** A message's text, for an edit to start from; null when it holds more than text. */
function textOf(m: MessageView): string | null {
  const parts = contentParts(m.content)
  return parts.every((p) => p.kind === 'text') ? parts.map((p) => p.text).join('') : null
}

/**
 * The Chat tab, for a graph with a messages field (add_messages): the conversation of the
 * branch shown in the timeline, the reply being written while a run streams, and a box whose
 * message goes in as a human message and runs the graph on the thread, as LangGraph
 * Studio's chat does. Each turn links to its checkpoints; a human message can be edited (a
 * fork from the state before it) and its versions switched. An interrupt waiting is answered
 * in the conversation.
 */
export function ChatView({ onEditState }: { onEditState(): void }) {
  const s = useApp((s) => ({
    spec: s.spec,
    inspection: s.inspection,
    timeline: s.timeline,
    selectedCheckpointId: s.selectedCheckpointId,
    selectedNs: s.selectedNs,
    canRun: selectCanRun(s),
    runState: s.runState,
    interrupts: s.interrupts,
    chunks: s.streamChunks,
    threadId: s.threadId,
    sendChat: s.sendChat,
    resume: s.resume,
    selectCheckpoint: s.selectCheckpoint,
    watchStream: s.watchStream,
    clearStream: s.clearStream,
  }))
  const { watchStream, clearStream, threadId } = s
  // Watched while the tab shows this thread: its runs send their `messages` chunks.
  useEffect(() => {
    clearStream()
    void watchStream(true, STREAM_MODES)
    return () => void watchStream(false)
  }, [threadId, watchStream, clearStream])
  const [text, setText] = useState('')
  const field = s.spec?.state.find((f) => f.reducer === 'add_messages')?.name
  const value = s.inspection?.channels.find((c) => c.name === field)?.value
  const messages = useMemo(() => readMessages(value ?? [], true) ?? [], [value])
  const tree = useMemo(() => checkpointTree(s.timeline), [s.timeline])
  const newest = s.timeline[0]
  // A subgraph's checkpoint selected: its conversation is shown, without the root's turns.
  const inner = s.selectedNs !== ''
  const selected = inner ? null : s.selectedCheckpointId
  const shownId = selected ?? newest?.checkpointId
  const turns = useMemo(() => (inner ? [] : chatTurns(tree, shownId)), [inner, tree, shownId])
  const starts = useMemo(
    () =>
      turnStarts(
        messages.map((m) => m.role),
        turns,
      ),
    [messages, turns],
  )
  const running = s.runState === 'running'
  const pending = useMemo(() => {
    if (!running) return []
    const ids = new Set(messages.flatMap((m) => (m.id === undefined ? [] : [m.id])))
    const raw = pendingReplies(s.chunks, ids, newest?.step ?? -Infinity)
    return raw.flatMap((m) => readMessage(m) ?? [])
  }, [running, messages, s.chunks, newest?.step])
  // The stored messages' links do not change as a reply streams: their cards stay as they are.
  const links = useMemo<MessageLinks>(
    () => ({ results: toolResultsByCallId(messages), calls: toolCallsById(messages) }),
    [messages],
  )
  const pendingLinks = useMemo<MessageLinks>(() => {
    const all = [...messages, ...pending]
    return { results: toolResultsByCallId(all), calls: toolCallsById(all) }
  }, [messages, pending])
  const log = useRef<HTMLElement>(null)
  const card = useRef<HTMLElement>(null)
  const waiting = s.runState === 'interrupted' && s.interrupts.length > 0
  /** The view is at the end of the conversation (the user has not scrolled up from it). */
  const atEnd = useRef(true)
  // The end of the conversation stays in view as it grows; an interrupt's card taller than
  // the view shows from its top (what is asked).
  useEffect(() => {
    const el = log.current
    if (!el) return
    const ask = card.current
    const tall = ask && ask.offsetHeight > el.clientHeight
    el.scrollTop = tall ? ask.offsetTop - el.offsetTop : el.scrollHeight
    atEnd.current = !tall
    // What grows after this render (a message's parts laid out later, the view made smaller)
    // keeps the end in view, unless the user scrolled up from where it was put.
    let putAt = el.scrollTop
    const onScroll = () => {
      atEnd.current =
        (atEnd.current && el.scrollTop >= putAt - 2) ||
        el.scrollHeight - el.scrollTop - el.clientHeight < 8
    }
    const resized = new ResizeObserver(() => {
      // Scrolled up since (its scroll event may not have come yet), not just clamped at the end.
      const end = el.scrollHeight - el.scrollTop - el.clientHeight < 8
      if (el.scrollTop < putAt - 2 && !end) atEnd.current = false
      if (!atEnd.current) return
      el.scrollTop = el.scrollHeight
      putAt = el.scrollTop
    })
    resized.observe(el)
    for (const child of el.children) resized.observe(child)
    el.addEventListener('scroll', onScroll, { passive: true })
    return () => {
      resized.disconnect()
      el.removeEventListener('scroll', onScroll)
    }
  }, [messages.length, pending, waiting])
  if (!field)
    return (
      <p className="muted">
        The chat is for graphs with a messages field (a field with the <code>add_messages</code>{' '}
        reducer): this one has none.
      </p>
    )
  const editBlocked = running
    ? 'A run is going: wait for it, or stop it'
    : waiting
      ? 'Answer the interrupt first'
      : !s.canRun
        ? 'The graph cannot run now'
        : null
  const latestOfBranch = shownId ? newestDescendant(tree, shownId) : undefined
  const behind = selected !== null && latestOfBranch !== undefined && latestOfBranch !== shownId
  const shownStep = shownId ? tree.byId.get(shownId)?.step : undefined
  const send = () => {
    const content = text.trim()
    if (!content || !s.canRun) return
    setText('')
    // Waiting at an interrupt, the message is the reply: what interrupt() returns, as text.
    if (waiting) void s.resume(JSON.stringify(content))
    else void s.sendChat(field, content, selected ?? undefined)
  }
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault()
      send()
    }
  }
  return (
    <div className="chat">
      <section className="chat-log" aria-label="Chat conversation" ref={log}>
        {messages.length === 0 && pending.length === 0 ? (
          <p className="muted">No messages yet: write the first one below.</p>
        ) : (
          <ol className="msg-items chat-items" aria-label="Conversation">
            {messages.map((m, i) => {
              const turn = starts.get(i)
              return (
                <li key={m.id ?? i} className={`chat-item chat-${m.role}`}>
                  <MessageCard message={m} links={links} />
                  {turn && (
                    <ChatTurnBar
                      // A new version is a new bar: an edit left open does not carry over.
                      key={turn.inputId}
                      turn={turn}
                      selectedId={shownId}
                      canEdit={editBlocked}
                      text={textOf(m)}
                      onEdit={(content) => void s.sendChat(field, content, turn.inputId)}
                      onVersion={(id) => void s.selectCheckpoint(newestDescendant(tree, id, true))}
                      onSelect={(id) => void s.selectCheckpoint(id)}
                    />
                  )}
                </li>
              )
            })}
            {pending.map((m, i) => (
              <li
                key={`pending-${m.id ?? i}`}
                className="chat-item chat-pending"
                aria-label="Reply being written"
                aria-busy="true"
              >
                <MessageCard message={m} links={pendingLinks} />
              </li>
            ))}
          </ol>
        )}
        {running && pending.length === 0 && <p className="muted chat-thinking">Running…</p>}
        {waiting && (
          <section className="chat-interrupt" aria-label="Interrupt" ref={card}>
            <InterruptPanel onEditState={onEditState} />
          </section>
        )}
      </section>
      {behind && (
        <p className="chat-behind" role="status">
          Shown at step {shownStep} (selected in the timeline): a message sent now forks from here.{' '}
          <button
            type="button"
            className="link"
            onClick={() => void s.selectCheckpoint(latestOfBranch)}
          >
            Latest of this branch
          </button>
        </p>
      )}
      <form
        className="chat-input"
        onSubmit={(e) => {
          e.preventDefault()
          send()
        }}
      >
        <textarea
          aria-label="Chat message"
          placeholder={
            waiting
              ? 'Reply to the interrupt as text (Enter sends); the card above takes JSON'
              : 'Message the graph (Enter sends, Shift+Enter for a new line)'
          }
          rows={2}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
        />
        <button type="submit" className="primary" disabled={!s.canRun || !text.trim()}>
          {waiting ? 'Reply' : 'Send'}
        </button>
      </form>
    </div>
  )
}
