import { Fragment } from 'react'
import { runStatus } from '../../store/runStatus'
import { useApp } from '../storeContext'
import { Name } from '../Name'

/**
 * The run's status in words ("Paused before `write` (breakpoint)", "Waiting for a reply to
 * interrupt() in `review`"), from what the worker reported and what is selected.
 */
export function RunStatusLine() {
  const input = useApp((s) => ({
    runState: s.runState,
    runStarting: s.runStarting,
    pausedBy: s.pausedBy,
    interrupts: s.interrupts,
    timeline: s.timeline,
    selectedCheckpointId: s.selectedCheckpointId,
    spec: s.spec,
  }))
  const status = runStatus({ ...input, interruptBefore: input.spec?.interruptBefore })
  const parts = status.text.split(/\{(\d+)\}/)
  return (
    <output
      className={`run-state ${status.phase}`}
      aria-label="Run status"
      // Not live: the Announcer says each pause and fork once, in whole sentences.
      aria-live="off"
      data-phase={status.phase}
      title={[
        status.text.replace(/\{(\d+)\}/g, (_, i: string) => status.names[Number(i)] ?? ''),
        status.detail,
      ]
        .filter(Boolean)
        .join('. ')}
    >
      {parts.map((part, i) =>
        i % 2 === 1 ? (
          <code key={i}>
            <Name>{status.names[Number(part)] ?? ''}</Name>
          </code>
        ) : (
          <Fragment key={i}>{part}</Fragment>
        ),
      )}
    </output>
  )
}
