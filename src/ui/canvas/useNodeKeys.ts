import { useStoreApi, type ReactFlowState } from '@xyflow/react'
import { useLayoutEffect, useRef, type RefObject } from 'react'
import type { XY } from '../../core/graph/edits'
import { snap, type FlowNode } from './flowTypes'

/** The node whose element takes the focus when it mounts: a node just renamed in place. */
let focusOnMount: string | null = null

/** After an inline rename the node is a new element: it takes the focus, not `<body>`. */
export function focusNodeOnMount(docId: string): void {
  focusOnMount = docId
}

const ARROWS: Record<string, { x: number; y: number; word: string }> = {
  ArrowUp: { x: 0, y: -1, word: 'up' },
  ArrowDown: { x: 0, y: 1, word: 'down' },
  ArrowLeft: { x: -1, y: 0, word: 'left' },
  ArrowRight: { x: 1, y: 0, word: 'right' },
}

/**
 * The keyboard of a node's own element (React Flow's wrapper, which holds the focus):
 * its accessible name is the element `nameId` (kind, run state, problems), F2 renames it in
 * place, Enter opens a graph node's subgraph (`open`), and the arrow keys move it (Shift: four grid steps) as a drag would: through
 * `onNodeDragStop`, so the document changes and is saved. React Flow's own arrow handling
 * only announces a move and throws it away (its nodes are controlled here), so the keys are
 * taken before it sees them.
 */
export function useNodeKeys(
  box: RefObject<HTMLElement | null>,
  flowId: string,
  docId: string,
  nameId: string,
  rename?: () => void,
  open?: () => void,
): void {
  const store = useStoreApi<FlowNode>()
  const onRename = useRef(rename)
  const onOpen = useRef(open)
  useLayoutEffect(() => {
    onRename.current = rename
    onOpen.current = open
  })
  useLayoutEffect(() => {
    const wrapper = box.current?.closest<HTMLElement>('.react-flow__node')
    if (!wrapper) return
    wrapper.setAttribute('aria-labelledby', nameId)
    if (focusOnMount === docId) {
      focusOnMount = null
      wrapper.focus()
    }
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.target !== wrapper || e.altKey || e.ctrlKey || e.metaKey) return
      if (e.key === 'Enter' && !e.shiftKey && onOpen.current) {
        e.preventDefault()
        e.stopPropagation()
        onOpen.current()
        return
      }
      if (e.key === 'F2' && onRename.current) {
        e.preventDefault()
        e.stopPropagation()
        onRename.current()
        return
      }
      const arrow = ARROWS[e.key]
      if (!arrow) return
      e.preventDefault()
      e.stopPropagation()
      const moved = moveByKey(store.getState(), flowId, arrow, e.shiftKey ? 4 : 1, e)
      if (!moved) return
      const what = moved.count > 1 ? `${moved.count} nodes` : docId
      const { x, y } = moved.position
      // React Flow's own live region, with the position the node really has now.
      store.setState({
        ariaLiveMessage: `Moved ${what} ${arrow.word}. New position, x: ${x}, y: ${y}`,
      })
    }
    wrapper.addEventListener('keydown', onKeyDown)
    return () => wrapper.removeEventListener('keydown', onKeyDown)
  }, [box, store, flowId, docId, nameId])
}

/**
 * The last move sent per node: keys pressed faster than the document comes back start from
 * where the last press put the node, not from where it is still drawn.
 */
const sent = new Map<string, { from: XY; to: XY }>()
const baseOf = (n: FlowNode): XY => {
  const last = sent.get(n.id)
  return last && last.from.x === n.position.x && last.from.y === n.position.y ? last.to : n.position
}

/** Moves the node (and the rest of the selection, when it is selected) by grid steps. */
function moveByKey(
  s: ReactFlowState<FlowNode>,
  flowId: string,
  d: { x: number; y: number },
  factor: number,
  event: KeyboardEvent,
): { count: number; position: { x: number; y: number } } | null {
  const self = s.nodes.find((n) => n.id === flowId)
  if (!self) return null
  const movable = (n: FlowNode) => n.draggable ?? s.nodesDraggable
  const moving = self.selected
    ? s.nodes.filter((n) => n.selected && movable(n))
    : movable(self)
      ? [self]
      : []
  if (moving.length === 0) return null
  const step = (s.snapGrid[0] || 15) * factor
  const moved = moving.map((n) => {
    const from = baseOf(n)
    const position = { x: snap(from.x + d.x * step), y: snap(from.y + d.y * step) }
    sent.set(n.id, { from: n.position, to: position })
    return { ...n, position }
  })
  const node = moved.find((n) => n.id === flowId) ?? (moved[0] as FlowNode)
  // The drag's own end: the canvas turns it into one moveNodes edit, saved like a drag.
  s.onNodeDragStop?.(event as unknown as MouseEvent, node, moved)
  return { count: moved.length, position: node.position }
}
