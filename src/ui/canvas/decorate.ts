import type { XY } from '../../core/graph/edits'
import type { GraphIssue } from '../../core/graph/issues'
import type { GraphSpec } from '../../core/graph/schema'
import type { Direction, Flow, FlowEdge, FlowNode } from './flowTypes'
import { toFlow, type FlowMemo } from './toFlow'

/** Equality of plain JSON-like values (the derived nodes and edges are only that). */
export function isSameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  const ka = Object.keys(a)
  if (ka.length !== Object.keys(b).length) return false
  const ra = a as Record<string, unknown>
  const rb = b as Record<string, unknown>
  return ka.every((k) => k in rb && isSameValue(ra[k], rb[k]))
}

/** `next` with every element equal to one in `prev` (by id) replaced by that element. */
export function keepIdentity<T extends { id: string }>(prev: readonly T[], next: T[]): T[] {
  if (prev.length === 0) return next
  const byId = new Map(prev.map((p) => [p.id, p]))
  let same = prev.length === next.length
  const out = next.map((n, i) => {
    const p = byId.get(n.id)
    const kept = p !== undefined && isSameValue(p, n) ? p : n
    if (kept !== prev[i]) same = false
    return kept
  })
  return same ? (prev as T[]) : out
}

/**
 * `toFlow` that returns the previous nodes and edges where nothing changed, so moving one
 * node re-renders one node (React Flow compares user nodes by identity).
 */
export function createFlowCache() {
  let last: Flow = { nodes: [], edges: [] }
  // Elements by the document node or edge they show: unchanged ones are not made again.
  const memo: FlowMemo = new WeakMap()
  return {
    derive(doc: GraphSpec, issues: readonly GraphIssue[], direction: Direction): Flow {
      const next = toFlow(doc, issues, { direction, memo })
      const nodes = keepIdentity(last.nodes, next.nodes)
      const edges = keepIdentity(last.edges, next.edges)
      if (nodes !== last.nodes || edges !== last.edges) last = { nodes, edges }
      return last
    },
  }
}

const NO_EDGES: ReadonlySet<string> = new Set()

/** A node's measured size, kept so a new node object is not measured again. */
export interface Size {
  width: number
  height: number
}

interface NodeInputs {
  selected: boolean
  position: XY | undefined
  size: Size | undefined
  out: FlowNode
}

/**
 * Adds what is not in the document to the derived elements: selection, the position during
 * a drag, the measured size. A node or edge whose inputs did not change keeps its object.
 */
export function createDecorator() {
  const nodeCache = new WeakMap<FlowNode, NodeInputs>()
  const edgeCache = new WeakMap<
    FlowEdge,
    {
      selected: boolean
      fired: boolean
      still: boolean
      out: FlowEdge
    }
  >()
  const decorate = (
    node: FlowNode,
    selected: ReadonlySet<string>,
    drag: ReadonlyMap<string, XY> | null,
    sizes: ReadonlyMap<string, Size>,
  ): FlowNode => {
    const inputs = {
      selected: selected.has(node.id),
      position: drag?.get(node.id),
      size: sizes.get(node.id),
    }
    const hit = nodeCache.get(node)
    if (
      hit &&
      hit.selected === inputs.selected &&
      hit.position === inputs.position &&
      hit.size === inputs.size
    ) {
      return hit.out
    }
    const out = {
      ...node,
      selected: inputs.selected,
      ...(inputs.position ? { position: inputs.position } : {}),
      ...(inputs.size ? { measured: inputs.size } : {}),
    } as FlowNode
    nodeCache.set(node, { ...inputs, out })
    return out
  }
  // The last answer: a drag frame changes only `drag`, a click only `selected`, so only the
  // nodes dragged, or selected or unselected, are redone (a 5,000-node graph is not walked).
  let last: {
    base: readonly FlowNode[]
    selected: ReadonlySet<string>
    sizes: ReadonlyMap<string, Size>
    drag: ReadonlyMap<string, XY> | null
    out: FlowNode[]
    index: Map<string, number> | null
  } | null = null
  return {
    nodes(
      base: readonly FlowNode[],
      selected: ReadonlySet<string>,
      drag: ReadonlyMap<string, XY> | null,
      sizes: ReadonlyMap<string, Size>,
    ): FlowNode[] {
      if (last && last.base === base && last.sizes === sizes) {
        if (drag === last.drag && selected === last.selected) return last.out
        const redo = new Set<string>()
        if (drag !== last.drag) {
          for (const id of last.drag?.keys() ?? []) redo.add(id)
          for (const id of drag?.keys() ?? []) redo.add(id)
        }
        if (selected !== last.selected) {
          for (const id of last.selected) if (!selected.has(id)) redo.add(id)
          for (const id of selected) if (!last.selected.has(id)) redo.add(id)
        }
        const index = (last.index ??= new Map(base.map((n, i) => [n.id, i])))
        const out = last.out.slice()
        for (const id of redo) {
          const i = index.get(id)
          const node = i === undefined ? undefined : base[i]
          if (i !== undefined && node) out[i] = decorate(node, selected, drag, sizes)
        }
        last = { ...last, selected, drag, out }
        return out
      }
      const out = base.map((node) => decorate(node, selected, drag, sizes))
      last = { base, selected, sizes, drag, out, index: null }
      return out
    },
    /**
     * `fired`: edges that fired in the shown super-step, drawn animated unless `still`.
     * (Routes are not here: see `edgeContext.ts`.)
     */
    edges(
      base: readonly FlowEdge[],
      selected: ReadonlySet<string>,
      fired: ReadonlySet<string> = NO_EDGES,
      still = false,
    ): FlowEdge[] {
      return base.map((edge) => {
        const isSelected = selected.has(edge.id)
        const isFired = fired.has(edge.id)
        const hit = edgeCache.get(edge)
        // Whether a run is going matters only to the edges that fired.
        const same = hit && hit.selected === isSelected && hit.fired === isFired
        if (same && (!isFired || hit.still === still)) return hit.out
        const out = isFired
          ? {
              ...edge,
              selected: isSelected,
              animated: !still,
              className: `${edge.className ?? ''} ss-fired`,
            }
          : { ...edge, selected: isSelected }
        edgeCache.set(edge, { selected: isSelected, fired: isFired, still, out })
        return out
      })
    },
  }
}
