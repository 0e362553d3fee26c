import { Fragment, useEffect } from 'react'
import type { StateChange } from '../../core/debug/types'
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
          {diff.changes.map((c, i) => (
            <Change key={i} change={c} />
          ))}
        </ul>
      )}
    </div>
  )
}

function Change({ change: c }: { change: StateChange }) {
  return (
    <li className={`change ${c.kind}`} data-kind={c.kind}>
      <span className="kind">{c.kind}</span>{' '}
      <code>
        {c.path.map((p, i) => (
          <Fragment key={i}>
            {i > 0 && ' › '}
            <Name>{String(p)}</Name>
          </Fragment>
        ))}
      </code>{' '}
      {c.kind !== 'added' && <JsonValue value={c.before} />}
      {c.kind === 'changed' && ' → '}
      {c.kind !== 'removed' && <JsonValue value={c.after} />}
    </li>
  )
}
