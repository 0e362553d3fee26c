/** The debugger model: pure functions over stored checkpoints, plain data out. */
export { inspectCheckpoint } from './inspect'
export { diffState } from './diffState'
export { layoutHistoryTree, type HistoryItem } from './tree'
export type * from './types'
