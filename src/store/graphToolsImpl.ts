/**
 * The document's heavy parts in one module (zod for the format, acorn for the code): loaded
 * by `loadGraphTools` (graphTools.ts) as a chunk of its own, not with the page's script.
 */
export { parseGraph } from '../core/graph/validate'
export { applyEdit } from '../core/graph/edits'
export { usesInterrupt } from '../core/graph/codeFacts'
export { asSubgraph, freeSubgraphName, groupNodeId } from '../core/graph/editSubgraphs'
export { parseStateUpdate } from './stateValues'
