import type { Selection } from './documents'

/**
 * Where the user was, so a reload opens the same place: the graph, and per graph the thread,
 * the checkpoint shown, the subgraph open on the canvas, the selected nodes and edges, and
 * the run drawer's tab. It is view
 * state, never the user's work (that is in IndexedDB), so the browser's localStorage holds
 * it, and a damaged or missing entry just means starting from the defaults.
 */
export interface GraphView {
  thread?: string
  checkpoint?: string | null
  selection?: Selection
  /** The subgraph the canvas showed (names from the root down). */
  level?: string[]
}

export interface ViewMemory {
  graph?: string
  tab?: string
  graphs: Record<string, GraphView>
  /**
   * Where the user moved each canvas (a graph, or one of its subgraphs: `viewportKey`); a
   * canvas not listed is fitted to its graph as it opens.
   */
  viewports?: Record<string, CanvasViewport>
}

/** A canvas's pan and zoom, as React Flow gives them. */
export interface CanvasViewport {
  x: number
  y: number
  zoom: number
}

const KEY = 'superstep.view.v1'
/** Graphs remembered at most (the least recent go first). */
const MAX_GRAPHS = 50
/** Canvases whose pan and zoom are remembered at most (the least recent go first). */
const MAX_VIEWPORTS = 100

const storage = (): Storage | undefined => {
  try {
    return (globalThis as { localStorage?: Storage }).localStorage
  } catch {
    return undefined
  }
}

export function loadView(): ViewMemory {
  try {
    const raw = storage()?.getItem(KEY)
    const v = raw ? (JSON.parse(raw) as Partial<ViewMemory>) : {}
    const graphs = v.graphs && typeof v.graphs === 'object' ? v.graphs : {}
    const viewports = Object.entries(
      v.viewports && typeof v.viewports === 'object' ? v.viewports : {},
    ).filter(([, p]) => isViewport(p))
    return {
      ...(typeof v.graph === 'string' && { graph: v.graph }),
      ...(typeof v.tab === 'string' && { tab: v.tab }),
      graphs,
      ...(viewports.length > 0 && { viewports: Object.fromEntries(viewports) }),
    }
  } catch {
    return { graphs: {} }
  }
}

export function saveView(v: ViewMemory): void {
  const ids = Object.keys(v.graphs)
  const graphs =
    ids.length > MAX_GRAPHS
      ? Object.fromEntries(ids.slice(-MAX_GRAPHS).map((id) => [id, v.graphs[id] as GraphView]))
      : v.graphs
  try {
    storage()?.setItem(KEY, JSON.stringify({ ...v, graphs }))
  } catch {
    // A full or blocked storage loses only where the user was, never their work.
  }
}

/** The memory with one graph's view replaced (and that graph the most recent). */
export function withGraphView(v: ViewMemory, graph: string, view: GraphView): ViewMemory {
  const { [graph]: _old, ...rest } = v.graphs
  return { ...v, graph, graphs: { ...rest, [graph]: view } }
}

/** The key of one canvas: a graph, or the subgraph at `level` (names from the root down). */
export const viewportKey = (graph: string, level: readonly string[]): string =>
  [graph, ...level].join('\u0000')

const isViewport = (p: unknown): p is CanvasViewport => {
  const v = p as Partial<CanvasViewport> | null
  return (
    !!v &&
    typeof v === 'object' &&
    Number.isFinite(v.x) &&
    Number.isFinite(v.y) &&
    Number.isFinite(v.zoom) &&
    (v.zoom as number) > 0
  )
}

/** Where the user left the canvas `key`, if they moved it. */
export function loadViewport(key: string): CanvasViewport | undefined {
  return loadView().viewports?.[key]
}

/** Remembers where the user moved canvas `key`; null forgets it (fitted again). */
export function saveViewport(key: string, viewport: CanvasViewport | null): void {
  const v = loadView()
  const { [key]: _old, ...rest } = v.viewports ?? {}
  const kept = Object.entries(rest).slice(-(MAX_VIEWPORTS - 1))
  if (viewport) {
    const { x, y, zoom } = viewport
    kept.push([key, { x, y, zoom }])
  }
  saveView({ ...v, viewports: Object.fromEntries(kept) })
}
