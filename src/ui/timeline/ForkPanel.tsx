import './runNotes.css'
import { useState } from 'react'
import { selectReadOnly } from '../../store/appStore'
import { useApp } from '../storeContext'
import { NoCheckpoint } from './ChannelTable'
import { JsonValue } from './JsonValue'
import { showBidiControls } from '../bidi'
import { levelOf, levelPathOfNodes } from '../../core/graph/levels'
import { nsNodes } from '../../core/pregel/namespace'

/**
 * The shown checkpoint's state, and what can start from it: replay (run again from here, a
 * new branch) and fork (write an edited update as a node, then continue from the fork).
 */
export function ForkPanel() {
  const s = useApp((s) => ({
    inspection: s.inspection,
    spec: s.spec,
    forkFrom: s.forkFrom,
    replayFrom: s.replayFrom,
    runState: s.runState,
    graphId: s.graphId,
    readOnly: selectReadOnly(s),
    timeline: s.timeline,
    innerNs: s.selectedCheckpointId === null ? '' : s.selectedNs,
    inner: s.inner,
  }))
  const [text, setText] = useState<string | null>(null)
  const [asNode, setAsNode] = useState('')
  const [error, setError] = useState<string | null>(null)
  const { spec } = s
  if (!s.inspection || !spec) return <NoCheckpoint />
  const { inspection } = s
  // A subgraph's checkpoint can be forked while its parent's step has not ended (a run
  // paused inside it, or an interrupt there) and it is the subgraph's latest: Continue then
  // resumes the subgraph from the fork, as LangGraph does. Older ones are shown only.
  const ns = s.innerNs
  const level = ns ? levelPathOfNodes(spec, nsNodes(ns)) : []
  const graph = level && levelOf(spec, level)?.spec
  const rootTask = ns.split('|')[0]
  const inProgress = !s.timeline.some((t) => t.ran.some((r) => r.ns === rootTask))
  const latest = s.inner[ns]?.[0]?.checkpointId === inspection.checkpointId
  if (ns && !(graph && inProgress && latest))
    return (
      <div className="fork">
        <section aria-label="State at this checkpoint">
          <h3>State of the subgraph at its step {inspection.step}</h3>
          <JsonValue
            value={Object.fromEntries(
              inspection.channels
                .filter((c) => c.role === 'field' && c.hasValue)
                .map((c) => [c.name, c.value]),
            )}
            label="State values"
          />
        </section>
        <p className="muted">
          {inProgress
            ? 'Only the subgraph’s latest checkpoint can be forked: select it (the top one of its rows).'
            : 'This subgraph’s step has ended: fork or replay from a step of the graph itself (the subgraph runs again inside it).'}
        </p>
      </div>
    )
  const at = graph ?? spec
  const fields = inspection.channels.filter((c) => c.role === 'field')
  const values = Object.fromEntries(fields.filter((c) => c.hasValue).map((c) => [c.name, c.value]))
  // Overwrite fields are safe to prefill: the value written replaces the one there.
  const overwrite = new Set(
    at.state
      .filter((f) => !f.channel && (f.reducer ?? 'overwrite') === 'overwrite')
      .map((f) => f.name),
  )
  const initial = JSON.stringify(
    Object.fromEntries(Object.entries(values).filter(([k]) => overwrite.has(k))),
    null,
    2,
  )
  const update = text ?? initial
  const busy = s.runState === 'running' || !s.graphId || s.readOnly !== null
  const id = inspection.checkpointId
  // After a parallel step LangGraph cannot tell which node an update is from (its "Ambiguous
  // update"): the nodes that ran are offered instead.
  const ran = [...new Set(s.timeline.find((t) => t.checkpointId === id)?.ran.map((t) => t.name))]
  const ambiguous = ran.length > 1 || (error?.includes('Ambiguous update') ?? false)
  const choices = ran.length > 1 ? ran : at.nodes.map((n) => n.id)
  const fork = (as: string) =>
    void s.forkFrom(id, update, as || undefined, ns).then((err) => {
      setError(err)
      if (err) return
      setText(null)
      focusNewCheckpoint()
    })
  return (
    <div className="fork" key={id}>
      <section aria-label="State at this checkpoint">
        <h3>
          {ns
            ? `State of the subgraph at its step ${inspection.step}`
            : `State at step ${inspection.step}`}
        </h3>
        <JsonValue value={values} label="State values" />
      </section>
      <form
        aria-label="Fork"
        onSubmit={(e) => {
          e.preventDefault()
          if (ambiguous && !asNode) return setError(null)
          fork(asNode)
        }}
      >
        <label className="stack fork-update">
          <span>
            Update (JSON). Each field goes through its reducer, as if written by “As node”.
          </span>
          <textarea
            aria-label="State update"
            value={update}
            rows={5}
            spellCheck={false}
            onChange={(e) => {
              setText(e.target.value)
              setError(null)
            }}
          />
        </label>
        <div className="fork-actions">
          <label className="stack">
            <span>As node</span>
            <select aria-label="As node" value={asNode} onChange={(e) => setAsNode(e.target.value)}>
              <option value="">{ambiguous ? '(choose a node)' : '(last node to write)'}</option>
              {at.nodes.map((n) => (
                <option key={n.id} value={n.id}>
                  {showBidiControls(n.id)}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" disabled={busy}>
            Fork from here
          </button>
          {!ns && (
            <button
              type="button"
              disabled={busy}
              onClick={() => void s.replayFrom(id)}
              title="Run again from this checkpoint; the new checkpoints branch from it"
            >
              Replay from here
            </button>
          )}
        </div>
        {s.readOnly && (
          <p className="muted" role="note">
            {s.readOnly === 'problems'
              ? 'Fork and replay wait until the graph’s problems are fixed (see Problems).'
              : 'Fork and replay wait until the graph is trusted.'}
          </p>
        )}
        {error && !(ambiguous && error.includes('Ambiguous update')) && (
          <p className="error-text" role="alert" aria-label="Fork error">
            {error}
          </p>
        )}
        {ambiguous && !asNode && (
          <div className="fork-as" role="group" aria-label="Write the update as">
            <p>
              {ran.length > 1
                ? `Step ${inspection.step} ran ${ran.length} nodes in parallel, so the update needs a node to come from (it decides what runs next):`
                : 'Which node does the update come from? It decides what runs next:'}
            </p>
            {choices.map((n) => (
              <button key={n} type="button" disabled={busy} onClick={() => fork(n)}>
                Fork as {showBidiControls(n)}
              </button>
            ))}
          </div>
        )}
      </form>
    </div>
  )
}

/**
 * After a fork this form belongs to the old checkpoint and goes away: the focus moves to the
 * timeline, whose selected row is the fork (unless the user has put it somewhere else).
 */
function focusNewCheckpoint() {
  const active = document.activeElement
  if (active && active !== document.body && active.closest('form[aria-label="Fork"]') === null)
    return
  document.querySelector<HTMLElement>('[role="listbox"][aria-label="Checkpoints"]')?.focus()
}
