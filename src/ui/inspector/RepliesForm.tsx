import { useState } from 'react'
import type { ScriptedReply, ToolSpec } from '../../core/graph/schema'
import { showBidiControls } from '../bidi'
import { CommitInput } from './controls'
import { editDraft, shownText, type Draft } from './draft'
import {
  argsMismatch,
  argsSkeleton,
  formatArgs,
  parseArgsText,
  patchReply,
  type CallArgs,
  type ToolCall,
} from './replyEdits'
import { useDraft } from './useDraft'

/** How long typing a reply's content waits before it becomes an edit (as code). */
const CONTENT_DELAY_MS = 300

/**
 * A scripted model's replies, one card each, played in order: the content, and the tool calls
 * (a tool of the graph's tools nodes or any name, and the arguments as a JSON object);
 * add and remove replies and calls. Each change is one new replies list (`onChange`).
 */
export function RepliesForm(props: {
  node: string
  replies: readonly ScriptedReply[]
  /** The tools a call may name (`toolsForModel`). */
  tools: readonly ToolSpec[]
  onChange(replies: ScriptedReply[]): void
}) {
  const { node, replies, tools, onChange } = props
  const setReply = (i: number, reply: ScriptedReply) =>
    onChange(replies.map((r, j) => (j === i ? reply : r)))
  return (
    <div className="kind-form replies-form" role="group" aria-label={`Replies of ${node}`}>
      <p className="muted kind-form-note">
        Played in order, one per call of the model, starting over after the last.
      </p>
      {replies.map((reply, i) => (
        <ReplyCard
          key={i}
          index={i + 1}
          reply={reply}
          tools={tools}
          onChange={(r) => setReply(i, r)}
          onRemove={
            replies.length > 1 ? () => onChange(replies.filter((_, j) => j !== i)) : undefined
          }
        />
      ))}
      <button type="button" onClick={() => onChange([...replies, { content: '' }])}>
        Add reply
      </button>
    </div>
  )
}

function ReplyCard(props: {
  index: number
  reply: ScriptedReply
  tools: readonly ToolSpec[]
  onChange(reply: ScriptedReply): void
  /** Absent for the last reply: a scripted model has at least one. */
  onRemove: (() => void) | undefined
}) {
  const { index, reply, tools, onChange, onRemove } = props
  const name = `reply ${index}`
  const content = useDraft(
    reply.content ?? '',
    (text) => onChange(patchReply(reply, 'content', text)),
    CONTENT_DELAY_MS,
  )
  const calls = reply.tool_calls ?? []
  const setCalls = (next: ToolCall[]) =>
    onChange(patchReply(reply, 'tool_calls', next.length > 0 ? next : undefined))
  const addCall = () => {
    const tool = tools[0]
    setCalls([...calls, { name: tool?.name ?? 'tool', args: argsSkeleton(tool) }])
  }
  return (
    <fieldset className="reply-card" aria-label={`Reply ${index}`}>
      <legend>Reply {index}</legend>
      <div className="reply-head">
        <span>Content</span>
        {onRemove && (
          <button
            type="button"
            className="small-button"
            aria-label={`Remove reply ${index}`}
            onClick={onRemove}
          >
            Remove
          </button>
        )}
      </div>
      <textarea
        aria-label={`Content of ${name}`}
        className="reply-content"
        rows={2}
        value={content.text}
        placeholder={calls.length > 0 ? '(none: only tool calls)' : 'the reply text'}
        onChange={(e) => content.change(e.target.value)}
        onBlur={content.flush}
      />
      {calls.map((call, j) => (
        <ToolCallForm
          key={j}
          title={`Tool call ${j + 1}`}
          label={`call ${j + 1} of ${name}`}
          call={call}
          tools={tools}
          onChange={(c) => setCalls(calls.map((x, k) => (k === j ? c : x)))}
          onRemove={() => setCalls(calls.filter((_, k) => k !== j))}
        />
      ))}
      <button type="button" className="small-button" onClick={addCall}>
        Add tool call
      </button>
    </fieldset>
  )
}

const OTHER = '\u0000other'

function ToolCallForm(props: {
  title: string
  label: string
  call: ToolCall
  tools: readonly ToolSpec[]
  onChange(call: ToolCall): void
  onRemove(): void
}) {
  const { title, label, call, tools, onChange, onRemove } = props
  const known = tools.some((t) => t.name === call.name)
  const [typing, setTyping] = useState(false)
  const tool = tools.find((t) => t.name === call.name)
  const setName = (name: string) => {
    // A call of another tool starts from that tool's arguments unless it has its own.
    const next = tools.find((t) => t.name === name)
    const empty = Object.keys(call.args ?? {}).length === 0
    onChange({ ...call, name, ...(empty && next ? { args: argsSkeleton(next) } : {}) })
  }
  return (
    <div className="reply-call" role="group" aria-label={`Tool ${label}`}>
      <div className="reply-call-title">
        <span className="tool-part-title">{title}</span>
        <button
          type="button"
          className="small-button"
          aria-label={`Remove ${label}`}
          onClick={onRemove}
        >
          Remove
        </button>
      </div>
      <select
        aria-label={`Tool of ${label}`}
        value={typing ? OTHER : call.name}
        onChange={(e) => {
          if (e.target.value === OTHER) return setTyping(true)
          setTyping(false)
          setName(e.target.value)
        }}
      >
        {!known && <option value={call.name}>{showBidiControls(call.name)} (not a tool)</option>}
        {tools.map((t) => (
          <option key={t.name} value={t.name}>
            {showBidiControls(t.name)}
          </option>
        ))}
        <option value={OTHER}>Another name…</option>
      </select>
      {typing && (
        // Starts empty: what is typed is the new name (Enter or leaving the box applies it).
        <CommitInput
          key={call.name}
          label={`Tool name of ${label}`}
          placeholder={`a tool name (now ${call.name})`}
          value=""
          autoFocus
          validate={(text) => (text.trim() === '' ? 'A tool call names a tool.' : null)}
          onCommit={(text) => {
            setTyping(false)
            setName(text)
          }}
        />
      )}
      {!known && !typing && (
        <span className="field-note">
          No tools node has a tool {showBidiControls(call.name)}: the tools node answers with an
          error message.
        </span>
      )}
      <ArgsInput
        label={`Arguments of ${label}`}
        value={call.args}
        tool={tool}
        onValue={(args) => onChange({ ...call, args })}
      />
    </div>
  )
}

/**
 * The arguments of a call as JSON, validated as typed (as a field's default): text that is
 * not a JSON object is flagged beside the box and not applied; each valid text is applied.
 */
function ArgsInput(props: {
  label: string
  value: CallArgs | undefined
  tool: ToolSpec | undefined
  onValue(args: CallArgs): void
}) {
  const { label, value, tool, onValue } = props
  const current = formatArgs(value)
  const [draft, setDraft] = useState<Draft | null>(null)
  const text = shownText(current, draft)
  const parsed = parseArgsText(text)
  const mismatch = parsed.ok ? argsMismatch(parsed.value, tool) : null
  const errorId = `${label.replace(/\W+/g, '-')}-error`
  const onText = (next: string) => {
    let d = editDraft(draft, current, next)
    const p = parseArgsText(next)
    if (p.ok && formatArgs(p.value) !== current) {
      d = { ...d, committed: formatArgs(p.value) }
      onValue(p.value)
    }
    setDraft(d)
  }
  return (
    <span className="reply-call-args">
      <textarea
        aria-label={label}
        rows={2}
        spellCheck={false}
        value={text}
        aria-invalid={parsed.ok ? undefined : true}
        aria-describedby={parsed.ok ? undefined : errorId}
        onChange={(e) => onText(e.target.value)}
      />
      {!parsed.ok && (
        <span id={errorId} className="field-error" role="status">
          {parsed.error}
        </span>
      )}
      {mismatch && <span className="field-note">{mismatch}</span>}
    </span>
  )
}
