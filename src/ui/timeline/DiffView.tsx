import { Fragment, useEffect, useMemo } from 'react'
import type { StateChange } from '../../core/debug/types'
import { conversationsOf } from '../messages/conversations'
import { MessageCard } from '../messages/MessageCard'
import { findMessage, groupDiffByMessage, type DiffItem } from '../messages/messageDiff'
import { toolCallsById, toolResultsByCallId, type MessageView } from '../messages/messageModel'
import '../messages/messages.css'
import { useApp } from '../storeContext'
import { NoCheckpoint } from './ChannelTable'
import { JsonValue } from './JsonValue'
import { Name } from '../Name'

/** The state of the shown checkpoint against its parent, or against any checkpoint picked. */
export function DiffView() {
  const { diff, timeline, compareWith, setCompareWith, inspection, setDiffWanted } = useApp(
    (s) => ({
      diff: s.diff,
      timeline: s.timeline,
      compareWith: s.compareWith,
      setCompareWith: s.setCompareWith,
      inspection: s.inspection,
      setDiffWanted: s.setDiffWanted,
    }),
  )
  // The diff is read only while this tab is open.
  useEffect(() => {
    void setDiffWanted(true)
    return () => void setDiffWanted(false)
  }, [setDiffWanted])
  const conversations = useMemo(() => conversationsOf(inspection), [inspection])
  const items = useMemo(
    () => (diff ? groupDiffByMessage(diff.changes, new Set(conversations.keys())) : []),
    [diff, conversations],
  )
  if (!inspection || !diff) return <NoCheckpoint />
  const label = (id: string) => {
    const t = timeline.find((x) => x.checkpointId === id)
    return t ? `step ${t.step} · ${t.source} · ${id.slice(0, 8)}` : id.slice(0, 8)
  }
  return (
    <div className="diff">
      <label>
        <span>
          Step {inspection.step} ({inspection.checkpointId.slice(0, 8)}) against{' '}
        </span>
        <select
          aria-label="Compare with"
          value={compareWith ?? ''}
          onChange={(e) => void setCompareWith(e.target.value || null)}
        >
          <option value="">its parent</option>
          {timeline
            .filter((t) => t.checkpointId !== inspection.checkpointId)
            .map((t) => (
              <option key={t.checkpointId} value={t.checkpointId}>
                {label(t.checkpointId)}
              </option>
            ))}
        </select>
      </label>
      {diff.from === null && <p className="muted">No parent: every field is new.</p>}
      {diff.changes.length === 0 ? (
        <p className="muted">The state is the same.</p>
      ) : (
        <ul className="plain-list diff-list" aria-label="State changes">
          {items.map((item, i) => (
            <Item key={i} item={item} conversations={conversations} />
          ))}
        </ul>
      )}
    </div>
  )
}

type Conversations = ReadonlyMap<string, readonly MessageView[] | null>
const NO_CONVERSATIONS: Conversations = new Map()

/** "message 1f5a3ae2…" for a diff line; the whole id on hover. */
function MessageKey({ id }: { id: string | number }) {
  const s = String(id)
  return (
    <span className="muted" title={`id: ${s}`}>
      message {s.length > 12 ? `${s.slice(0, 8)}…` : s}
    </span>
  )
}

function Item({ item, conversations }: { item: DiffItem; conversations: Conversations }) {
  if (item.type === 'value') return <Change change={item.change} conversations={conversations} />
  const around = conversations.get(item.field) ?? null
  const links = { results: toolResultsByCallId(around ?? []), calls: toolCallsById(around ?? []) }
  if (item.type === 'message') {
    return (
      <li
        className={`change msg-change ${item.kind}`}
        data-kind={item.kind}
        data-message={item.key}
      >
        <span className="kind">{item.kind}</span> <Path path={[item.field]} />{' '}
        <MessageKey id={item.key} />
        <MessageCard message={item.message} links={links} />
      </li>
    )
  }
  const now = findMessage(around, item.key)
  return (
    <li className="change msg-change changed" data-kind="changed" data-message={item.key}>
      <span className="kind">changed</span> <Path path={[item.field]} />{' '}
      <MessageKey id={item.key} />
      <ul className="msg-subchanges" aria-label={`Changes in message ${String(item.key)}`}>
        {item.changes.map((c, i) => (
          <Change key={i} change={c} conversations={NO_CONVERSATIONS} />
        ))}
      </ul>
      {now && <MessageCard message={now} links={links} />}
    </li>
  )
}

function Change({
  change: c,
  conversations,
}: {
  change: StateChange
  conversations: Conversations
}) {
  // A whole messages field added or removed (the first checkpoint): its messages.
  const messages = c.path.length === 1 && conversations.has(String(c.path[0]))
  return (
    <li className={`change ${c.kind}`} data-kind={c.kind}>
      <span className="kind">{c.kind}</span> <Path path={c.path} />{' '}
      {c.kind !== 'added' && <JsonValue value={c.before} messages={messages} />}
      {c.kind === 'changed' && ' → '}
      {c.kind !== 'removed' && <JsonValue value={c.after} messages={messages} />}
    </li>
  )
}

function Path({ path }: { path: readonly (string | number)[] }) {
  return (
    <code>
      {path.map((p, i) => (
        <Fragment key={i}>
          {i > 0 && ' › '}
          <Name>{String(p)}</Name>
        </Fragment>
      ))}
    </code>
  )
}
