import './runNotes.css'
import { useId, useState } from 'react'
import { selectReadOnly } from '../../store/appStore'
import { useApp } from '../storeContext'
import { Name } from '../Name'
import { JsonValue } from './JsonValue'
import { levelPathOfNodes } from '../../core/graph/levels'

/** Where a reply is not JSON: the parser's message, or null when it parses. */
export function replyProblem(text: string): string | null {
  try {
    JSON.parse(text)
    return null
  } catch (e) {
    return (e as Error).message
  }
}

const CANNOT_ANSWER = {
  untrusted: 'Trust the graph to answer: its code runs only then.',
  problems: 'The graph has problems: fix them (see Problems) to answer.',
  no: null,
}

/**
 * The Interrupt tab: what the paused nodes ask, and the reply that resumes them. A run
 * paused at a breakpoint says so (nothing asks; Continue goes on).
 */
export function InterruptPanel({ onEditState }: { onEditState(): void }) {
  const { interrupts, resume, runState, pausedBy, spec, openLevel, cannotAnswer } = useApp((s) => ({
    // A graph compiled for reading only shows what is asked; the reply waits until it can run.
    cannotAnswer: CANNOT_ANSWER[selectReadOnly(s) ?? 'no'],
    interrupts: s.interrupts,
    resume: s.resume,
    runState: s.runState,
    pausedBy: s.pausedBy,
    spec: s.spec,
    openLevel: s.openLevel,
  }))
  // An interrupt raised inside a subgraph comes out of the graph node that runs it.
  const subgraphOf = (node: string) => {
    const n = spec?.nodes.find((x) => x.id === node)
    return n?.kind === 'graph' ? n.graph : undefined
  }
  const [reply, setReply] = useState('""')
  const problemId = useId()
  if (interrupts.length === 0 || runState !== 'interrupted') {
    if (runState === 'interrupted' && pausedBy?.reason === 'breakpoint')
      return (
        <p className="muted">
          The run is paused at a breakpoint, not by <code>interrupt()</code>: nothing is asked.
          Continue (F5) runs on; Step (F10) runs one super-step.
        </p>
      )
    return (
      <p className="muted">
        No <code>interrupt()</code> is waiting. A node that calls <code>interrupt(value)</code>{' '}
        pauses the run here, and your reply is what the call returns.
      </p>
    )
  }
  const problem = replyProblem(reply)
  const blocked = cannotAnswer !== null
  return (
    <form
      className="interrupt"
      onSubmit={(e) => {
        e.preventDefault()
        if (!problem && !blocked) void resume(reply)
      }}
    >
      <div className="interrupt-asks">
        {interrupts.map((i) => {
          // Raised inside a subgraph: the node that called interrupt(), and the subgraphs down to it.
          const inner = i.path && i.path.length > 1 ? i.path : null
          const asker = inner ? (inner.at(-1) as string) : i.node
          const graphs = inner?.slice(0, -1) ?? (subgraphOf(i.node) !== undefined ? [i.node] : [])
          const level = graphs.length && spec ? levelPathOfNodes(spec, graphs) : null
          return (
            <div key={i.id} className="interrupt-ask">
              <code>
                <Name>{asker}</Name>
              </code>{' '}
              {graphs.length > 0 && (
                <>
                  (inside{' '}
                  <button
                    type="button"
                    className="link"
                    title="Open the subgraph on the canvas"
                    disabled={!level}
                    onClick={() => level && openLevel(level)}
                  >
                    <Name>{graphs.join(' › ')}</Name>
                  </button>
                  ){' '}
                </>
              )}
              asks:
              <JsonValue value={i.value} label={`What ${asker} asks`} />
            </div>
          )
        })}
      </div>
      <div className="interrupt-answer">
        {cannotAnswer && (
          <p className="muted" role="note">
            {cannotAnswer}
          </p>
        )}
        <label className="interrupt-reply">
          <span>Reply (JSON: what interrupt() returns)</span>
          <textarea
            aria-label="Reply"
            aria-invalid={problem !== null}
            aria-describedby={problem ? problemId : undefined}
            rows={Math.min(8, Math.max(2, reply.split('\n').length))}
            spellCheck={false}
            value={reply}
            onChange={(e) => setReply(e.target.value)}
            onKeyDown={(e) => {
              // Ctrl+Enter sends, as in a chat box; Enter makes a new line.
              if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && !problem && !blocked) {
                e.preventDefault()
                void resume(reply)
              }
            }}
          />
        </label>
        {problem && (
          <p id={problemId} className="field-problem" role="status">
            Not JSON: {problem}. A text reply needs quotes: {JSON.stringify(reply.trim() || 'yes')}
          </p>
        )}
        <div className="row">
          <button type="submit" disabled={problem !== null || blocked} title="Resume (Ctrl+Enter)">
            Resume
          </button>
          <span className="muted">or</span>
          <button
            type="button"
            disabled={blocked}
            onClick={() => void resume('true')}
            title="Resume with true"
          >
            Approve
          </button>
          <button
            type="button"
            disabled={blocked}
            onClick={() => void resume('false')}
            title="Resume with false"
          >
            Reject
          </button>
          <button
            type="button"
            title="Put the shown value in the reply, to edit and send back"
            onClick={() => setReply(JSON.stringify(interrupts[0]?.value ?? null, null, 2))}
          >
            Edit
          </button>
          <button type="button" onClick={onEditState}>
            Edit state first
          </button>
        </div>
      </div>
    </form>
  )
}
