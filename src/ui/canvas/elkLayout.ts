import type { ElkNode } from 'elkjs/lib/elk-api'
import type { XY } from '../../core/graph/edits'
import { END_ID, LAYOUT_SPACING, NODE_H, NODE_W, START_ID, snap, type Direction } from './flowTypes'

/** A big layout that has not finished by then is stopped and reported as failed. */
export const ELK_TIMEOUT_MS = 120_000

/** What the layout worker is asked: one graph to lay out (one worker per request). */
export interface ElkLayoutRequest {
  graph: ElkNode
}

/**
 * What the layout worker answers: `started` once elk is loaded and has the graph (elk has no
 * progress callback of its own), then the laid-out graph or why not.
 */
export type ElkLayoutResponse =
  { kind: 'started' } | { kind: 'done'; graph: ElkNode } | { kind: 'failed'; message: string }

/**
 * What a big layout has got to, as far as it can be known: the graph `sent` to the worker,
 * elk `working` on it (loaded, laying out), `laid-out` (the answer is back, being applied).
 */
export type LayoutPhase = 'sent' | 'working' | 'laid-out'

/** How a caller follows and stops a layout. */
export interface LayoutControl {
  /** Aborting it stops the layout at once (the worker is terminated); the promise rejects. */
  signal?: AbortSignal
  onPhase?: (phase: LayoutPhase) => void
}

/** Lays out an elk graph somewhere (a worker in the app, elk itself in Node tests). */
export type RunElk = (graph: ElkNode, control?: LayoutControl) => Promise<ElkNode>

/** The rejection of a layout stopped by its caller: `name` is 'AbortError', nothing to show. */
export const layoutCancelled = (): Error =>
  Object.assign(new Error('the layout was cancelled'), { name: 'AbortError' })

/** Whether a layout's rejection is its caller's own Cancel. */
export const isLayoutCancelled = (e: unknown): boolean =>
  e instanceof Error && e.name === 'AbortError'

/**
 * Above this many nodes elk is handed ranks of our own (`acyclicRanks`): elk's own cycle
 * breaking and layering walk the graph recursively and ran out of stack in Chromium's worker on
 * the 5,000-node bench graph ("Maximum call stack size exceeded"), and network simplex layering
 * is most of its time on big graphs (2,000 nodes: about 27 s, 8 s with ranks given).
 */
export const ELK_GIVEN_RANKS_ABOVE = 1000

/**
 * Ranks for a directed graph of `count` nodes, without recursion (any size): loops are broken
 * depth first from node 0 and then from each unvisited node in order, following edges in
 * order, so an edge to a node still on the walk's path is a back edge; every other edge goes
 * down at least one rank, each node on the longest path to it (`rank`). `back[i]` says
 * whether `edges[i]` was turned back to break a loop.
 */
export function acyclicRanks(
  count: number,
  edges: readonly (readonly [number, number])[],
): { rank: Int32Array; back: boolean[] } {
  const out: number[][] = Array.from({ length: count }, () => [])
  edges.forEach(([a], i) => out[a]!.push(i))
  const NEW = 0
  const ON_PATH = 1
  const DONE = 2
  const mark = new Uint8Array(count)
  const back = edges.map(() => false)
  const finished: number[] = []
  // The walk's path: each node with the position of the next of its edges to follow.
  const path: number[] = []
  const next: number[] = []
  for (let root = 0; root < count; root++) {
    if (mark[root] !== NEW) continue
    mark[root] = ON_PATH
    path.push(root)
    next.push(0)
    while (path.length > 0) {
      const top = path.length - 1
      const v = path[top]!
      const k = next[top]!
      if (k < out[v]!.length) {
        next[top] = k + 1
        const e = out[v]![k]!
        const w = edges[e]![1]
        if (mark[w] === ON_PATH) back[e] = true
        else if (mark[w] === NEW) {
          mark[w] = ON_PATH
          path.push(w)
          next.push(0)
        }
      } else {
        mark[v] = DONE
        finished.push(v)
        path.pop()
        next.pop()
      }
    }
  }
  // Reverse finishing order is a topological order of the edges that were not turned back.
  const rank = new Int32Array(count)
  for (let i = finished.length - 1; i >= 0; i--) {
    const v = finished[i]!
    for (const e of out[v]!) {
      const w = edges[e]![1]
      if (!back[e] && w !== v && rank[w]! < rank[v]! + 1) rank[w] = rank[v]! + 1
    }
  }
  return { rank, back }
}

/**
 * The elk "layered" graph for `ids` (START first, END last) and `links`: one child per id,
 * named by its index so that no node name can clash with elk's own ids; START pinned to the
 * first rank and END to the last. Loops are broken depth first from START, so an edge back to
 * an earlier node is the one drawn backwards, and model order keeps the document's order
 * within a rank. Above `ELK_GIVEN_RANKS_ABOVE` nodes the loops are broken and the ranks found
 * here (`acyclicRanks`), handed to elk as positions it layers by, with the back edges turned.
 */
export function elkGraph(
  ids: readonly string[],
  links: readonly (readonly [string, string])[],
  direction: Direction,
): ElkNode {
  const index = new Map(ids.map((id, i) => [id, i]))
  const pairs: [number, number][] = []
  for (const [a, b] of links) {
    const source = index.get(a)
    const target = index.get(b)
    if (source !== undefined && target !== undefined && source !== target)
      pairs.push([source, target])
  }
  const given = ids.length - 2 > ELK_GIVEN_RANKS_ABOVE ? acyclicRanks(ids.length, pairs) : null
  const edges: NonNullable<ElkNode['edges']> = pairs.map(([a, b], i) => {
    const [source, target] = given?.back[i] ? [b, a] : [a, b]
    return { id: `e${i}`, sources: [String(source)], targets: [String(target)] }
  })
  const children: NonNullable<ElkNode['children']> = ids.map((id, i) => ({
    id: String(i),
    width: NODE_W,
    height: NODE_H,
    ...(id === START_ID || id === END_ID
      ? {
          layoutOptions: {
            'elk.layered.layering.layerConstraint': id === START_ID ? 'FIRST' : 'LAST',
          },
        }
      : {}),
  }))
  if (given) {
    // Interactive layering puts nodes whose extents along the direction overlap in one layer:
    // a rank's nodes side by side in document order, one rank after another, END last.
    let last = 0
    for (const r of given.rank) last = Math.max(last, r)
    given.rank[ids.length - 1] = last + 1
    const across = new Map<number, number>()
    children.forEach((c, i) => {
      const r = given.rank[i]!
      const k = across.get(r) ?? 0
      across.set(r, k + 1)
      const along = r * (NODE_H + NODE_W + LAYOUT_SPACING.rank)
      const side = k * (NODE_W + LAYOUT_SPACING.node)
      c.x = direction === 'LR' ? along : side
      c.y = direction === 'LR' ? side : along
    })
  }
  return {
    id: 'root',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': direction === 'LR' ? 'RIGHT' : 'DOWN',
      'elk.spacing.nodeNode': String(LAYOUT_SPACING.node),
      'elk.layered.spacing.nodeNodeBetweenLayers': String(LAYOUT_SPACING.rank),
      ...(given
        ? {
            // The edges elk gets have no loop left: greedy cycle breaking (no recursion) turns
            // none, and the layers are the ranks given.
            'elk.layered.cycleBreaking.strategy': 'GREEDY',
            'elk.layered.layering.strategy': 'INTERACTIVE',
          }
        : { 'elk.layered.cycleBreaking.strategy': 'DEPTH_FIRST' }),
      'elk.layered.considerModelOrder.strategy': 'NODES_AND_EDGES',
      // Only node positions are kept: cheap edge routing, and one crossing-minimisation pass
      // per layer sweep (crossing minimisation is most of the time; on the 1,000-node bench
      // graph thoroughness 7, the default, took about 10 s here, 2 about 6 s, 1 about 4 s).
      'elk.edgeRouting': 'POLYLINE',
      'elk.layered.thoroughness': '1',
      // elk finds connected components with a recursive walk: on a 5,000-node chain it ran out
      // of stack ("Maximum call stack size exceeded"). Laid out as one graph, it does not.
      'elk.separateConnectedComponents': 'false',
    },
    children,
    edges,
  }
}

/**
 * Top-left positions snapped to the grid, by id, from the graph elk laid out (`elkGraph` of
 * the same `ids`). Throws when elk left a node without a position: a bug, not user data.
 */
export function elkPositions(ids: readonly string[], laidOut: ElkNode): Map<string, XY> {
  const byIndex = new Map((laidOut.children ?? []).map((c) => [c.id, c]))
  const out = new Map<string, XY>()
  ids.forEach((id, i) => {
    const c = byIndex.get(String(i))
    if (!c || !Number.isFinite(c.x) || !Number.isFinite(c.y))
      throw new Error(`The layout returned no position for ${id}.`)
    out.set(id, { x: snap(c.x ?? 0), y: snap(c.y ?? 0) })
  })
  return out
}

/**
 * Runs elk in a fresh worker (`layout.worker.ts`, its own chunk: elk's 1.6 MB load only when a
 * big layout is asked for), terminated when it answers, fails, is cancelled (`control.signal`)
 * or takes longer than `timeoutMs`. Reports its phases to `control.onPhase`. Rejects with a
 * message fit to show, or with `layoutCancelled()`.
 */
export function runElkInWorker(
  graph: ElkNode,
  control: LayoutControl = {},
  timeoutMs: number = ELK_TIMEOUT_MS,
) {
  const { signal, onPhase } = control
  return new Promise<ElkNode>((resolve, reject) => {
    if (signal?.aborted) {
      reject(layoutCancelled())
      return
    }
    const worker = new Worker(new URL('./layout.worker.ts', import.meta.url), {
      type: 'module',
      name: 'layout',
    })
    const cancel = () => finish(layoutCancelled())
    const finish = (result: ElkNode | Error) => {
      clearTimeout(timer)
      signal?.removeEventListener('abort', cancel)
      worker.terminate()
      if (result instanceof Error) reject(result)
      else {
        onPhase?.('laid-out')
        resolve(result)
      }
    }
    const timer = setTimeout(
      () => finish(new Error(`it took longer than ${Math.round(timeoutMs / 1000)} s`)),
      timeoutMs,
    )
    signal?.addEventListener('abort', cancel)
    worker.onmessage = (e: MessageEvent<ElkLayoutResponse>) => {
      const m = e.data
      if (m.kind === 'started') onPhase?.('working')
      else finish(m.kind === 'done' ? m.graph : new Error(m.message))
    }
    worker.onmessageerror = () => finish(new Error('its answer could not be read'))
    worker.onerror = (e) => {
      e.preventDefault()
      finish(
        new Error(
          e.message
            ? `the layout worker failed: ${e.message}`
            : 'the layout worker could not start',
        ),
      )
    }
    worker.postMessage({ graph } satisfies ElkLayoutRequest)
    onPhase?.('sent')
  })
}
