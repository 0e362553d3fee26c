import { useState, type KeyboardEvent } from 'react'
import { useApp } from '../storeContext'

const TABS = ['Checkpoints', 'Logs', 'Interrupt'] as const

/** The run drawer: thread, input, status, and the thread's checkpoints, logs and interrupts. */
export function RunDrawer() {
  const s = useApp((s) => ({
    threadId: s.threadId,
    input: s.input,
    setInput: s.setInput,
    recursionLimit: s.recursionLimit,
    setRecursionLimit: s.setRecursionLimit,
    runState: s.runState,
    error: s.error,
    message: s.message,
    current: s.current,
    trustCurrent: s.trustCurrent,
    setAllowNetwork: s.setAllowNetwork,
    lastDeleted: s.lastDeleted,
    restoreDeleted: s.restoreDeleted,
  }))
  const [tab, setTab] = useState(0)
  const onKeyDown = (e: KeyboardEvent) => {
    const d = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0
    if (d === 0) return
    e.preventDefault()
    const next = (tab + d + TABS.length) % TABS.length
    setTab(next)
    document.getElementById(`run-tab-${next}`)?.focus()
  }
  return (
    <section className="drawer" aria-label="Run">
      {s.current && !s.current.trusted && (
        <div className="banner warn" role="alert">
          <span>
            <strong>{s.current.name}</strong> was imported. Its code has not run: it runs in a
            sandbox without your data or the network, but only once you say so.
          </span>
          <button type="button" onClick={() => void s.trustCurrent()}>
            Trust and allow running
          </button>
        </div>
      )}
      <div className="drawer-bar">
        <label>
          <span>Thread</span>
          <code aria-label="Thread">{s.threadId || '—'}</code>
        </label>
        <label>
          <span>Input</span>
          <input
            type="text"
            aria-label="Input"
            value={s.input}
            onChange={(e) => s.setInput(e.target.value)}
            spellCheck={false}
          />
        </label>
        <label>
          <span>Recursion limit</span>
          <input
            type="number"
            min={1}
            aria-label="Recursion limit"
            value={s.recursionLimit}
            onChange={(e) => s.setRecursionLimit(Number(e.target.value))}
            style={{ width: '5rem' }}
          />
        </label>
        <label title="Off by default; the code of an imported graph never reaches the network until you allow it here">
          <input
            type="checkbox"
            aria-label="Allow network"
            checked={s.current?.allowNetwork === true}
            disabled={!s.current?.trusted}
            onChange={(e) => void s.setAllowNetwork(e.target.checked)}
          />
          <span>Network</span>
        </label>
        <output className={`run-state ${s.runState}`} aria-label="Run status" aria-live="polite">
          {s.runState}
        </output>
        {s.message && <span className="muted">{s.message}</span>}
        {s.lastDeleted && (
          <button type="button" onClick={() => void s.restoreDeleted()}>
            Undo delete of {s.lastDeleted.name}
          </button>
        )}
      </div>
      {s.error && (
        <div className="banner error" role="alert" aria-label="Run error">
          <strong>{s.error.name}</strong>
          {s.error.node && (
            <>
              {' '}
              in node <code>{s.error.node}</code>
            </>
          )}
          {s.error.line !== undefined && <> at line {s.error.line}</>}: {s.error.message}
        </div>
      )}
      <div className="tabs" role="tablist" aria-label="Run details" onKeyDown={onKeyDown}>
        {TABS.map((name, i) => (
          <button
            type="button"
            role="tab"
            key={name}
            id={`run-tab-${i}`}
            aria-selected={i === tab}
            aria-controls="run-tabpanel"
            tabIndex={i === tab ? 0 : -1}
            onClick={() => setTab(i)}
          >
            {name}
          </button>
        ))}
      </div>
      <div
        className="tabpanel"
        role="tabpanel"
        id="run-tabpanel"
        aria-labelledby={`run-tab-${tab}`}
      >
        {tab === 0 && <Checkpoints />}
        {tab === 1 && <Logs />}
        {tab === 2 && <InterruptReply />}
      </div>
    </section>
  )
}

function Checkpoints() {
  const history = useApp((s) => s.history)
  if (history.length === 0) return <p className="muted">No checkpoints yet. Press F10 to step.</p>
  return (
    <ol className="checkpoints" aria-label="Checkpoints" reversed>
      {history.map((c) => (
        <li key={c.config.checkpointId} data-step={c.metadata.step}>
          <span className="step">step {c.metadata.step}</span>
          <span className="source">{c.metadata.source}</span>
          <span className="next">next: {c.next.length ? c.next.join(', ') : '—'}</span>
          <code className="values">{JSON.stringify(c.values)}</code>
        </li>
      ))}
    </ol>
  )
}

function Logs() {
  const logs = useApp((s) => s.logs)
  if (logs.length === 0) return <p className="muted">Nothing logged.</p>
  return (
    <ol className="logs" aria-label="Logs">
      {logs.map((l, i) => (
        <li key={i}>
          <code>{l.node}</code> {l.text}
        </li>
      ))}
    </ol>
  )
}

function InterruptReply() {
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
          <code>{i.node}</code> asks: <code>{JSON.stringify(i.value)}</code>
        </p>
      ))}
      <label>
        <span>Reply (JSON)</span>
        <input aria-label="Reply" value={reply} onChange={(e) => setReply(e.target.value)} />
      </label>
      <button type="submit">Resume</button>
    </form>
  )
}
