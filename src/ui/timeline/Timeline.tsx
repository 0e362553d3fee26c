import { useVirtualizer } from '@tanstack/react-virtual'
import { nsNodes } from '../../core/pregel/namespace'
import { Fragment, useEffect, useMemo, useRef, type KeyboardEvent } from 'react'
import { layoutHistoryTree } from '../../core/debug/tree'
import type { TreeRow } from '../../core/debug/types'
import type { TimelineEntry } from '../../worker/protocol'
import { selectReadOnly } from '../../store/appStore'
import { useApp } from '../storeContext'
import { BidiText, Name } from '../Name'
import { DamageNotice } from './DamageNotice'

const ROW = 26
const LANE = 12
/** How near the end of the loaded checkpoints (in rows) the next older page is read. */
const NEAR_END = 20

/**
 * The thread's checkpoints, newest first, as a list and a tree: each row sits in its
 * branch's lane (a fork starts a new lane), with its step, source, the tasks that ran and
 * how long they took. A scrubber walks them in put order. Selecting one shows it everywhere.
 */
export function Timeline() {
  // Not deferred: the list and the run status must agree in every frame.
  const {
    timeline,
    selected,
    selectedNs,
    selectCheckpoint,
    prefetchCheckpoint,
    olderAvailable,
    loadOlder,
    inner,
    innerOpen,
    toggleInner,
    unread,
    readOnly,
  } = useApp((s) => ({
    timeline: s.timeline,
    olderAvailable: s.olderAvailable,
    loadOlder: s.loadOlder,
    selected: s.selectedCheckpointId ?? s.timeline[0]?.checkpointId,
    selectedNs: s.selectedCheckpointId === null ? '' : s.selectedNs,
    selectCheckpoint: s.selectCheckpoint,
    prefetchCheckpoint: s.prefetchCheckpoint,
    inner: s.inner,
    innerOpen: s.innerOpen,
    toggleInner: s.toggleInner,
    // A graph that cannot even be read (it does not match the format) leaves them unread.
    unread: s.graphId ? 0 : (s.threads.find((t) => t.threadId === s.threadId)?.count ?? 0),
    // One with problems, or not trusted, is read only: its history shows, nothing runs.
    readOnly: selectReadOnly(s),
  }))
  const rows = useMemo(() => layoutHistoryTree(timeline), [timeline])
  // The list as shown: each checkpoint, and under a step whose graph node's subgraph is
  // open, that subgraph's own checkpoints (indented; nested ones further).
  const shown = useMemo(() => {
    const out: Shown[] = []
    const open = new Set(innerOpen)
    const under = (t: TimelineEntry, depth: number) => {
      for (const r of t.ran) {
        if (!r.ns || !open.has(r.ns)) continue
        for (const entry of inner[r.ns] ?? []) {
          out.push({ ns: r.ns, entry, depth, node: r.name })
          under(entry, depth + 1)
        }
      }
    }
    timeline.forEach((entry, i) => {
      out.push({ ns: '', entry, depth: 0, row: i })
      under(entry, 1)
    })
    // A subgraph whose parent step has not ended (a run paused inside it) is under no step
    // yet: its checkpoints come first, the newest, deepest subgraph on top.
    const placed = new Set(out.map((r) => r.ns))
    const running = innerOpen
      .filter((ns) => !placed.has(ns) && inner[ns]?.length)
      .sort((a, b) => nsNodes(b).length - nsNodes(a).length)
    const top = running.flatMap((ns) =>
      (inner[ns] ?? []).map((entry) => ({
        ns,
        entry,
        depth: nsNodes(ns).length,
        node: nsNodes(ns).at(-1) as string,
      })),
    )
    return [...top, ...out]
  }, [timeline, inner, innerOpen])
  const childLanes = useMemo(() => {
    const out = new Map<string, number[]>()
    for (const r of rows)
      if (r.parentId !== undefined) out.set(r.parentId, [...(out.get(r.parentId) ?? []), r.lane])
    return out
  }, [rows])
  const lanes = rows.reduce((m, r) => Math.max(m, r.lane, ...r.through), 0) + 1
  const scroller = useRef<HTMLDivElement>(null)
  // The virtualizer's functions change every render; this component is not memoized anyway.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtual = useVirtualizer({
    count: shown.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW,
    overscan: 12,
  })
  const index = shown.findIndex((r) => r.entry.checkpointId === selected && r.ns === selectedNs)
  const rootIndex = timeline.findIndex((t) => t.checkpointId === selected)
  useEffect(() => {
    if (index >= 0) virtual.scrollToIndex(index, { align: 'auto' })
  }, [index, virtual])
  // The timeline reads a page of checkpoints at a time: the next older page comes when the
  // list is scrolled near its end (once per length; the button below asks for it too).
  const items = virtual.getVirtualItems()
  const lastShown = items[items.length - 1]?.index ?? -1
  const askedAt = useRef(-1)
  useEffect(() => {
    if (!olderAvailable || timeline.length === 0 || lastShown < shown.length - NEAR_END) return
    if (askedAt.current === timeline.length) return
    askedAt.current = timeline.length
    void loadOlder()
  }, [olderAvailable, lastShown, shown.length, timeline.length, loadOlder])

  // The scroller stays mounted while empty: the virtualizer measures it once, not at the
  // first checkpoint of a run (a forced layout of the whole page in the middle of it).
  if (timeline.length === 0)
    return (
      <div className="timeline">
        <DamageNotice />
        <div className="timeline-scroll" ref={scroller}>
          <p className="muted timeline-empty">
            {unread > 0
              ? `This thread has ${unread} checkpoint${unread === 1 ? '' : 's'}: they show once the graph matches the format again (fix the errors in Problems).`
              : 'No checkpoints yet. Press F10 to step.'}
          </p>
        </div>
      </div>
    )

  const pickRoot = (i: number) => {
    const t = timeline[Math.max(0, Math.min(timeline.length - 1, i))]
    if (t) void selectCheckpoint(t.checkpointId)
  }
  const pick = (i: number) => {
    const r = shown[Math.max(0, Math.min(shown.length - 1, i))]
    if (r) void selectCheckpoint(r.entry.checkpointId, r.ns)
  }
  const onKeyDown = (e: KeyboardEvent) => {
    const d = { ArrowDown: 1, ArrowUp: -1, Home: -Infinity, End: Infinity }[e.key]
    if (d === undefined) return
    e.preventDefault()
    pick(Number.isFinite(d) ? index + d : d > 0 ? shown.length - 1 : 0)
  }
  return (
    <div className="timeline">
      <DamageNotice />
      {readOnly && (
        <p className="read-only-notice" role="note" aria-label="Read only">
          {readOnly === 'problems'
            ? 'Read only: the graph has problems. Its history shows as it ran; run, step and fork wait until they are fixed.'
            : 'Read only: the graph is not trusted. Its history shows as it ran; trust it to run, step or fork.'}
        </p>
      )}
      <label className="scrubber">
        <span className="visually-hidden">Scrubber</span>
        <input
          type="range"
          aria-label="Scrubber"
          min={0}
          max={timeline.length - 1}
          value={timeline.length - 1 - Math.max(rootIndex, 0)}
          onChange={(e) => pickRoot(timeline.length - 1 - Number(e.target.value))}
        />
      </label>
      <div className="timeline-scroll" ref={scroller}>
        <ol
          className="checkpoints"
          role="listbox"
          aria-label="Checkpoints"
          tabIndex={0}
          aria-activedescendant={index >= 0 ? `cp-${index}` : undefined}
          onKeyDown={onKeyDown}
          style={{ height: virtual.getTotalSize() }}
        >
          {items.map((v) => {
            const item = shown[v.index] as Shown
            if (item.row === undefined)
              return (
                <InnerRow
                  key={`${item.ns} ${item.entry.checkpointId}`}
                  id={`cp-${v.index}`}
                  item={item}
                  selected={item.entry.checkpointId === selected && item.ns === selectedNs}
                  top={v.start}
                  onPick={() => void selectCheckpoint(item.entry.checkpointId, item.ns)}
                  onToggle={(ns) => void toggleInner(ns)}
                  open={innerOpen}
                />
              )
            const t = item.entry
            const row = rows[item.row] as TreeRow
            return (
              <li
                key={t.checkpointId}
                id={`cp-${v.index}`}
                role="option"
                aria-selected={t.checkpointId === selected && selectedNs === ''}
                className={t.damaged ? 'damaged' : undefined}
                title={t.damaged && `Damaged: ${t.damaged.reason}`}
                data-step={Number.isNaN(t.step) ? undefined : t.step}
                data-checkpoint={t.checkpointId}
                data-lane={row.lane}
                data-source={t.source}
                data-damaged={t.damaged?.table}
                style={{ transform: `translateY(${v.start}px)`, height: ROW }}
                onClick={() => void selectCheckpoint(t.checkpointId)}
                // Read while the pointer rests on it: the click then shows it at once.
                onPointerEnter={() => prefetchCheckpoint(t.checkpointId)}
              >
                <Lanes row={row} lanes={lanes} children={childLanes.get(t.checkpointId) ?? []} />
                {t.damaged?.table === 'checkpoints' ? (
                  <Damaged entry={t} />
                ) : (
                  <>
                    <span className="step">
                      step {t.step}
                      {t.damaged && ' ⚠'}
                    </span>
                    <span className={`source source-${t.source}`}>{t.source}</span>
                    <span className="ran">
                      <Ran entry={t} open={innerOpen} onToggle={(ns) => void toggleInner(ns)} />
                    </span>
                    <span className="next">
                      next: {t.next.length ? <Names names={t.next} /> : '—'}
                    </span>
                  </>
                )}
              </li>
            )
          })}
        </ol>
        {olderAvailable && (
          <button type="button" className="load-older" onClick={() => void loadOlder()}>
            Load older checkpoints
          </button>
        )}
      </div>
    </div>
  )
}

/** A checkpoint whose row cannot be read: what of it is known, and why. */
function Damaged({ entry }: { entry: TimelineEntry }) {
  return (
    <>
      <span className="step">{Number.isNaN(entry.step) ? 'damaged' : `step ${entry.step} ✗`}</span>
      <span className="reason">
        damaged: <BidiText>{entry.damaged?.reason ?? ''}</BidiText>
      </span>
    </>
  )
}

/** A row of the timeline: a checkpoint of the thread (`row`: its tree row) or of a subgraph. */
interface Shown {
  ns: string
  entry: TimelineEntry
  depth: number
  row?: number
  /** A subgraph's checkpoint: the graph node that ran the subgraph. */
  node?: string
}

/** A subgraph's checkpoint, indented under the parent step whose graph node made it. */
function InnerRow(props: {
  id: string
  item: Shown
  selected: boolean
  top: number
  open: readonly string[]
  onPick(): void
  onToggle(ns: string): void
}) {
  const { item } = props
  const t = item.entry
  return (
    <li
      id={props.id}
      role="option"
      aria-selected={props.selected}
      className="inner"
      data-step={t.step}
      data-checkpoint={t.checkpointId}
      data-ns={item.ns}
      data-source={t.source}
      style={{
        transform: `translateY(${props.top}px)`,
        height: ROW,
        paddingLeft: 10 + item.depth * 14,
      }}
      onClick={props.onPick}
    >
      <span className="inner-of" title={`A checkpoint of the subgraph run by ${item.node ?? ''}`}>
        ↳ <Name>{item.node ?? ''}</Name>
      </span>
      <span className="step">step {t.step}</span>
      <span className={`source source-${t.source}`}>{t.source}</span>
      <span className="ran">
        <Ran entry={t} open={props.open} onToggle={props.onToggle} />
      </span>
      <span className="next">next: {t.next.length ? <Names names={t.next} /> : '—'}</span>
    </li>
  )
}

/**
 * The tasks a checkpoint's step ran: `name ✗ 1.2 ms, other 3 ms`; a graph node's task is a
 * button that shows (or hides) its subgraph's checkpoints under the row.
 */
function Ran(props: { entry: TimelineEntry; open: readonly string[]; onToggle(ns: string): void }) {
  return props.entry.ran.map((r, i) => {
    const mark = r.failed ? ' ✗' : r.interrupted ? ' ⏸' : ''
    const ms = r.durationMs === undefined ? '' : ` ${formatMs(r.durationMs)}`
    const ns = r.ns
    const expanded = ns !== undefined && props.open.includes(ns)
    return (
      <Fragment key={i}>
        {i > 0 && ', '}
        {ns ? (
          <button
            type="button"
            className="link inner-toggle"
            aria-expanded={expanded}
            title={`${expanded ? 'Hide' : 'Show'} the checkpoints of the subgraph ${r.name} ran`}
            onClick={(e) => {
              e.stopPropagation()
              props.onToggle(ns)
            }}
          >
            {expanded ? '▾' : '▸'} <Name>{r.name}</Name>
          </button>
        ) : (
          <Name>{r.name}</Name>
        )}
        {mark}
        {ms}
      </Fragment>
    )
  })
}

/** Node names, comma separated, each isolated. */
function Names({ names }: { names: readonly string[] }) {
  return names.map((name, i) => (
    <Fragment key={i}>
      {i > 0 && ', '}
      <Name>{name}</Name>
    </Fragment>
  ))
}

export function formatMs(ms: number): string {
  return ms < 10 ? `${ms.toFixed(1)} ms` : `${Math.round(ms)} ms`
}

/**
 * The tree gutter of one row (newest at the top): lines of the lanes passing by, a line down
 * to its parent in its own lane, and a line (or a curve, for a fork) up to each child.
 */
function Lanes({ row, lanes, children }: { row: TreeRow; lanes: number; children: number[] }) {
  const x = (lane: number) => lane * LANE + LANE / 2
  const mid = ROW / 2
  const own = x(row.lane)
  return (
    <svg className="lanes" width={lanes * LANE} height={ROW} aria-hidden="true">
      {row.through.map((l) => (
        <line key={l} x1={x(l)} x2={x(l)} y1={0} y2={ROW} />
      ))}
      {row.parentId !== undefined && <line x1={own} x2={own} y1={mid} y2={ROW} />}
      {[...new Set(children)].map((c) =>
        c === row.lane ? (
          <line key={c} x1={own} x2={own} y1={0} y2={mid} />
        ) : (
          <path key={c} d={`M ${x(c)} 0 C ${x(c)} ${mid}, ${own} 0, ${own} ${mid}`} />
        ),
      )}
      <circle className={`dot lane-${row.lane % 4}`} cx={own} cy={mid} r={4} />
    </svg>
  )
}
