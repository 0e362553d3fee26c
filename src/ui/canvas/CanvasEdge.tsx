import { BaseEdge, EdgeLabelRenderer, Position, getBezierPath, type EdgeProps } from '@xyflow/react'
import { memo } from 'react'
import { IssueBadgeView } from './CanvasNodes'
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

/** Every edge: bezier or self-loop, dash style from its kind (CSS), label and issue badge. */
export const GraphEdge = memo(function GraphEdge(props: EdgeProps<FlowEdge>) {
  const { source, target, sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition } =
    props
  const [path, labelX, labelY] =
    source === target
      ? selfLoopPath(sourceX, sourceY, targetX, targetY, sourcePosition)
      : getBezierPath({ sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition })
  const label = props.data?.label
  const issues = props.data?.issues
  return (
    <>
      <BaseEdge
        id={props.id}
        path={path}
        markerEnd={props.markerEnd}
        interactionWidth={props.interactionWidth}
      />
      {(label !== undefined || issues) && (
        <EdgeLabelRenderer>
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
          </div>
        </EdgeLabelRenderer>
      )}
    </>
  )
})

/** Module scope, like `nodeTypes`. */
export const edgeTypes = { graph: GraphEdge }
