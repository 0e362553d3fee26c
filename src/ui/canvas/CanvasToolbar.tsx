import { useState } from 'react'
import type { Direction } from './flowTypes'

/** Props of `CanvasToolbar`: presentational, every action is a callback. */
export interface CanvasToolbarProps {
  onAddNode(): void
  /** Lays the graph out; while its promise is pending the button shows "Laying out…". */
  onAutoLayout(): void | Promise<void>
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
}

/**
 * The canvas's own toolbar: "Add node", "Auto layout" with its direction, "Fit view", and
 * "Join" (shown enabled when several nodes are selected; it opens "Join into…").
 */
export function CanvasToolbar(props: CanvasToolbarProps) {
  const [joining, setJoining] = useState(false)
  const layout = useAutoLayout(props.onAutoLayout)
  const canJoin = props.joinSources.length >= 2
  const open = joining && canJoin
  return (
    <div className="ss-toolbar" role="toolbar" aria-label="Canvas tools">
      <button type="button" onClick={props.onAddNode}>
        Add node
      </button>
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
            ['LR', 'Left to right'],
            ['TB', 'Top to bottom'],
          ] as const
        ).map(([d, name]) => (
          <button
            key={d}
            type="button"
            aria-pressed={props.direction === d}
            onClick={() => props.onDirection(d)}
          >
            {name}
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
      {layout.error && (
        <span role="alert" className="ss-toolbar-error">
          Auto layout failed: {layout.error}. The graph was not changed.
        </span>
      )}
    </div>
  )
}

/** Runs a layout at most once at a time, with its progress and its failure as state. */
function useAutoLayout(onAutoLayout: () => void | Promise<void>) {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const run = () => {
    setError(null)
    const pending = onAutoLayout()
    if (!pending) return
    setBusy(true)
    pending.then(
      () => setBusy(false),
      (e: unknown) => {
        setBusy(false)
        setError(e instanceof Error ? e.message : String(e))
      },
    )
  }
  return { busy, error, run }
}
