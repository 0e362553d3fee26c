import type { CheckpointConfig, ListOptions, CheckpointAddress } from '../checkpoint/types'
import {
  Run,
  type RunConfig,
  type RunStatus,
  type RuntimeOptions,
  type TaskInterrupt,
} from './loop'
import { getStateHistory, snapshotOf, type StateSnapshot } from './state'
import type { CompiledGraph } from '../compile/compileGraph'
import { nodeKind } from '../graph/nodeKinds'
import { taskNamespace } from './namespace'
import { requireGraphAtNamespace } from './subgraphState'
import type { RuntimeWarning } from './task'
import { bulkUpdateState, updateState, type UpdateSuperstep } from './updateState'

export interface InvokeResult {
  status: Exclude<RunStatus, 'running'>
  /** Pending `interrupt()` payloads when the run paused on them. */
  interrupts: TaskInterrupt[]
}

/**
 * A compiled graph bound to a saver: LangGraph's CompiledStateGraph surface (invoke,
 * getState, getStateHistory, updateState) plus `start`, which hands back the run so a
 * debugger can advance it one super-step at a time.
 */
export class GraphRuntime {
  constructor(private readonly o: RuntimeOptions) {}

  /**
   * Starts a run: `input` is new input, `null` to continue (resume a paused thread, retry a
   * failed step, replay from `config.checkpointId`), or a `Command` (resume, update, goto).
   */
  start(input: unknown, config: RunConfig): Promise<Run> {
    if (config.checkpointNs) {
      // LangGraph.js's root invoke drops the namespace and runs the thread's latest root
      // checkpoint instead; refused here rather than run from somewhere else than asked.
      return Promise.reject(
        new Error(
          `Running from a subgraph's checkpoint (namespace "${config.checkpointNs}" on thread ${config.threadId}) is not supported: run from a root checkpoint, or update the subgraph's state and continue the thread.`,
        ),
      )
    }
    return Run.start(this.o, input, config)
  }

  /** Runs until the graph finishes or pauses. */
  async invoke(input: unknown, config: RunConfig): Promise<InvokeResult> {
    const run = await this.start(input, config)
    const status = await run.toEnd()
    return { status: status === 'running' ? 'done' : status, interrupts: run.interrupts }
  }

  /**
   * The addressed checkpoint, or the thread's latest with its succeeded tasks' writes
   * applied. `config.checkpointNs` addresses a subgraph's checkpoints; with `subgraphs`,
   * each task that runs a subgraph gets that subgraph's state (LangGraph's
   * `getState(config, { subgraphs: true })`).
   */
  async getState(
    config: CheckpointConfig,
    options: { subgraphs?: boolean } = {},
  ): Promise<StateSnapshot | undefined> {
    const graph = this.graphAt(config)
    const tuple = await this.o.saver.getTuple(config)
    const snapshot = tuple && (await snapshotOf(graph, tuple, config.checkpointId === undefined))
    if (snapshot && options.subgraphs) await this.attachSubgraphStates(graph, snapshot)
    return snapshot
  }

  /** The thread's checkpoints (of `config.checkpointNs`'s graph), newest first, all branches. */
  getStateHistory(config: CheckpointConfig, options?: ListOptions): Promise<StateSnapshot[]> {
    return getStateHistory(this.graphAt(config), this.o.saver, config, options)
  }

  /** The graph whose checkpoints a config's namespace holds. */
  private graphAt(config: CheckpointConfig): CompiledGraph {
    const ns = config.checkpointNs ?? ''
    return ns === '' ? this.o.graph : requireGraphAtNamespace(this.o.graph, ns)
  }

  private async attachSubgraphStates(graph: CompiledGraph, snapshot: StateSnapshot): Promise<void> {
    const { threadId, checkpointId, checkpointNs = '' } = snapshot.config
    for (const task of snapshot.tasks) {
      const node = graph.spec.nodes.find((n) => n.id === task.name)
      if (!node || nodeKind(node) !== 'graph') continue
      const ns = taskNamespace(checkpointNs, checkpointId, task.id, task.name)
      const state = await this.getState({ threadId, checkpointNs: ns }, { subgraphs: true })
      if (state) task.state = state
    }
  }

  /**
   * Writes values as `asNode` into a new checkpoint after the addressed one (a fork when it
   * is old); `asNode` may also be `__input__`, `__copy__` or, with null values, `__end__`.
   */
  updateState(
    config: CheckpointConfig,
    values: unknown,
    asNode?: string,
  ): Promise<CheckpointAddress> {
    return updateState(
      { ...this.updateOptions(), graph: this.graphAt(config) },
      config,
      values,
      asNode,
    )
  }

  /** Applies super-steps of updates, one checkpoint each (LangGraph's `bulkUpdateState`). */
  bulkUpdateState(
    config: CheckpointConfig,
    supersteps: readonly UpdateSuperstep[],
  ): Promise<CheckpointAddress> {
    return bulkUpdateState(
      { ...this.updateOptions(), graph: this.graphAt(config) },
      config,
      supersteps,
    )
  }

  private updateOptions() {
    return {
      ...this.o,
      warn: (warning: RuntimeWarning) => {
        this.o.onWarning?.(warning)
        this.o.onEvent?.({ type: 'warning', step: -1, warning })
      },
    }
  }
}
