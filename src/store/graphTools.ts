/**
 * The document's validation and edits (zod, acorn: about 60 kB gzip) as a chunk of their
 * own, fetched at once beside the page's storage and ready before the first render (the
 * composition root awaits `loadGraphTools()` as it awaits the database), so every view and
 * slice that uses them stays synchronous and behaves as before. The unit tests and the test
 * pages have them from the start (graphToolsEager.ts).
 */
import type * as GraphToolsModule from './graphToolsImpl'

type GraphTools = typeof GraphToolsModule

let tools: GraphTools | null = null
let loading: Promise<GraphTools> | null = null

/** Fetches the tools (once); resolves when `graphTools()` may be called. */
export function loadGraphTools(): Promise<GraphTools> {
  loading ??= tools ? Promise.resolve(tools) : import('./graphToolsImpl').then((m) => (tools = m))
  return loading
}

/** Hands over tools imported by other means (tests, test pages). */
export function provideGraphTools(given: GraphTools): void {
  tools = given
}

/** The tools; a bug (thrown) before `loadGraphTools()` has resolved. */
export function graphTools(): GraphTools {
  if (!tools) throw new Error('The graph tools were used before loadGraphTools() resolved.')
  return tools
}
