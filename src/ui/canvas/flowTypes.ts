import type { Edge, Node } from '@xyflow/react'

/**
 * The canvas's element ids. Document nodes keep their own id; everything else is derived
 * from the document and contains `:` (a character node ids may not use), so the two never
 * collide in a valid document.
 *
 * Nodes:
 * - `<id>`             a document node (the first node with that id)
 * - `dup:<i>`          a later node repeating an id (`nodes[i]`, a DUPLICATE_NODE error)
 * - `__start__`, `__end__`  LangGraph's START and END
 * - `join:<i>`         the join marker of `edges[i]` (a list `from`)
 * - `any:<i>`          "any node": the target of `branches[i]` when it has no `paths`
 * - `missing:<name>`   a name an edge, path or `ends` points to that is not a node
 *
 * Edges:
 * - `e:<i>`            the fixed edge `edges[i]`
 * - `j:<i>:<source>`   one source of the join `edges[i]`, into its marker
 * - `j:<i>`            the join marker of `edges[i]` to its target
 * - `b:<i>:<key>`      path `key` of `branches[i]` (a list path's key is the node name)
 * - `b:<i>`            `branches[i]` without `paths`, to its "any node" marker
 * - `c:<node>:<target>` an entry of a node's `ends` (where its `Command({ goto })` may go)
 */
export type Direction = 'LR' | 'TB'

/** What a badge says about an element's problems. */
export type IssueBadge = { errors: number; warnings: number; title: string }

/** A document node. */
export type StepData = {
  kind: 'step'
  /** The document id (the flow id differs only for duplicates). */
  docId: string
  index: number
  /** What the node is: code, model, tools or human. */
  nodeKind: 'code' | 'model' | 'tools' | 'human' | 'graph'
  /** The code calls `interrupt(...)`: a human-in-the-loop node. */
  hitl: boolean
  /** Has `ends`: it may return `Command({ goto })`. */
  command: boolean
  defer: boolean
  /** A conditional edge leaves it. */
  branch: boolean
  /** Breakpoints: the run pauses before / after the node (its own, or `"*"`). */
  pauseBefore: boolean
  pauseAfter: boolean
  issues?: IssueBadge
  /** Graph nodes: the subgraph they run, and its nodes (null: not a subgraph of this level's). */
  subgraph?: { name: string; nodes: string[] | null }
}

/** START or END. */
export type TerminalData = { kind: 'start' | 'end'; issues?: IssueBadge }

/** A join marker, an "any node" marker or a missing node. */
export type MarkerData = { kind: 'join' | 'any' | 'missing'; label: string; issues?: IssueBadge }

export type StepFlowNode = Node<StepData, 'step'>
export type TerminalFlowNode = Node<TerminalData, 'terminal'>
export type MarkerFlowNode = Node<MarkerData, 'marker'>
export type FlowNode = StepFlowNode | TerminalFlowNode | MarkerFlowNode

export type EdgeKind = 'fixed' | 'branch' | 'any' | 'ends' | 'join-in' | 'join-out'
export type GraphEdgeData = {
  kind: EdgeKind
  label?: string
  /** The tooltip, when it says more than the accessible name (a join: it waits for all). */
  title?: string
  issues?: IssueBadge
  // An edge's route (offset, detour) is not here but in the canvas's route store
  // (`edgeContext.ts`), so a drag does not remake the edges.
}
export type FlowEdge = Edge<GraphEdgeData, 'graph'>

/** The derived picture of a document. */
export interface Flow {
  nodes: FlowNode[]
  edges: FlowEdge[]
}

/** The canvas selection: flow node ids and edge ids as above. */
export interface CanvasSelection {
  nodes: string[]
  edges: string[]
}

export const START_ID = '__start__'
export const END_ID = '__end__'

/** The size of START, END and every document node (canvas.css matches), for layout and handles. */
export const NODE_W = 180
export const NODE_H = 45
/** A handle's size (canvas.css matches). */
export const HANDLE = 9
export const MARKER = 18
export const GRID = 15

/** Space between ranks and between the nodes of one rank, for dagre and elk alike. */
export const LAYOUT_SPACING = { rank: 90, node: 40 } as const

export const joinNodeId = (i: number) => `join:${i}`
export const anyNodeId = (i: number) => `any:${i}`
export const missingNodeId = (name: string) => `missing:${name}`
export const fixedEdgeId = (i: number) => `e:${i}`
export const joinInEdgeId = (i: number, source: string) => `j:${i}:${source}`
export const joinOutEdgeId = (i: number) => `j:${i}`
export const pathEdgeId = (i: number, key: string) => `b:${i}:${key}`
export const anyEdgeId = (i: number) => `b:${i}`
export const endsEdgeId = (node: string, target: string) => `c:${node}:${target}`

/** An edge id taken apart (the inverse of the builders above). */
export type ParsedEdgeId =
  | { kind: 'fixed'; index: number }
  | { kind: 'join'; index: number; source?: string }
  | { kind: 'path'; index: number; key: string }
  | { kind: 'any'; index: number }
  | { kind: 'ends'; node: string; target: string }

/** Parses an edge id; `null` for anything else. */
export function parseEdgeId(id: string): ParsedEdgeId | null {
  const m = /^([ejbc]):([^:]*)(?::(.*))?$/s.exec(id)
  if (!m) return null
  const [, tag, a = '', rest] = m
  const index = Number(a)
  const isIndex = /^\d+$/.test(a)
  switch (tag) {
    case 'e':
      return isIndex && rest === undefined ? { kind: 'fixed', index } : null
    case 'j':
      if (!isIndex) return null
      return rest === undefined ? { kind: 'join', index } : { kind: 'join', index, source: rest }
    case 'b':
      if (!isIndex) return null
      return rest === undefined ? { kind: 'any', index } : { kind: 'path', index, key: rest }
    case 'c':
      return rest === undefined ? null : { kind: 'ends', node: a, target: rest }
    default:
      return null
  }
}

/** A join marker's edge index, or `null`. */
export function parseJoinNodeId(id: string): number | null {
  const m = /^join:(\d+)$/.exec(id)
  return m ? Number(m[1]) : null
}

/** Snaps a coordinate to the 15 px grid. */
export const snap = (v: number) => Math.round(v / GRID) * GRID
