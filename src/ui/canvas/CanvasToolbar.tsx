import { useState } from 'react'
import type { Direction } from './flowTypes'

/** Props of `CanvasToolbar`: presentational, every action is a callback. */
export interface CanvasToolbarProps {
  onAddNode(): void
  onAutoLayout(): void
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
      <button type="button" onClick={props.onAutoLayout}>
        Auto layout
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
    </div>
  )
}
