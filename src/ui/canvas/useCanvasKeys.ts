import { useEffect, useRef, type RefObject } from 'react'
import type { GraphEdit } from '../../core/graph/edits'
import { graphTools } from '../../store/graphTools'
import type { GraphSpec } from '../../core/graph/schema'
import { isTyping } from '../isTyping'
import type { CanvasSelection } from './flowTypes'
import {
  addNodeEdit,
  copySelection,
  deletionEdit,
  pasteEdit,
  type CanvasClipboard,
} from './interactions'

/** What the keyboard needs to read at the time of the key press. */
export interface CanvasKeyState {
  doc: GraphSpec
  selection: CanvasSelection
  onEdit(edit: GraphEdit): void
  onSelect(selection: CanvasSelection): void
  onOpenSubgraph?: (name: string) => void
}

/**
 * Delete/Backspace, Ctrl/Cmd+C, Ctrl/Cmd+V, N (add a node) and Escape for the canvas. They act when focus is
 * in the canvas, or when the last pointer press was in it (a press on the pane does not move
 * focus), never while typing in a field.
 */
export function useCanvasKeys(
  root: RefObject<HTMLElement | null>,
  state: RefObject<CanvasKeyState>,
) {
  const clipboard = useRef<CanvasClipboard | null>(null)
  useEffect(() => {
    let active = false
    const onPointerDown = (e: PointerEvent) => {
      active = !!root.current && e.target instanceof Node && root.current.contains(e.target)
    }
    const onKeyDown = (e: KeyboardEvent) => {
      const el = root.current
      if (!el || isTyping(e.target) || e.defaultPrevented) return
      const focusInside =
        document.activeElement instanceof Node && el.contains(document.activeElement)
      const focusFree = document.activeElement === document.body || document.activeElement === null
      if (!focusInside && !(active && focusFree)) return
      const { doc, selection, onEdit, onSelect } = state.current
      const mod = e.ctrlKey || e.metaKey
      if (e.key === 'Delete' || e.key === 'Backspace') {
        const edit = deletionEdit(doc, selection)
        if (!edit) return
        e.preventDefault()
        onEdit(edit)
        onSelect({ nodes: [], edges: [] })
      } else if (mod && e.key.toLowerCase() === 'c') {
        const clip = copySelection(doc, selection)
        if (clip) clipboard.current = clip
      } else if (mod && e.key.toLowerCase() === 'v') {
        if (!clipboard.current) return
        e.preventDefault()
        const edit = pasteEdit(clipboard.current)
        // The copy is selected, as in any editor: its ids are the ones the paste makes.
        const pasted = graphTools().applyEdit(doc, edit)
        onEdit(edit)
        if (pasted.ok) {
          const before = new Set(doc.nodes.map((n) => n.id))
          onSelect({
            nodes: pasted.doc.nodes.map((n) => n.id).filter((id) => !before.has(id)),
            edges: [],
          })
        }
      } else if (!mod && !e.altKey && e.key.toLowerCase() === 'n') {
        // N adds a node below the others (the toolbar adds in view, a double-click where you point).
        e.preventDefault()
        const ys = doc.nodes.map((n) => n.position?.y ?? 0)
        const xs = doc.nodes.map((n) => n.position?.x ?? 0)
        const at = ys.length ? { x: Math.min(...xs), y: Math.max(...ys) + 90 } : { x: 200, y: 0 }
        onEdit(addNodeEdit(doc, at))
      } else if (e.key === 'Escape' && (selection.nodes.length || selection.edges.length)) {
        onSelect({ nodes: [], edges: [] })
      }
    }
    document.addEventListener('pointerdown', onPointerDown, true)
    document.addEventListener('keydown', onKeyDown)
    return () => {
      document.removeEventListener('pointerdown', onPointerDown, true)
      document.removeEventListener('keydown', onKeyDown)
    }
  }, [root, state])
}
