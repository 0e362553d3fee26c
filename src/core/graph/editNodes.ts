import { END, START } from './constants'
import {
  fail,
  freeName,
  hasNode,
  isTarget,
  mapSame,
  nodeNameProblem,
  ok,
  patch,
  tidy,
} from './editCommon'
import type { EditResult, XY } from './editTypes'
import { rewireBranches, rewireEdges, rewireList, rewireRefs, type RefMap } from './editRefs'
import type { AnyNodeKind, BranchSpec, GraphSpec, NodeSpec } from './schema'

/** The code of a new node: a function that updates nothing. */
export const DEFAULT_NODE_CODE = '(state) => ({})'

const unknownNode = (doc: GraphSpec, id: string) => fail(doc, `There is no node \`${id}\`.`)

/** Whether `id` is free for a new node: no node and no state field has it. */
const isFreeId = (doc: GraphSpec) => (id: string) =>
  !hasNode(doc, id) && !doc.state.some((f) => f.name === id)

/** Appends a node; its id defaults to the first free of `node_1`, `node_2`… */
export function addNode(doc: GraphSpec, id?: string, code?: string, position?: XY): EditResult {
  if (id !== undefined) {
    const problem = nodeNameProblem(doc, id)
    if (problem) return fail(doc, problem)
  }
  const node: NodeSpec = {
    id: id ?? freeName('node', isFreeId(doc), true),
    code: code ?? DEFAULT_NODE_CODE,
    position: { x: position?.x ?? 0, y: position?.y ?? 0 },
  }
  return ok({ ...doc, nodes: [...doc.nodes, node] })
}

/**
 * Renames a node everywhere the document names it: edges (both ends, join sources),
 * branches (source, path targets), other nodes' `ends`, breakpoints. A list-form path map
 * that names the node becomes an object map from the old name, so the router still routes.
 * Code strings are not rewritten: code that returns the old name (a router without a path
 * map, `Command({ goto })`, `Send`) has to be edited by hand.
 */
export function renameNode(doc: GraphSpec, from: string, to: string): EditResult {
  if (!hasNode(doc, from)) return unknownNode(doc, from)
  if (to === from) return ok(doc)
  const problem = nodeNameProblem(doc, to, from)
  if (problem) return fail(doc, problem)
  const rewired = rewireRefs(doc, (id) => (id === from ? to : id))
  const nodes = rewired.nodes.map((n) => (n.id === from ? { ...n, id: to } : n))
  return ok({ ...rewired, nodes })
}

/**
 * Removes nodes and everything that names them: edges from or to them, their join sources
 * (a join left with one source becomes a plain edge, with none it goes), branches from them,
 * paths to them, `ends` entries and breakpoints.
 */
export function deleteNodes(doc: GraphSpec, ids: string[]): EditResult {
  const missing = ids.find((id) => !hasNode(doc, id))
  if (missing !== undefined) return unknownNode(doc, missing)
  if (ids.length === 0) return ok(doc)
  const gone = new Set(ids)
  const kept = { ...doc, nodes: doc.nodes.filter((n) => !gone.has(n.id)) }
  return ok(rewireRefs(kept, (id) => (gone.has(id) ? null : id)))
}

/** Moves nodes on the canvas; a node already where it is asked to be is left as it is. */
export function moveNodes(doc: GraphSpec, moves: { id: string; position: XY }[]): EditResult {
  const to = new Map<string, XY>()
  for (const m of moves) {
    if (!hasNode(doc, m.id)) return unknownNode(doc, m.id)
    if (!Number.isFinite(m.position.x) || !Number.isFinite(m.position.y))
      return fail(doc, `Node \`${m.id}\` cannot move to a position that is not a finite number.`)
    to.set(m.id, m.position)
  }
  const nodes = mapSame(doc.nodes, (n) => {
    const p = to.get(n.id)
    if (!p || (n.position?.x === p.x && n.position.y === p.y)) return n
    return { ...n, position: { x: p.x, y: p.y } }
  })
  return ok(patch(doc, { nodes }))
}

/** Applies `f` to node `id`, or refuses when there is none. */
function withNode(doc: GraphSpec, id: string, f: (n: NodeSpec) => NodeSpec | string): EditResult {
  const node = doc.nodes.find((n) => n.id === id)
  if (!node) return unknownNode(doc, id)
  const next = f(node)
  if (typeof next === 'string') return fail(doc, next)
  return ok(patch(doc, { nodes: mapSame(doc.nodes, (n) => (n === node ? next : n)) }))
}

/** Replaces a node's code (code that does not parse is allowed: validation reports it). */
export function setNodeCode(doc: GraphSpec, id: string, code: string): EditResult {
  return withNode(doc, id, (n) => patch(n, { code }))
}

/** Sets where a node's `Command({ goto })` may go (duplicates dropped; empty removes `ends`). */
export function setNodeEnds(doc: GraphSpec, id: string, ends: string[]): EditResult {
  const bad = ends.find((t) => t === START || !isTarget(doc, t))
  return withNode(doc, id, (n) => {
    if (bad !== undefined)
      return `Node \`${n.id}\` cannot go to ${bad === START ? 'START' : `unknown node \`${bad}\``}.`
    const next = [...new Set(ends)]
    const same = n.ends?.length === next.length && next.every((t, i) => n.ends?.[i] === t)
    if (same || (next.length === 0 && n.ends === undefined)) return n
    return patch(n, { ends: next.length > 0 ? next : undefined })
  })
}

/** Turns a static breakpoint on or off (`*` is every node); an emptied list is removed. */
export function setBreakpoint(
  doc: GraphSpec,
  node: string,
  when: 'before' | 'after',
  on: boolean,
): EditResult {
  if (node !== '*' && !hasNode(doc, node)) return unknownNode(doc, node)
  const key = when === 'before' ? 'interruptBefore' : 'interruptAfter'
  const list = doc[key]
  const has = list?.includes(node) ?? false
  if (has === on) return ok(doc)
  const next = on ? [...(list ?? []), node] : (list ?? []).filter((x) => x !== node)
  return ok(patch(doc, { [key]: tidy(list, next) }))
}

/** A usable id from a pasted one: reserved characters and names replaced. */
function pasteBase(id: string): string {
  const clean = id.replace(/[|:]/g, '_')
  return clean === '' || clean === START || clean === END ? 'node' : clean
}

/**
 * Adds copies of `nodes`, moved by `offset`. Each keeps its id when that is free, else gets
 * `id_copy`, `id_copy_2`… The given edges and branches are kept when they connect pasted
 * nodes (or lead to END), renamed to the new ids; anything touching START or a node that
 * was not pasted is dropped, so pasting never changes how the existing graph runs. `ends`
 * are filtered the same way. Code strings are not rewritten.
 */
export function paste(
  doc: GraphSpec,
  nodes: NodeSpec[],
  edges: GraphSpec['edges'],
  branches: BranchSpec[],
  offset: XY,
): EditResult {
  if (nodes.length === 0) return ok(doc)
  const taken = new Set([...doc.nodes.map((n) => n.id), ...doc.state.map((f) => f.name)])
  const ids = new Map<string, string>()
  const fresh = nodes.map((n) => {
    const base = pasteBase(n.id)
    const free = (id: string) => !taken.has(id)
    const id = free(base) ? base : freeName(`${base}_copy`, free)
    taken.add(id)
    if (!ids.has(n.id)) ids.set(n.id, id)
    return id
  })
  const map: RefMap = (id) => (id === END ? END : (ids.get(id) ?? null))
  const copies = nodes.map((n, i): NodeSpec => {
    const { ends, ...rest } = n
    const copy: NodeSpec = {
      ...rest,
      id: fresh[i] ?? n.id,
      position: { x: (n.position?.x ?? 0) + offset.x, y: (n.position?.y ?? 0) + offset.y },
    }
    const kept = ends && rewireList(ends, map)
    if (kept && kept.length > 0) copy.ends = kept
    return copy
  })
  const newEdges = rewireEdges(edges, map)
  const newBranches = rewireBranches(branches, map)
  return ok({
    ...doc,
    nodes: [...doc.nodes, ...copies],
    edges: [...doc.edges, ...newEdges],
    ...(newBranches.length > 0 ? { branches: [...(doc.branches ?? []), ...newBranches] } : {}),
  })
}

/** The keys that belong to a node's kind (everything but id, code, ends, defer, position). */
export const KIND_KEYS = [
  'model',
  'messagesField',
  'bindTools',
  'tools',
  'show',
  'writeTo',
] as const

/**
 * Makes node `id` a node of `kind` with these settings (the keys of KIND_KEYS; others are
 * ignored): the old kind's settings go, a code node keeps or gets its `code`. What the
 * settings must hold is the validator's business (problems list), not the edit's.
 */
export function setNodeKind(
  doc: GraphSpec,
  id: string,
  kind: AnyNodeKind,
  settings: Readonly<Record<string, unknown>>,
): EditResult {
  return withNode(doc, id, (n) => {
    const next: Record<string, unknown> = { ...n }
    delete next.kind
    for (const k of KIND_KEYS) delete next[k]
    if (kind !== 'code') next.kind = kind
    for (const k of KIND_KEYS) if (settings[k] !== undefined) next[k] = settings[k]
    if (kind === 'code' && typeof next.code !== 'string') next.code = DEFAULT_NODE_CODE
    if (kind !== 'code' && next.code === '') delete next.code
    return JSON.stringify(next) === JSON.stringify(n) ? n : (next as NodeSpec)
  })
}
