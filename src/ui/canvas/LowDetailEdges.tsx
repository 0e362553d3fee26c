import { ViewportPortal, useStore, type ReactFlowState } from '@xyflow/react'
import { memo, useId, useMemo, useState } from 'react'
import { shallow } from 'zustand/shallow'
import { createLineCache, viewOf, type Line } from './detail'
import type { Direction, FlowEdge, FlowNode } from './flowTypes'

const selectView = (s: ReactFlowState) => [...s.transform, s.width, s.height] as const

/**
 * A big graph's edges zoomed out (`detail.ts`), drawn by the canvas in one SVG under the
 * nodes instead of by React Flow: React Flow's edges each hold three store subscriptions,
 * woken on every drag frame, and it tests all of them for visibility each time. Here a drag
 * frame recomputes and redraws the lines of the moved nodes only. Straight lines, no labels, not clickable.
 */
export const LowDetailEdges = memo(function LowDetailEdges(props: {
  nodes: readonly FlowNode[]
  edges: readonly FlowEdge[]
  direction: Direction
  fired: ReadonlySet<string>
}) {
  const { nodes, edges, direction, fired } = props
  const [tx, ty, zoom, width, height] = useStore(selectView, shallow)
  const [visibleLines] = useState(createLineCache)
  const arrow = `ss-lod-arrow${useId().replace(/:/g, '')}`
  const lines = useMemo(
    () => visibleLines(edges, nodes, direction, viewOf([tx, ty, zoom], width, height), fired),
    [edges, visibleLines, nodes, direction, tx, ty, zoom, width, height, fired],
  )
  return (
    <ViewportPortal>
      <svg className="ss-lod-edges" aria-hidden="true">
        <defs>
          <marker
            id={arrow}
            viewBox="0 0 10 10"
            refX="10"
            refY="5"
            markerWidth="12"
            markerHeight="12"
            markerUnits="userSpaceOnUse"
            orient="auto"
          >
            <path d="M0,0L10,5L0,10z" />
          </marker>
        </defs>
        {lines.map((l) => (
          <LineView key={l.id} line={l} arrow={arrow} />
        ))}
      </svg>
    </ViewportPortal>
  )
})

const LineView = memo(
  function LineView({ line, arrow }: { line: Line; arrow: string }) {
    return (
      <path
        d={`M${line.x1},${line.y1}L${line.x2},${line.y2}`}
        className={line.className}
        data-edge-id={line.id}
        markerEnd={line.arrow ? `url(#${arrow})` : undefined}
      />
    )
  },
  (a, b) =>
    a.arrow === b.arrow &&
    (a.line === b.line ||
      (a.line.x1 === b.line.x1 &&
        a.line.y1 === b.line.y1 &&
        a.line.x2 === b.line.x2 &&
        a.line.y2 === b.line.y2 &&
        a.line.className === b.line.className &&
        a.line.arrow === b.line.arrow)),
)
