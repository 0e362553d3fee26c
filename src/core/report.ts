/**
 * The report of one headless run: what `superstep run` prints and what the differential
 * suite compares against LangGraph.js. Plain JSON, stable key order.
 */
export interface RunReport {
  /**
   * `error` if the run raised; else `interrupted` if it paused with tasks still to run (a
   * static breakpoint or `interrupt()`: the newest checkpoint has a `next`); else `done`.
   */
  status: 'done' | 'error' | 'interrupted'
  /** State fields of the latest saved checkpoint that hold a value. */
  values: Record<string, unknown>
  /** Oldest first, one per saved checkpoint (LangGraph's getStateHistory reversed). */
  checkpoints: CheckpointReport[]
  /**
   * Payloads of the pending `interrupt()` calls of the newest checkpoint, in task order (as
   * `session` reports each checkpoint's); empty after a static breakpoint or a finished run.
   */
  interrupts: unknown[]
  error: ErrorReport | null
  /**
   * Documents with subgraphs only: every checkpoint of every subgraph, oldest first, in
   * the same shape plus `ns`.
   */
  subgraphCheckpoints?: SubgraphCheckpointReport[]
  /**
   * Documents with subgraphs only: where each of `interrupts` was raised, as node ids from
   * the root down (`[]`: a node of the root graph, `["team"]`: a node of `team`'s subgraph).
   */
  interruptNs?: string[][]
}

/**
 * A checkpoint of a subgraph. `ns` is the node ids from the root graph down to the graph
 * node (or the code node calling it) that ran the subgraph: `["team"]`,
 * `["team", "researcher"]`; LangGraph's `checkpoint_ns` without its task ids.
 */
export interface SubgraphCheckpointReport extends CheckpointReport {
  ns: string[]
}

export interface CheckpointReport {
  step: number
  source: 'input' | 'loop' | 'update' | 'fork'
  /** Node names of the tasks the checkpoint would run next, in task order. */
  next: string[]
  values: Record<string, unknown>
  /** The channel version of each state field that has one. */
  versions: Record<string, number>
}

/** Made by `errorToJson` (errorJson.ts). */
export interface ErrorReport {
  name: string
  /** LangGraph's `lc_error_code`, or null when the error has none. */
  code: string | null
  message: string
  /** The node whose code raised it, when a node did. */
  node?: string
  /** For a node inside subgraphs: the node ids from the root down to its graph (`["team"]`). */
  ns?: string[]
  /** 1-based line and column in the node's code, when the sandbox could tell. */
  line?: number
  column?: number
}
