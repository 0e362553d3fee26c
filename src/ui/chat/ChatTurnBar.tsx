import { useState } from 'react'
import type { TimelineEntry } from '../../worker/protocol'
import type { ChatTurn } from './chatBranches'

/** Checkpoint links shown per turn at most: the first ones and the last. */
const LINKS = 8

/**
 * Under a human message that started a turn: Edit (a fork from the state before the message,
 * the old branch kept), the versions of the message (`‹ 2/3 ›`, as chat apps show them),
 * and the turn's checkpoints, each selecting itself in the timeline.
 */
export function ChatTurnBar({
  turn,
  selectedId,
  canEdit,
  text,
  onEdit,
  onVersion,
  onSelect,
}: {
  turn: ChatTurn
  /** The checkpoint shown (the timeline's selection, or its newest). */
  selectedId: string | undefined
  /** Why editing is not possible now (a run going, an interrupt waiting), or null. */
  canEdit: string | null
  /** The message's text, what an edit starts from (null: content that is not text). */
  text: string | null
  onEdit(text: string): void
  onVersion(inputId: string): void
  onSelect(checkpointId: string): void
}) {
  const [draft, setDraft] = useState<string | null>(null)
  const { versions, version } = turn
  const shown =
    turn.checkpoints.length <= LINKS
      ? turn.checkpoints
      : [...turn.checkpoints.slice(0, LINKS - 1), turn.checkpoints.at(-1) as TimelineEntry]
  const save = () => {
    const content = draft?.trim()
    if (!content) return
    setDraft(null)
    onEdit(content)
  }
  return (
    <div className="chat-turn-bar">
      {draft !== null ? (
        <form
          className="chat-edit"
          onSubmit={(e) => {
            e.preventDefault()
            save()
          }}
        >
          <textarea
            aria-label="Edited message"
            rows={Math.min(6, Math.max(2, draft.split('\n').length))}
            value={draft}
            // Focused on purpose: the user asked to edit this message.
            autoFocus
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && !e.shiftKey) {
                e.preventDefault()
                save()
              } else if (e.key === 'Escape') setDraft(null)
            }}
          />
          <div className="row">
            <button
              type="submit"
              className="primary"
              disabled={!draft.trim() || canEdit !== null}
              title="Run the graph again from the state before this message, with the edited one; the old branch is kept"
            >
              Save and run
            </button>
            <button type="button" onClick={() => setDraft(null)}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <button
          type="button"
          className="link"
          disabled={canEdit !== null || text === null}
          title={
            canEdit ??
            (text === null
              ? 'Only a text message can be edited here'
              : 'Edit this message: the thread forks from the state before it')
          }
          onClick={() => setDraft(text ?? '')}
        >
          Edit
        </button>
      )}
      {versions.length > 1 && (
        <span className="chat-versions" role="group" aria-label="Versions of this message">
          <button
            type="button"
            className="link"
            aria-label="Previous version"
            disabled={version <= 0}
            onClick={() => onVersion(versions[version - 1] as string)}
          >
            ‹
          </button>
          <span aria-label={`Version ${version + 1} of ${versions.length}`}>
            {version + 1}/{versions.length}
          </span>
          <button
            type="button"
            className="link"
            aria-label="Next version"
            disabled={version >= versions.length - 1}
            onClick={() => onVersion(versions[version + 1] as string)}
          >
            ›
          </button>
        </span>
      )}
      <span className="chat-checkpoints" role="group" aria-label="Checkpoints of this turn">
        <span className="muted">checkpoints</span>
        {shown.map((c, i) => (
          <span key={c.checkpointId}>
            {i === LINKS - 1 && turn.checkpoints.length > LINKS && <span className="muted">…</span>}
            <button
              type="button"
              className={`link chat-checkpoint${c.checkpointId === selectedId ? ' shown' : ''}`}
              aria-pressed={c.checkpointId === selectedId}
              aria-label={`Select checkpoint of step ${c.step}`}
              title={`${c.source} checkpoint, step ${c.step} (${c.checkpointId.slice(0, 8)}): select it in the timeline`}
              onClick={() => onSelect(c.checkpointId)}
            >
              {c.step}
            </button>
          </span>
        ))}
      </span>
    </div>
  )
}
