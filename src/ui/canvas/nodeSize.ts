import { MARKER, NODE_H, NODE_W, type FlowNode } from './flowTypes'

/** A marker's size before it is measured ("any node", a missing node: a pill). */
const PILL = { width: 96, height: 28 }

/** A node's size as drawn: measured, else declared, else the default box. */
export function sizeOf(n: FlowNode): { width: number; height: number } {
  const measured = n.measured
  if (measured?.width && measured.height) return { width: measured.width, height: measured.height }
  if (n.initialWidth && n.initialHeight) return { width: n.initialWidth, height: n.initialHeight }
  if (n.type === 'marker') return n.data.kind === 'join' ? { width: MARKER, height: MARKER } : PILL
  return { width: NODE_W, height: NODE_H }
}
