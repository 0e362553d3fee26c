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
}

const KEY = 'superstep.view.v1'
/** Graphs remembered at most (the least recent go first). */
const MAX_GRAPHS = 50

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
    return {
      ...(typeof v.graph === 'string' && { graph: v.graph }),
      ...(typeof v.tab === 'string' && { tab: v.tab }),
      graphs,
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
