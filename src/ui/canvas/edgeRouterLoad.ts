import { loadOnce } from '../../lib/loadOnce'
import type * as EdgeRoutesModule from './edgeRoutes'

type EdgeRoutes = typeof EdgeRoutesModule

/** One canvas's edge router (see `createFlowRouter`). */
export type FlowRouter = ReturnType<EdgeRoutes['createFlowRouter']>

let routes: EdgeRoutes | null = null
let failed = false

/**
 * The edge router (edgeRoutes.ts, edgeRouter.ts: the detours and the spread of parallel
 * edges) as a chunk of its own, fetched once as the page's script runs, beside the storage,
 * so it is there before the first graph is drawn (the app's canvas waits for it, as for
 * dagre). Resolves null when it could not load (offline): the edges are then drawn without
 * routes, as zoomed out, and the next canvas tries again.
 */
export function loadEdgeRouter(): Promise<EdgeRoutes | null> {
  return routes ? Promise.resolve(routes) : fetchRouter()
}

const fetchRouter = loadOnce(
  async () => {
    routes = await import('./edgeRoutes')
    failed = false
    return routes
  },
  () => {
    failed = true
    return null
  },
)

/** Whether a canvas can be drawn now: the router is loaded, or its load failed. */
export const edgeRouterSettled = (): boolean => routes !== null || failed

/** A new router for a canvas, when the router's code is loaded. */
export const newFlowRouter = (): FlowRouter | null => routes?.createFlowRouter() ?? null

/** Hands over the router imported by other means (tests, test pages). */
export function provideEdgeRouter(given: EdgeRoutes): void {
  routes = given
}
