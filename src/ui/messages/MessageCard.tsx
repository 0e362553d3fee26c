import { memo } from 'react'
import { BidiText, Name } from '../Name'
import {
  contentParts,
  parseJsonText,
  summarize,
  type MessageView,
  type ToolCallView,
} from './messageModel'
import { RawJson, jsonText } from './RawJson'

/** What a message list knows around one message: tool results and calls by call id. */
export interface MessageLinks {
  results: ReadonlyMap<string, MessageView>
  calls: ReadonlyMap<string, ToolCallView>
}

const ROLE_LABEL: Record<MessageView['role'], string> = {
  human: 'human',
  ai: 'ai',
  system: 'system',
  tool: 'tool',
  function: 'function',
  generic: 'message',
  remove: 'remove',
}

/** One message: its role, name, content, tool calls as cards; a tool result with its call. */
export const MessageCard = memo(function MessageCard({
  message: m,
  links,
}: {
  message: MessageView
  links: MessageLinks
}) {
  const failed = m.role === 'tool' && m.status === 'error'
  const call = m.toolCallId !== undefined ? links.calls.get(m.toolCallId) : undefined
  return (
    <article
      className={`msg msg-${m.role}${failed ? ' msg-failed' : ''}`}
      data-role={m.role}
      aria-label={`${ROLE_LABEL[m.role]} message${m.name ? ` ${m.name}` : ''}`}
      title={m.id !== undefined ? `id: ${m.id}` : 'no id'}
    >
      <header className="msg-head">
        <span className="msg-role">{ROLE_LABEL[m.role]}</span>
        {m.name && m.name !== call?.name && (
          <code className="msg-name">
            <Name>{m.name}</Name>
          </code>
        )}
        {m.role === 'tool' && (
          <span
            className="msg-answers"
            title={m.toolCallId ? `tool_call_id: ${m.toolCallId}` : undefined}
          >
            {call ? (
              <>
                ↩ result of <code>{callSignature(call)}</code>
              </>
            ) : m.toolCallId ? (
              <>
                ↩ answers <code>{m.toolCallId}</code>
              </>
            ) : null}
          </span>
        )}
        {m.status && (
          <span className={`msg-status ${m.status}`} data-status={m.status}>
            {m.status}
          </span>
        )}
        {m.role === 'remove' && <span className="muted">removes {m.id ?? 'every message'}</span>}
      </header>
      <Content content={m.content} />
      {m.toolCalls.length > 0 && (
        <ul className="tool-calls" aria-label="Tool calls">
          {m.toolCalls.map((c, i) => (
            <li key={c.id ?? i}>
              <ToolCallCard
                call={c}
                result={c.id !== undefined ? links.results.get(c.id) : undefined}
              />
            </li>
          ))}
        </ul>
      )}
    </article>
  )
})

function ToolCallCard({ call, result }: { call: ToolCallView; result: MessageView | undefined }) {
  const status = result ? (result.status ?? 'success') : null
  return (
    <div
      className="tool-call"
      role="group"
      aria-label={`Tool call ${call.name}`}
      title={call.id !== undefined ? `tool call id: ${call.id}` : undefined}
    >
      <div className="tool-call-head">
        <span className="tool-call-icon" aria-hidden="true">
          ⚒
        </span>
        <code className="tool-call-name">
          <Name>{call.name || '(no name)'}</Name>
        </code>
      </div>
      <pre className="tool-call-args">
        {typeof call.args === 'string' ? call.args : formatJson(call.args)}
      </pre>
      {result && status && (
        <div
          className={`tool-result ${status}`}
          data-status={status}
          role="group"
          aria-label={`Result of ${call.name}`}
        >
          <span className="tool-result-label">{status === 'error' ? '✗ error' : '✓ result'}</span>{' '}
          <span className="tool-result-text">
            <BidiText>{summarize(result, 160) || '(empty)'}</BidiText>
          </span>
        </div>
      )}
    </div>
  )
}

function Content({ content }: { content: unknown }) {
  const parts = contentParts(content)
  if (parts.length === 0) return null
  return (
    <div className="msg-content">
      {parts.map((p, i) => {
        if (p.kind === 'image')
          return (
            <p key={i} className="msg-image muted" title={p.url}>
              [image] {p.url.length > 80 ? `${p.url.slice(0, 77)}…` : p.url}
            </p>
          )
        if (p.kind === 'json')
          return (
            <div key={i} className="msg-block">
              <RawJson value={p.value} root={false} />
            </div>
          )
        const parsed = parseJsonText(p.text)
        if (parsed !== undefined)
          return (
            <pre key={i} className="msg-json">
              {formatJson(parsed)}
            </pre>
          )
        return (
          <p key={i} className="msg-text">
            <BidiText>{p.text}</BidiText>
          </p>
        )
      })}
    </div>
  )
}

/** JSON on one line when it is short, indented when it is not. */
function formatJson(v: unknown): string {
  const line = jsonText(v)
  return line.length <= 60 ? line : JSON.stringify(v, null, 2)
}

/** `get_weather({"city":"Paris"})`, shortened. */
function callSignature(call: ToolCallView, max = 80): string {
  const args = typeof call.args === 'string' ? call.args : jsonText(call.args)
  const s = `${call.name}(${args})`
  return s.length > max ? `${s.slice(0, max - 2)}…)` : s
}
