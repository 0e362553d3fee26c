import { useState } from 'react'
import { useApp } from '../storeContext'
import { Name } from '../Name'

/** The Interrupt tab: what the paused nodes ask, and the reply that resumes them. */
export function InterruptPanel({ onEditState }: { onEditState(): void }) {
  const { interrupts, resume, runState } = useApp((s) => ({
    interrupts: s.interrupts,
    resume: s.resume,
    runState: s.runState,
  }))
  const [reply, setReply] = useState('""')
  if (interrupts.length === 0 || runState !== 'interrupted') {
    return <p className="muted">No interrupt is waiting.</p>
  }
  return (
    <form
      className="interrupt"
      onSubmit={(e) => {
        e.preventDefault()
        void resume(reply)
      }}
    >
      {interrupts.map((i) => (
        <p key={i.id}>
          <code>
            <Name>{i.node}</Name>
          </code>{' '}
          asks: <code>{JSON.stringify(i.value)}</code>
        </p>
      ))}
      <label>
        <span>Reply (JSON)</span>
        <input aria-label="Reply" value={reply} onChange={(e) => setReply(e.target.value)} />
      </label>
      <div className="row">
        <button type="submit">Resume</button>
        <span className="muted">or</span>
        <button type="button" onClick={() => void resume('true')} title="Resume with true">
          Approve
        </button>
        <button type="button" onClick={() => void resume('false')} title="Resume with false">
          Reject
        </button>
        <button
          type="button"
          title="Put the shown value in the reply, to edit and send back"
          onClick={() => setReply(JSON.stringify(interrupts[0]?.value ?? null))}
        >
          Edit
        </button>
        <button type="button" onClick={onEditState}>
          Edit state first
        </button>
      </div>
    </form>
  )
}
