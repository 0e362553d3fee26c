import { BaseEdge, Position, type EdgeProps } from '@xyflow/react'
import { memo } from 'react'
import { createPortal } from 'react-dom'
import { IssueBadgeView } from './CanvasNodes'
import { useLowDetail } from './detail'
import { useEdgeLabelLayer, useEdgeRoute } from './edgeContext'
import { edgePath, ownOffset } from './edgeGeometry'
import type { FlowEdge } from './flowTypes'
import { Name } from '../Name'

/**
 * The path of a self-loop: out of the source handle, round the outside of the node, back
 * into the target handle. Returns the path and where its label goes.
 */
export function selfLoopPath(
  sx: number,
  sy: number,
  tx: number,
  ty: number,
  sourcePosition: Position,
): [path: string, labelX: number, labelY: number] {
  const r = 70
  if (sourcePosition === Position.Bottom || sourcePosition === Position.Top) {
    // top to bottom: bottom handle round the right side to the top handle
    const path = `M ${sx} ${sy} C ${sx + r * 1.6} ${sy + r}, ${tx + r * 1.6} ${ty - r}, ${tx} ${ty}`
    return [path, Math.max(sx, tx) + r * 1.2, (sy + ty) / 2]
  }
  // left to right: right handle over the top to the left handle
  const path = `M ${sx} ${sy} C ${sx + r} ${sy - r * 1.6}, ${tx - r} ${ty - r * 1.6}, ${tx} ${ty}`
  return [path, (sx + tx) / 2, Math.min(sy, ty) - r * 1.2]
}

/**
 * Every edge: a bezier (moved aside when it shares its two nodes with other edges), a detour
 * round the nodes in its way (its route, from `useEdgeRoute`), or a self-loop; dash style from
 * its kind (CSS), tooltip, label and issue badge. Zoomed out, a straight line (`detail.ts`).
 */
export const GraphEdge = memo(function GraphEdge(props: EdgeProps<FlowEdge>) {
  const { source, target, sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition } =
    props
  const data = props.data
  const route = useEdgeRoute(props.id)
  const labels = useEdgeLabelLayer()
  if (useLowDetail() && source !== target) {
    // Zoomed out (detail.ts): a straight line, no label, no wide hit area.
    return (
      <BaseEdge
        id={props.id}
        path={`M${sourceX},${sourceY}L${targetX},${targetY}`}
        markerEnd={props.markerEnd}
        interactionWidth={0}
      />
    )
  }
  const [path, labelX, labelY] =
    source === target
      ? selfLoopPath(sourceX, sourceY, targetX, targetY, sourcePosition)
      : edgePath({
          s: { x: sourceX, y: sourceY },
          sPos: sourcePosition,
          t: { x: targetX, y: targetY },
          tPos: targetPosition,
          offset: ownOffset(route?.offset ?? 0, source, target),
          lane: route?.lane,
        })
  const label = data?.label
  const issues = data?.issues
  return (
    <>
      {data?.title !== undefined && <title>{data.title}</title>}
      <BaseEdge
        id={props.id}
        path={path}
        markerEnd={props.markerEnd}
        interactionWidth={props.interactionWidth}
      />
      {(label !== undefined || issues) &&
        labels &&
        createPortal(
          <div
            className={`ss-edge-label nopan${props.selected ? ' ss-selected' : ''}`}
            style={{ transform: `translate(-50%, -50%) translate(${labelX}px, ${labelY}px)` }}
          >
            {label !== undefined && (
              <span>
                <Name>{label}</Name>
              </span>
            )}
            <IssueBadgeView badge={issues} />
          </div>,
          labels,
        )}
    </>
  )
})

/** Module scope, like `nodeTypes`. */
export const edgeTypes = { graph: GraphEdge }
