import { memo, useCallback, useDeferredValue, useLayoutEffect, useRef, useState } from 'react'
import { useVirtualizer } from '@tanstack/react-virtual'
import type { ChannelRow, CheckpointInspection } from '../../core/debug/types'
import { useApp } from '../storeContext'
import { isMessagesField } from '../messages/conversations'
import { JsonValue } from './JsonValue'
import { Name } from '../Name'
import './channelTable.css'

const ROLE_TITLE: Record<ChannelRow['role'], string> = {
  field: 'a state field',
  start: 'the run input (START)',
  tasks: 'Sends queued for the next super-step',
  branch: 'written by an edge into the node',
  join: 'the barrier of a join edge',
}

/**
 * From this many channels on, only the rows on screen (plus overscan) are rendered. Smaller
 * tables render whole: every row stays in the DOM (find-in-page, Tab through every value) and
 * there is no measuring at all for the graphs people usually draw.
 */
export const VIRTUAL_FROM = 100
/** A one-line row's height before it is measured. */
const ROW = 23

/** Every channel of the shown checkpoint: type, value, version, and whether this step changed it. */
export function ChannelTable() {
  // During a run, rendered when the page has time: the run replaces the inspection twice a
  // second. Otherwise at once: a click on a checkpoint shows its channels in the same frame
  // as the read lands (deferred, they came a frame later).
  const latest = useApp((s) => s.inspection)
  const running = useApp((s) => s.runState === 'running')
  const deferred = useDeferredValue(latest)
  const inspection = running ? deferred : latest
  if (!inspection) return <NoCheckpoint />
  return <Rows channels={inspection.channels} />
}

function Rows({ channels }: { channels: readonly ChannelRow[] }) {
  const virtualized = channels.length >= VIRTUAL_FROM
  const body = useRef<HTMLTableSectionElement>(null)
  // Where the rows start inside the scrolling panel (below the heading row and its padding).
  const [margin, setMargin] = useState(0)
  useLayoutEffect(() => {
    const scroller = virtualized ? scrollerOf(body.current) : null
    if (!body.current || !scroller) return
    const at =
      body.current.getBoundingClientRect().top -
      scroller.getBoundingClientRect().top +
      scroller.scrollTop
    if (Math.abs(at - margin) > 1) setMargin(at)
  }, [virtualized, margin, channels])
  // Measured heights follow the channel, not its position, across refreshes.
  const keyOf = useCallback((i: number) => channels[i]?.name ?? i, [channels])
  // The virtualizer's functions change every render; this component is not memoized anyway.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtual = useVirtualizer({
    count: virtualized ? channels.length : 0,
    enabled: virtualized,
    getScrollElement: () => scrollerOf(body.current),
    estimateSize: () => ROW,
    getItemKey: keyOf,
    scrollMargin: margin,
    overscan: 12,
  })
  const items = virtualized ? virtual.getVirtualItems() : []
  const first = items[0]
  const last = items[items.length - 1]
  const above = first ? first.start - margin : 0
  const below = last ? virtual.getTotalSize() - (last.end - margin) : 0
  return (
    <table className="channel-table" aria-label="Channels" aria-rowcount={channels.length + 1}>
      <thead>
        <tr aria-rowindex={1}>
          <th scope="col">Channel</th>
          <th scope="col">Type</th>
          <th scope="col">Version</th>
          <th scope="col">Changed</th>
          <th scope="col">Value</th>
        </tr>
      </thead>
      <tbody ref={body}>
        {virtualized ? (
          <>
            {above > 0 && <Spacer height={above} />}
            {items.map((v) => (
              <ChannelRowView
                key={v.key}
                c={channels[v.index] as ChannelRow}
                index={v.index}
                measure={virtual.measureElement}
              />
            ))}
            {below > 0 && <Spacer height={below} />}
          </>
        ) : (
          channels.map((c, i) => <ChannelRowView key={c.name} c={c} index={i} />)
        )}
      </tbody>
    </table>
  )
}

/** Stands for the rows scrolled out of view, so the scrollbar keeps the whole table's length. */
function Spacer({ height }: { height: number }) {
  return (
    <tr className="channel-spacer" aria-hidden="true">
      <td colSpan={5} style={{ height }} />
    </tr>
  )
}

/** The nearest ancestor that scrolls (the drawer's tab panel). */
function scrollerOf(el: Element | null): HTMLElement | null {
  for (let p = el?.parentElement; p; p = p.parentElement) {
    const { overflowY } = getComputedStyle(p)
    if (overflowY === 'auto' || overflowY === 'scroll') return p
  }
  return null
}

interface RowProps {
  c: ChannelRow
  index: number
  measure?: ((el: Element | null) => void) | undefined
}

/**
 * One channel. A refresh builds new rows for every channel; a row whose channel did not change
 * (same version, same value object) is not rendered again.
 */
const ChannelRowView = memo(function ChannelRowView({ c, index, measure }: RowProps) {
  return (
    <tr
      ref={measure}
      data-index={index}
      aria-rowindex={index + 2}
      data-channel={c.name}
      className={c.changed ? 'changed' : undefined}
    >
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
          <JsonValue value={c.value} label={`Value of ${c.name}`} messages={isMessagesField(c)} />
        ) : (
          <span className="muted">empty</span>
        )}
      </td>
    </tr>
  )
}, sameRow)

function sameRow(a: RowProps, b: RowProps): boolean {
  if (a.index !== b.index || a.measure !== b.measure) return false
  const x = a.c
  const y = b.c
  return (
    x === y ||
    (x.name === y.name &&
      x.role === y.role &&
      x.type === y.type &&
      x.reducer === y.reducer &&
      x.hasValue === y.hasValue &&
      x.value === y.value &&
      x.version === y.version &&
      x.parentVersion === y.parentVersion &&
      x.changed === y.changed)
  )
}

export function NoCheckpoint() {
  return <p className="muted">No checkpoint is selected. Run or step the graph (F5, F10).</p>
}

/** "step 2 · loop" for a heading. */
export function checkpointTitle(i: CheckpointInspection): string {
  return `step ${i.step} · ${i.source} · ${i.checkpointId.slice(0, 8)}`
}
