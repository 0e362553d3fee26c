import './runNotes.css'
import { useApp } from '../storeContext'
import { BidiText, Name } from '../Name'

/**
 * What the runtime warned about while the shown checkpoint's super-step ran (a write to a key
 * that is not a field, a route to no node, …), above its writes; and where the others were.
 */
export function RunWarnings() {
  const { warnings, timeline, selectedId, selectCheckpoint } = useApp((s) => ({
    warnings: s.runWarnings,
    timeline: s.timeline,
    selectedId: s.selectedCheckpointId,
    selectCheckpoint: s.selectCheckpoint,
  }))
  const shown = selectedId ? timeline.find((t) => t.checkpointId === selectedId) : timeline[0]
  const step = shown?.step
  const selectStep = (n: number) => {
    const entry = timeline.find((t) => t.step === n && t.source === 'loop')
    if (entry) void selectCheckpoint(entry.checkpointId)
  }
  if (warnings.length === 0) return null
  const here = warnings.filter((w) => w.step === step)
  const elsewhere = [...new Set(warnings.filter((w) => w.step !== step).map((w) => w.step))]
  return (
    <section className="run-warnings" aria-label="Runtime warnings">
      {here.length > 0 && (
        <ul className="plain-list">
          {here.map((w, i) => (
            <li key={i} className="warning">
              <span className="severity">warning</span>{' '}
              {w.node && (
                <>
                  <code>
                    <Name>{w.node}</Name>
                  </code>
                  :{' '}
                </>
              )}
              <BidiText>{w.message}</BidiText> <code className="muted">{w.code}</code>
            </li>
          ))}
        </ul>
      )}
      {elsewhere.length > 0 && (
        <p className="muted">
          {here.length > 0 ? 'Also warnings' : 'Runtime warnings'} at{' '}
          {elsewhere.map((n, i) => (
            <span key={n}>
              {i > 0 && ', '}
              <button type="button" className="link" onClick={() => selectStep(n)}>
                step {n}
              </button>
            </span>
          ))}
          .
        </p>
      )}
    </section>
  )
}
