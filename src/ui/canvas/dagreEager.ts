// Imported for its effect: dagre there from the start (layout.ts), with no chunk to wait
// for. For the unit tests (vite.config.ts's setupFiles) and the canvas test page.
import * as dagreLayout from './dagreLayout'
import { provideDagre } from './layout'

provideDagre(dagreLayout)
