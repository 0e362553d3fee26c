import { createContext, useCallback, useContext, useSyncExternalStore } from 'react'
import { sameRoute, type EdgeRoute } from './edgeGeometry'

/**
 * The edges' routes outside the edge objects: a store each edge subscribes to by its own id.
 * A drag reroutes the edges near the moved node on every frame; were the routes in
 * `edge.data`, every frame would hand React Flow a new edges array, and it rebuilds its
 * connection lookup over all edges for each (7,500 on the big-graph bench). This way the
 * edges array keeps its identity during a drag and only the rerouted edges re-render.
 */
export function createRouteStore() {
  let routes: ReadonlyMap<string, EdgeRoute> = new Map()
  const listeners = new Map<string, Set<() => void>>()
  return {
    /** The new routes; wakes only the edges whose route changed. */
    set(next: ReadonlyMap<string, EdgeRoute>) {
      if (next === routes) return
      const before = routes
      routes = next
      const changed: string[] = []
      for (const [id, r] of next) if (!sameRoute(before.get(id), r)) changed.push(id)
      for (const id of before.keys()) if (!next.has(id)) changed.push(id)
      for (const id of changed) for (const l of listeners.get(id) ?? []) l()
    },
    get(id: string): EdgeRoute | undefined {
      return routes.get(id)
    },
    subscribe(id: string, listener: () => void) {
      let set = listeners.get(id)
      if (!set) listeners.set(id, (set = new Set()))
      set.add(listener)
      return () => {
        set.delete(listener)
        if (set.size === 0) listeners.delete(id)
      }
    },
  }
}

export type RouteStore = ReturnType<typeof createRouteStore>

/** What the canvas hands its edges besides their props. */
export interface EdgeLayer {
  routes: RouteStore
  /**
   * React Flow's label layer (`.react-flow__edgelabel-renderer`), found once per canvas.
   * Its own `EdgeLabelRenderer` looks the element up with `querySelector` in a store
   * selector, so every labelled edge ran a DOM query on every store change (each drag frame).
   */
  labels: HTMLElement | null
}

export const EdgeLayerContext = createContext<EdgeLayer>({
  routes: createRouteStore(),
  labels: null,
})

/** An edge's route (spread apart or a detour); re-renders only when that route changes. */
export function useEdgeRoute(id: string): EdgeRoute | undefined {
  const { routes } = useContext(EdgeLayerContext)
  const subscribe = useCallback((l: () => void) => routes.subscribe(id, l), [routes, id])
  const get = () => routes.get(id)
  return useSyncExternalStore(subscribe, get, get)
}

/** The element edge labels are portalled into (null before the canvas has mounted). */
export const useEdgeLabelLayer = (): HTMLElement | null => useContext(EdgeLayerContext).labels
