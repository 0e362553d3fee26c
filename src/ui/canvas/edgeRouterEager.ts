// Imported for its effect: the edge router there from the start (edgeRouterLoad.ts), with no
// chunk to wait for. For the canvas test page.
import * as edgeRoutes from './edgeRoutes'
import { provideEdgeRouter } from './edgeRouterLoad'

provideEdgeRouter(edgeRoutes)
