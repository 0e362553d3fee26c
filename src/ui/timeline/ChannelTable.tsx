import { useDeferredValue } from 'react'
import type { ChannelRow, CheckpointInspection } from '../../core/debug/types'
import { useApp } from '../storeContext'
import { isMessagesField } from '../messages/conversations'
import { JsonValue } from './JsonValue'
import { Name } from '../Name'

const ROLE_TITLE: Record<ChannelRow['role'], string> = {
  field: 'a state field',
  start: 'the run input (START)',
  tasks: 'Sends queued for the next super-step',
  branch: 'written by an edge into the node',
  join: 'the barrier of a join edge',
}

/** Every channel of the shown checkpoint: type, value, version, and whether this step changed it. */
export function ChannelTable() {
  // Rendered when the page has time: a live run replaces the inspection twice a second.
  const inspection = useDeferredValue(useApp((s) => s.inspection))
  if (!inspection) return <NoCheckpoint />
  return (
    <table className="channel-table" aria-label="Channels">
      <thead>
        <tr>
          <th scope="col">Channel</th>
          <th scope="col">Type</th>
          <th scope="col">Version</th>
          <th scope="col">Changed</th>
          <th scope="col">Value</th>
        </tr>
      </thead>
      <tbody>
        {inspection.channels.map((c) => (
          <tr key={c.name} data-channel={c.name} className={c.changed ? 'changed' : undefined}>
            <th scope="row" title={ROLE_TITLE[c.role]}>
              <code>
                <Name>{c.name}</Name>
              </code>
            </th>
            <td>
              {c.type}
              {c.reducer && c.role === 'field' && <span className="muted"> ({c.reducer})</span>}
            </td>
            <td className="version" aria-label={`Version of ${c.name}`}>
              {c.version ?? '—'}
              {c.changed && c.parentVersion !== undefined && (
                <span className="muted"> (was {c.parentVersion})</span>
              )}
            </td>
            <td>{c.changed ? 'changed' : ''}</td>
            <td className="value">
              {c.hasValue ? (
                <JsonValue
                  value={c.value}
                  label={`Value of ${c.name}`}
                  messages={isMessagesField(c)}
                />
              ) : (
                <span className="muted">empty</span>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

export function NoCheckpoint() {
  return <p className="muted">No checkpoint is selected. Run or step the graph (F5, F10).</p>
}

/** "step 2 · loop" for a heading. */
export function checkpointTitle(i: CheckpointInspection): string {
  return `step ${i.step} · ${i.source} · ${i.checkpointId.slice(0, 8)}`
}
