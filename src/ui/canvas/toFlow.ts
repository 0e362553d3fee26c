import { Position } from '@xyflow/react'
import type { XY } from '../../core/graph/edits'
import type { GraphIssue } from '../../core/graph/issues'
import type { GraphSpec } from '../../core/graph/schema'
import { branchTargets } from '../../core/graph/wiring'
import { graphTools } from '../../store/graphTools'
import { showBidiControls } from '../bidi'
import {
  END_ID,
  NODE_H,
  NODE_W,
  START_ID,
  anyEdgeId,
  anyNodeId,
  endsEdgeId,
  fixedEdgeId,
  joinInEdgeId,
  joinNodeId,
  joinOutEdgeId,
  missingNodeId,
  pathEdgeId,
  snap,
  type Direction,
  type EdgeKind,
  type Flow,
  type FlowEdge,
  type FlowNode,
  type GraphEdgeData,
  type IssueBadge,
} from './flowTypes'
import { boxOf, dataNodeId, joinMarkerPosition, marker } from './flowParts'
import { docNodeFlowIds, issueBadges } from './issueTargets'
import { layoutPositions } from './layout'

/**
 * The code calls `interrupt(...)`: the node pauses for a human. Parsed, not matched, and
 * remembered per code by `usesInterrupt` (deriving a 1,000-node graph on every edit).
 */
export const callsInterrupt = (code: string): boolean => graphTools().usesInterrupt(code)

/** Options of `toFlow`. */
export interface ToFlowOptions {
  /** Handle sides and the layout of nodes without a position; default left to right. */
  direction?: Direction
  /**
   * Elements made before, by the document node or edge they show: one whose other inputs are
   * the same comes back as the very same object, so an edit of one node of a big graph makes
   * one new element (`createFlowCache` keeps one per canvas).
   */
  memo?: FlowMemo
}

/** The elements `toFlow` made, by document item (see `ToFlowOptions.memo`). */
export type FlowMemo = WeakMap<object, { key: string; element: FlowNode | FlowEdge }>

/** What, besides the document item itself, an element was made from. */
const memoKey = (...parts: unknown[]): string =>
  parts.map((p) => (typeof p === 'object' && p !== null ? JSON.stringify(p) : String(p))).join('\n')

const ARROW = { type: 'arrowclosed', width: 16, height: 16 } as const

/**
 * The React Flow picture of a document, pure and deterministic: START and END, one node per
 * document node at its `position` (nodes without one are laid out, see `layoutPositions`),
 * fixed edges, one dashed edge per branch path (a branch without `paths` points to an "any
 * node" marker), dotted `ends` edges, joins through a small marker, and issue badges. Names
 * that are not nodes get a "missing" node so the error shows where the edge points. Element
 * ids are described in `flowTypes.ts`.
 */
export function toFlow(
  doc: GraphSpec,
  issues: readonly GraphIssue[],
  options: ToFlowOptions = {},
): Flow {
  const direction = options.direction ?? 'LR'
  const lr = direction === 'LR'
  const sourcePosition = lr ? Position.Right : Position.Bottom
  const targetPosition = lr ? Position.Left : Position.Top

  const nodeFlowIds = docNodeFlowIds(doc)
  const firstFlowId = new Map<string, string>()
  doc.nodes.forEach((n, i) => {
    if (!firstFlowId.has(n.id) && nodeFlowIds[i] === n.id) firstFlowId.set(n.id, n.id)
  })
  const badges = issueBadges(doc, issues, nodeFlowIds)
  const issuesOf = (id: string): { issues?: IssueBadge } => {
    const badge = badges.get(id)
    return badge ? { issues: badge } : {}
  }

  const branchSources = new Set(doc.branches?.map((b) => b.from))
  const laidOut = doc.nodes.some((n) => !n.position) ? layoutPositions(doc, direction) : null
  const pos = new Map<string, XY>()
  const nodes: FlowNode[] = []
  const memo = options.memo
  doc.nodes.forEach((n, i) => {
    const id = nodeFlowIds[i] as string
    const position = n.position ?? laidOut?.get(n.id) ?? { x: 0, y: 0 }
    pos.set(id, position)
    const pauseBefore = breaksOn(doc.interruptBefore, n.id)
    const pauseAfter = breaksOn(doc.interruptAfter, n.id)
    const branch = branchSources.has(n.id)
    const subgraph = n.kind === 'graph' ? subgraphPreview(doc, n.graph ?? '') : undefined
    const key = memoKey(
      subgraph && `${subgraph.name}\u0000${subgraph.nodes?.join('\u0000') ?? '-'}`,
      i,
      id,
      position.x,
      position.y,
      lr,
      branch,
      pauseBefore,
      pauseAfter,
      badges.get(id),
    )
    const hit = memo?.get(n)
    if (hit?.key === key) {
      nodes.push(hit.element as FlowNode)
      return
    }
    nodes.push({
      id,
      type: 'step',
      position: { x: position.x, y: position.y },
      data: {
        kind: 'step',
        docId: n.id,
        index: i,
        nodeKind: n.kind ?? 'code',
        hitl: n.kind === 'human' || callsInterrupt(n.code ?? ''),
        command: (n.ends?.length ?? 0) > 0,
        defer: n.defer === true,
        branch,
        pauseBefore,
        pauseAfter,
        ...issuesOf(id),
        ...(subgraph && { subgraph }),
      },
      ariaLabel: `Node ${showBidiControls(n.id)}`,
      ...boxOf(lr),
      domAttributes: dataNodeId(id),
      sourcePosition,
      targetPosition,
    })
    memo?.set(n, { key, element: nodes[nodes.length - 1] as FlowNode })
  })

  // START and END sit before the first and after the last node, level with their neighbours.
  const points = [...pos.values()]
  const along = (p: XY) => (lr ? p.x : p.y)
  const min = points.length ? Math.min(...points.map(along)) : 0
  const max = points.length ? Math.max(...points.map(along)) : 0
  const step = (lr ? NODE_W : NODE_H) + 90
  const neighbours = (end: 'from' | 'to', terminal: string) =>
    doc.edges.flatMap((e) =>
      end === 'to' ? (e.from === terminal ? [e.to] : []) : e.to === terminal ? [e.from].flat() : [],
    )
  const level = (ids: string[]) => {
    const ps = ids.flatMap((id) => {
      const p = pos.get(firstFlowId.get(id) ?? '')
      return p ? [lr ? p.y : p.x] : []
    })
    if (ps.length) return snap(ps.reduce((a, b) => a + b, 0) / ps.length)
    return points.length ? Math.min(...points.map((p) => (lr ? p.y : p.x))) : 0
  }
  const endTargets = [
    ...neighbours('from', END_ID),
    ...(doc.branches ?? []).flatMap((b) =>
      branchTargets(b.paths).some(([, t]) => t === END_ID) ? [b.from] : [],
    ),
  ]
  const place = (a: number, b: number): XY => (lr ? { x: a, y: b } : { x: b, y: a })
  pos.set(START_ID, place(points.length ? snap(min - step) : 0, level(neighbours('to', START_ID))))
  pos.set(END_ID, place(points.length ? snap(max + step) : step * 2, level(endTargets)))
  for (const [id, kind] of [
    [START_ID, 'start'],
    [END_ID, 'end'],
  ] as const) {
    nodes.push({
      id,
      type: 'terminal',
      position: pos.get(id) as XY,
      data: { kind, ...issuesOf(id) },
      ariaLabel: kind === 'start' ? 'START' : 'END',
      domAttributes: dataNodeId(id),
      deletable: false,
      draggable: false,
      sourcePosition,
      targetPosition,
      ...boxOf(lr),
    })
  }

  const offset = (from: XY, a: number, b: number): XY =>
    place(along(from) + a, (lr ? from.y : from.x) + b)
  const missing = (name: string, near: string | undefined, before: boolean): string => {
    const id = missingNodeId(name)
    if (pos.has(id)) return id
    const p = offset(pos.get(near ?? '') ?? { x: 0, y: 0 }, before ? -step : step, 60)
    pos.set(id, p)
    nodes.push(marker(id, 'missing', name, p, `Missing node ${name}`, issuesOf(id)))
    return id
  }
  const resolve = (name: string, near: string | undefined, before: boolean): string =>
    name === START_ID || name === END_ID
      ? name
      : (firstFlowId.get(name) ?? missing(name, near, before))

  const edges: FlowEdge[] = []
  const edge = (
    id: string,
    source: string,
    target: string,
    kind: EdgeKind,
    aria: string,
    label?: string,
    title?: string,
  ) => {
    // The tooltip names the edge as its accessible name does, or says more (a join).
    const data: GraphEdgeData = { kind, title: showBidiControls(title ?? aria), ...issuesOf(id) }
    if (label !== undefined) data.label = label
    edges.push({
      id,
      type: 'graph',
      source,
      target,
      data,
      ariaLabel: showBidiControls(aria),
      ...(title === undefined ? {} : { domAttributes: describedAs(title) }),
      className: `ss-edge ss-edge-${kind}`,
      ...(kind === 'join-in' ? {} : { markerEnd: ARROW }),
    })
  }

  doc.edges.forEach((e, i) => {
    if (!Array.isArray(e.from)) {
      const source = resolve(e.from, firstFlowId.get(e.to), true)
      const target = resolve(e.to, source, false)
      const id = fixedEdgeId(i)
      const key = memoKey(i, source, target, badges.get(id))
      const hit = memo?.get(e)
      if (hit?.key === key) {
        edges.push(hit.element as FlowEdge)
        return
      }
      edge(id, source, target, 'fixed', `Edge ${shownName(e.from)} → ${shownName(e.to)}`)
      memo?.set(e, { key, element: edges[edges.length - 1] as FlowEdge })
      return
    }
    const sources = [...new Set(e.from)].map(
      (s) => [s, resolve(s, firstFlowId.get(e.to), true)] as const,
    )
    const target = resolve(e.to, sources[0]?.[1], false)
    const p = joinMarkerPosition(
      sources.flatMap(([, id]) => pos.get(id) ?? []),
      pos.get(target),
      lr,
    )
    const joinId = joinNodeId(i)
    pos.set(joinId, p)
    const to = shownName(e.to)
    const says = joinTitle(e.from, e.to)
    const joinMarker = marker(joinId, 'join', says, p, `Join → ${to}`, issuesOf(joinId), true)
    joinMarker.domAttributes = { ...joinMarker.domAttributes, ...describedAs(says) }
    nodes.push(joinMarker)
    for (const [name, id] of sources) {
      const aria = `Join source ${shownName(name)} → ${to}`
      edge(joinInEdgeId(i, name), id, joinId, 'join-in', aria, undefined, says)
    }
    const aria = `Join [${e.from.map(shownName).join(', ')}] → ${to}`
    edge(joinOutEdgeId(i), joinId, target, 'join-out', aria, undefined, says)
  })

  doc.branches?.forEach((b, i) => {
    const source = resolve(b.from, undefined, true)
    if (!b.paths) {
      const anyId = anyNodeId(i)
      const p = offset(pos.get(source) ?? { x: 0, y: 0 }, step, -60)
      pos.set(anyId, p)
      nodes.push(marker(anyId, 'any', 'any node', p, 'Any node', issuesOf(anyId)))
      edge(anyEdgeId(i), source, anyId, 'any', `Path any: ${shownName(b.from)} → any node`, 'any')
      return
    }
    const seen = new Set<string>()
    for (const [key, to] of branchTargets(b.paths)) {
      if (seen.has(key)) continue
      seen.add(key)
      edge(
        pathEdgeId(i, key),
        source,
        resolve(to, source, false),
        'branch',
        `Path ${shownName(key)}: ${shownName(b.from)} → ${shownName(to)}`,
        shownName(key),
      )
    }
  })

  doc.nodes.forEach((n, i) => {
    const source = nodeFlowIds[i] as string
    for (const to of new Set(n.ends ?? [])) {
      edge(
        endsEdgeId(source, to),
        source,
        resolve(to, source, false),
        'ends',
        `Command goto: ${shownName(n.id)} → ${shownName(to)}`,
      )
    }
  })

  return { nodes, edges }
}

/** A node name as people read it: LangGraph's `__start__` and `__end__` as START and END. */
export const shownName = (id: string): string =>
  id === START_ID ? 'START' : id === END_ID ? 'END' : id

const listed = (names: readonly string[]): string =>
  names.length <= 1
    ? (names[0] ?? '')
    : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1] ?? ''}`

/** What a join does, for its tooltip and description: it waits for all of its sources. */
export function joinTitle(from: readonly string[], to: string): string {
  const sources = [...new Set(from)].map(shownName)
  return `Join: ${shownName(to)} runs once ${listed(sources)} have all finished (waits for all)`
}

/** `aria-description` on an element (React Flow's `domAttributes` type lacks the attribute). */
function describedAs(text: string): FlowEdge['domAttributes'] {
  return { 'aria-description': showBidiControls(text) } as FlowEdge['domAttributes']
}

export const breaksOn = (list: readonly string[] | undefined, id: string): boolean =>
  list?.includes('*') === true || list?.includes(id) === true

/** What a graph node's preview shows: its subgraph's node ids (null: not found at this level). */
function subgraphPreview(doc: GraphSpec, name: string): { name: string; nodes: string[] | null } {
  const sub = Object.hasOwn(doc.subgraphs ?? {}, name) ? doc.subgraphs?.[name] : undefined
  return { name, nodes: sub ? sub.nodes.map((n) => n.id) : null }
}
