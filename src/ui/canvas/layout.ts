import type { GraphEdit, XY } from '../../core/graph/edits'
import type { GraphSpec } from '../../core/graph/schema'
import { branchTargets } from '../../core/graph/wiring'
import { loadOnce } from '../../lib/loadOnce'
import type { LayoutControl, RunElk } from './elkLayout'
import type * as DagreModule from './dagreLayout'
import { END_ID, LAYOUT_SPACING, NODE_H, NODE_W, START_ID, type Direction } from './flowTypes'

type Dagre = typeof DagreModule

/** dagre, once loaded: it is a chunk of its own, fetched when a graph first needs it. */
let dagre: Dagre | null = null
/** The last fetch failed (offline): nodes without a position go on a grid meanwhile. */
let dagreFailed = false

/**
 * Fetches dagre (once). Resolves to null when the fetch fails; the next call tries again
 * (Auto layout then says so), and until one succeeds `layoutPositions` uses a grid.
 */
export function loadDagre(): Promise<Dagre | null> {
  return dagre ? Promise.resolve(dagre) : fetchDagre()
}

const fetchDagre = loadOnce(
  async () => (dagre = await import('./dagreLayout')),
  () => {
    dagreFailed = true
    return null
  },
)

/**
 * elk's side of a big layout (the graph it is given, the positions it gives back, its worker):
 * a chunk of its own, fetched by the first big Auto layout. Null when the fetch failed; the next
 * call tries again.
 */
const loadElk = loadOnce(
  () => import('./elkLayout'),
  () => null,
)

/** Hands over dagre imported by other means (tests, the canvas test page). */
export function provideDagre(given: Dagre): void {
  dagre = given
}

/**
 * Whether `layoutPositions` can place this graph now: every node has its position (no layout
 * needed), the graph is big (a grid), or dagre is loaded. Otherwise `loadDagre()` first.
 */
export function canLayOut(doc: GraphSpec): boolean {
  return dagre !== null || dagreFailed || doc.nodes.every((n) => n.position) || layoutInput(doc).big
}

/**
 * Above this many nodes "Auto layout" uses elkjs in a worker: dagre takes seconds on a
 * 1,000-node graph and would block the main thread (NOTES.md).
 */
export const DAGRE_MAX_NODES = 150

/** Why a finished layout is dropped: the document changed while elk was working. */
export const LAYOUT_OUTDATED = 'the graph changed while it was being laid out; try again'

/** The `[from, to]` pairs a layout should respect: edges, join sources, branch paths, `ends`. */
export function layoutLinks(doc: GraphSpec): [string, string][] {
  const links: [string, string][] = []
  for (const e of doc.edges) for (const s of [e.from].flat()) links.push([s, e.to])
  for (const b of doc.branches ?? [])
    for (const [, t] of branchTargets(b.paths)) links.push([b.from, t])
  for (const n of doc.nodes) for (const t of n.ends ?? []) links.push([n.id, t])
  return links
}

/** What a layout places: START, the node ids once each, END; and the links among them. */
function layoutInput(doc: GraphSpec) {
  const ids = [START_ID, ...new Set(doc.nodes.map((n) => n.id)), END_ID]
  const known = new Set(ids)
  const links = layoutLinks(doc).filter(([a, b]) => known.has(a) && known.has(b) && a !== b)
  return { ids, links, big: ids.length - 2 > DAGRE_MAX_NODES }
}

/**
 * Top-left positions, snapped to the grid, for every document node id and for START and END,
 * computed at once (the canvas places nodes that have no position with it): dagre for small
 * graphs; above `DAGRE_MAX_NODES` a plain grid in document order, a placeholder until the user
 * asks for "Auto layout" (`autoLayoutEdit`), which lays big graphs out with elk in a worker.
 */
export function layoutPositions(doc: GraphSpec, direction: Direction): Map<string, XY> {
  const { ids, links, big } = layoutInput(doc)
  return big || (!dagre && dagreFailed)
    ? gridPositions(ids, direction)
    : dagreLayout(ids, links, direction)
}

/** dagre's layout; a bug (thrown) before it is loaded (see `canLayOut`). */
function dagreLayout(ids: string[], links: [string, string][], direction: Direction) {
  if (!dagre) throw new Error('dagre was used before loadDagre() resolved.')
  return dagre.dagreLayout(ids, links, direction)
}

/** Rows of 25 along the direction, in document order: no layout, only no overlap. */
function gridPositions(ids: string[], direction: Direction): Map<string, XY> {
  const per = 25
  const along = (direction === 'LR' ? NODE_W : NODE_H) + LAYOUT_SPACING.rank
  const across = (direction === 'LR' ? NODE_H : NODE_W) + LAYOUT_SPACING.node
  const out = new Map<string, XY>()
  ids.forEach((id, i) => {
    const a = (i % per) * along
    const b = Math.floor(i / per) * across
    out.set(id, direction === 'LR' ? { x: a, y: b } : { x: b, y: a })
  })
  return out
}

/**
 * "Auto layout": every document node moved, as one `moveNodes` edit (one undo step). Small
 * graphs with dagre; big ones with elk through `runElk` (its worker when not given), which
 * reports its phases to `control` and stops when its signal aborts. Rejects with a message fit
 * to show when elk fails (or with `layoutCancelled()`); the document is left alone then.
 */
export async function autoLayoutEdit(
  doc: GraphSpec,
  direction: Direction,
  runElk?: RunElk,
  control: LayoutControl = {},
): Promise<GraphEdit> {
  const { ids, links, big } = layoutInput(doc)
  const loaded = big ? await loadElk() : await loadDagre()
  if (!loaded) throw new Error('the layout could not be loaded (offline?); try again')
  if ('dagreLayout' in loaded) return movesEdit(doc, loaded.dagreLayout(ids, links, direction))
  const laidOut = await (runElk ?? loaded.runElkInWorker)(
    loaded.elkGraph(ids, links, direction),
    control,
  )
  return movesEdit(doc, loaded.elkPositions(ids, laidOut))
}

function movesEdit(doc: GraphSpec, positions: ReadonlyMap<string, XY>): GraphEdit {
  const moves: { id: string; position: XY }[] = []
  for (const id of new Set(doc.nodes.map((n) => n.id))) {
    const position = positions.get(id)
    if (position) moves.push({ id, position })
  }
  return { type: 'moveNodes', moves }
}
