import { Position } from '@xyflow/react'
import type { XY } from '../../core/graph/edits'
import { showBidiControls } from '../bidi'
import { HANDLE, MARKER, NODE_H, NODE_W, snap, type FlowNode, type IssueBadge } from './flowTypes'

/** The pieces `toFlow` builds nodes from: node boxes, markers, positions. */
const boxes = new Map<boolean, Pick<FlowNode, 'initialWidth' | 'initialHeight' | 'handles'>>()

/**
 * The size and handles of a node box, known before it is measured. React Flow renders every
 * node without handle bounds once, to measure it; with them, `onlyRenderVisibleElements`
 * renders only the nodes in view from the first frame. Measuring replaces these.
 */
export function boxOf(lr: boolean): Pick<FlowNode, 'initialWidth' | 'initialHeight' | 'handles'> {
  const hit = boxes.get(lr)
  if (hit) return hit
  const h = HANDLE / 2
  const handles: NonNullable<FlowNode['handles']> = lr
    ? [
        {
          type: 'target',
          position: Position.Left,
          x: -h,
          y: NODE_H / 2 - h,
          width: HANDLE,
          height: HANDLE,
        },
        {
          type: 'source',
          position: Position.Right,
          x: NODE_W - h,
          y: NODE_H / 2 - h,
          width: HANDLE,
          height: HANDLE,
        },
      ]
    : [
        {
          type: 'target',
          position: Position.Top,
          x: NODE_W / 2 - h,
          y: -h,
          width: HANDLE,
          height: HANDLE,
        },
        {
          type: 'source',
          position: Position.Bottom,
          x: NODE_W / 2 - h,
          y: NODE_H - h,
          width: HANDLE,
          height: HANDLE,
        },
      ]
  const box = { initialWidth: NODE_W, initialHeight: NODE_H, handles }
  boxes.set(lr, box)
  return box
}

/**
 * A join marker sits halfway between the sources' far side and the target's near side,
 * level with the target (or with the sources' middle when there is no target).
 */
export function joinMarkerPosition(sources: XY[], target: XY | undefined, lr: boolean): XY {
  const size = lr ? NODE_W : NODE_H
  const cross = (lr ? NODE_H : NODE_W) / 2
  const along = (p: XY) => (lr ? p.x : p.y)
  const across = (p: XY) => (lr ? p.y : p.x)
  const far = sources.length ? Math.max(...sources.map(along)) + size : 0
  const near = target ? along(target) : far + 90
  const middle = sources.length ? sources.reduce((a, p) => a + across(p), 0) / sources.length : 0
  const a = (far + near) / 2 - MARKER / 2
  const b = (target ? across(target) : middle) + cross - MARKER / 2
  return lr ? { x: snap(a), y: snap(b) } : { x: snap(b), y: snap(a) }
}

export function marker(
  id: string,
  kind: 'join' | 'any' | 'missing',
  label: string,
  position: XY,
  ariaLabel: string,
  issues: { issues?: IssueBadge },
  selectable = false,
): FlowNode {
  return {
    id,
    type: 'marker',
    position,
    data: { kind, label, ...issues },
    ariaLabel: showBidiControls(ariaLabel),
    domAttributes: dataNodeId(id),
    draggable: false,
    connectable: false,
    selectable,
    deletable: selectable,
  }
}

/** `data-node-id` on the node's element (React Flow's type has no data-* keys). */
export function dataNodeId(id: string): FlowNode['domAttributes'] {
  return { 'data-node-id': id } as FlowNode['domAttributes']
}
