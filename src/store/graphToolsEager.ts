// Imported for its effect: the graph tools (graphTools.ts) there from the start, with no
// separate chunk to wait for. For the unit tests (vite.config.ts's setupFiles) and the test
// pages, which render without the composition root.
import * as graphToolsImpl from './graphToolsImpl'
import { provideGraphTools } from './graphTools'

provideGraphTools(graphToolsImpl)
