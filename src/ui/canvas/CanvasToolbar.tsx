import { useEffect, useRef, useState } from 'react'
import { isLayoutCancelled, type LayoutControl, type LayoutPhase } from './elkLayout'
import type { Direction } from './flowTypes'

/** Props of `CanvasToolbar`: presentational, every action is a callback. */
export interface CanvasToolbarProps {
  onAddNode(): void
  /**
   * Lays the graph out; while its promise is pending the button shows "Laying out…". A big
   * layout reports its phases to `control.onPhase` (then a progress line with Cancel shows)
   * and stops when `control.signal` aborts.
   */
  onAutoLayout(control: LayoutControl): void | Promise<void>
  /** How many nodes a layout places (for its progress line). */
  nodeCount: number
  direction: Direction
  onDirection(direction: Direction): void
  onFitView(): void
  /** The selected nodes a join would start from (the "Join" action needs two or more). */
  joinSources: string[]
  /** Where the join may go. */
  joinTargets: string[]
  onJoin(to: string): void
  /** Deletes the selection; absent when nothing deletable is selected. */
  onDelete?: () => void
  /** The selected document nodes "Group" would make into a subgraph. */
  groupSources: string[]
  /** A free subgraph name to offer. */
  groupName: string
  /** Groups the selection into subgraph `name`. */
  onGroup(name: string): void
  /** The library's graphs a subgraph may be copied from (absent: no "Add subgraph"). */
  subgraphSources?: { id: string; name: string }[]
  /** Adds a subgraph: a new one (`null`) or a copy of the library graph `id`. */
  onAddSubgraph?: (from: string | null) => void
}

/**
 * The canvas's own toolbar: "Add node", "Auto layout" with its direction, "Fit view",
 * "Join" (shown enabled when several nodes are selected; it opens "Join into…") and "Group"
 * (the selection into a subgraph; it asks the subgraph's name).
 */
export function CanvasToolbar(props: CanvasToolbarProps) {
  const [joining, setJoining] = useState(false)
  const [grouping, setGrouping] = useState(false)
  const layout = useAutoLayout(props.onAutoLayout)
  const canJoin = props.joinSources.length >= 2
  const open = joining && canJoin
  return (
    <div className="ss-toolbar" role="toolbar" aria-label="Canvas tools">
      <div className="ss-toolbar-row">
        <button type="button" onClick={props.onAddNode}>
          Add node
        </button>
        {props.onAddSubgraph && (
          <select
            aria-label="Add subgraph"
            className="ss-add-subgraph"
            title="Add a subgraph and a graph node that runs it: a new one, or a copy of a graph of the library"
            value=""
            onChange={(e) => {
              const v = e.target.value
              if (v) props.onAddSubgraph?.(v === NEW_SUBGRAPH ? null : v)
            }}
          >
            <option value="">Add subgraph…</option>
            <option value={NEW_SUBGRAPH}>New subgraph</option>
            {props.subgraphSources?.map((g) => (
              <option key={g.id} value={g.id}>
                Copy of {g.name}
              </option>
            ))}
          </select>
        )}
        <button
          type="button"
          disabled={!props.onDelete}
          onClick={props.onDelete}
          title="Delete the selection (Delete / Backspace)"
        >
          Delete
        </button>
        <button
          type="button"
          onClick={layout.run}
          disabled={layout.busy}
          aria-busy={layout.busy || undefined}
        >
          <span className="ss-stack">
            <span style={{ visibility: layout.busy ? 'hidden' : 'visible' }}>Auto layout</span>
            <span style={{ visibility: layout.busy ? 'visible' : 'hidden' }}>Laying out…</span>
          </span>
        </button>
        <span className="ss-segmented" role="group" aria-label="Layout direction">
          {(
            [
              ['LR', 'Left to right', '→'],
              ['TB', 'Top to bottom', '↓'],
            ] as const
          ).map(([d, name, arrow]) => (
            <button
              key={d}
              type="button"
              aria-pressed={props.direction === d}
              aria-label={name}
              title={`Lay out ${name.toLowerCase()}`}
              onClick={() => props.onDirection(d)}
            >
              {arrow}
            </button>
          ))}
        </span>
        <button type="button" onClick={props.onFitView}>
          Fit view
        </button>
        <button
          type="button"
          disabled={!canJoin}
          aria-expanded={open}
          title={canJoin ? 'Join the selected nodes into one node' : 'Select two or more nodes'}
          onClick={() => setJoining((j) => !j)}
        >
          Join
        </button>
        {open && (
          <select
            aria-label="Join into"
            autoFocus
            value=""
            onChange={(e) => {
              setJoining(false)
              if (e.target.value) props.onJoin(e.target.value)
            }}
            onKeyDown={(e) => {
              if (e.key === 'Escape') setJoining(false)
            }}
          >
            <option value="">Join into…</option>
            {props.joinTargets.map((t) => (
              <option key={t} value={t}>
                {t === '__end__' ? 'END' : t}
              </option>
            ))}
          </select>
        )}
        <button
          type="button"
          disabled={props.groupSources.length === 0}
          aria-expanded={grouping}
          title={
            props.groupSources.length
              ? 'Group the selected nodes into a subgraph, run by one graph node'
              : 'Select the nodes to group into a subgraph'
          }
          onClick={() => setGrouping((g) => !g)}
        >
          Group
        </button>
        {grouping && props.groupSources.length > 0 && (
          <GroupName
            initial={props.groupName}
            onDone={(name) => {
              setGrouping(false)
              if (name) props.onGroup(name)
            }}
          />
        )}
      </div>
      {/* Below the tools, never scrolled out of view with them on a narrow canvas. */}
      {layout.progress && (
        <LayoutProgress
          progress={layout.progress}
          nodes={props.nodeCount}
          onCancel={layout.cancel}
        />
      )}
      {layout.error && (
        <span role="alert" className="ss-toolbar-error">
          Auto layout failed: {layout.error}. The graph was not changed.
        </span>
      )}
    </div>
  )
}

const NEW_SUBGRAPH = '\u0000new'

/** The new subgraph's name: Enter groups, Escape (or leaving the field) does not. */
function GroupName(props: { initial: string; onDone(name: string | null): void }) {
  const [name, setName] = useState(props.initial)
  return (
    <input
      aria-label="Subgraph name"
      className="ss-group-name"
      autoFocus
      value={name}
      onFocus={(e) => e.currentTarget.select()}
      onChange={(e) => setName(e.target.value)}
      onKeyDown={(e) => {
        e.stopPropagation()
        if (e.key === 'Enter') props.onDone(name.trim() || null)
        if (e.key === 'Escape') props.onDone(null)
      }}
      onBlur={() => props.onDone(null)}
    />
  )
}

const PHASE_TEXT: Record<LayoutPhase, string> = {
  sent: 'sent to the layout worker',
  working: 'elk at work',
  'laid-out': 'moving the nodes',
}

/** How far a big layout is: its phase and when it started (`performance.now()`). */
interface Progress {
  phase: LayoutPhase
  since: number
}

/**
 * A big layout going on: "Laying out 5,000 nodes…", its phase, the seconds so far (ticking),
 * and Cancel. The canvas stays usable meanwhile: elk runs in a worker.
 */
function LayoutProgress(props: { progress: Progress; nodes: number; onCancel(): void }) {
  const [now, setNow] = useState(() => performance.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(performance.now()), 100)
    return () => clearInterval(timer)
  }, [])
  const seconds = Math.max(0, now - props.progress.since) / 1000
  return (
    <span className="ss-layout-progress">
      <span role="status" aria-label="Layout progress">
        Laying out {props.nodes.toLocaleString('en')} nodes… {PHASE_TEXT[props.progress.phase]} ·{' '}
        <span className="ss-elapsed">{seconds.toFixed(1)} s</span>
      </span>
      <button type="button" onClick={props.onCancel}>
        Cancel
      </button>
    </span>
  )
}

/** Runs a layout at most once at a time, with its progress, its Cancel and its failure as state. */
function useAutoLayout(onAutoLayout: (control: LayoutControl) => void | Promise<void>) {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [progress, setProgress] = useState<Progress | null>(null)
  const current = useRef<AbortController | null>(null)
  // A layout still going when the canvas goes away is stopped with it.
  useEffect(() => () => current.current?.abort(), [])
  const run = () => {
    setError(null)
    const controller = new AbortController()
    const since = performance.now()
    const onPhase = (phase: LayoutPhase) => {
      if (current.current === controller) setProgress({ phase, since })
    }
    const pending = onAutoLayout({ signal: controller.signal, onPhase })
    if (!pending) return
    current.current = controller
    setBusy(true)
    const done = (message: string | null) => {
      if (current.current !== controller) return
      current.current = null
      setBusy(false)
      setProgress(null)
      setError(message)
    }
    pending.then(
      () => done(null),
      (e: unknown) =>
        done(isLayoutCancelled(e) ? null : e instanceof Error ? e.message : String(e)),
    )
  }
  const cancel = () => current.current?.abort()
  return { busy, error, progress, run, cancel }
}
