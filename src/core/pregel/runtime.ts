import type { CheckpointConfig, ListOptions } from '../checkpoint/types'
import {
  Run,
  type RunConfig,
  type RunStatus,
  type RuntimeOptions,
  type TaskInterrupt,
} from './loop'
import { getStateHistory, snapshotOf, type StateSnapshot } from './state'
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
    return Run.start(this.o, input, config)
  }

  /** Runs until the graph finishes or pauses. */
  async invoke(input: unknown, config: RunConfig): Promise<InvokeResult> {
    const run = await this.start(input, config)
    const status = await run.toEnd()
    return { status: status === 'running' ? 'done' : status, interrupts: run.interrupts }
  }

  /** The addressed checkpoint, or the thread's latest with its succeeded tasks' writes applied. */
  async getState(config: CheckpointConfig): Promise<StateSnapshot | undefined> {
    const tuple = await this.o.saver.getTuple(config)
    return tuple && (await snapshotOf(this.o.graph, tuple, config.checkpointId === undefined))
  }

  /** The thread's checkpoints, newest first, all branches. */
  getStateHistory(config: CheckpointConfig, options?: ListOptions): Promise<StateSnapshot[]> {
    return getStateHistory(this.o.graph, this.o.saver, config, options)
  }

  /**
   * Writes values as `asNode` into a new checkpoint after the addressed one (a fork when it
   * is old); `asNode` may also be `__input__`, `__copy__` or, with null values, `__end__`.
   */
  updateState(
    config: CheckpointConfig,
    values: unknown,
    asNode?: string,
  ): Promise<Required<CheckpointConfig>> {
    return updateState(this.updateOptions(), config, values, asNode)
  }

  /** Applies super-steps of updates, one checkpoint each (LangGraph's `bulkUpdateState`). */
  bulkUpdateState(
    config: CheckpointConfig,
    supersteps: readonly UpdateSuperstep[],
  ): Promise<Required<CheckpointConfig>> {
    return bulkUpdateState(this.updateOptions(), config, supersteps)
  }

  private updateOptions() {
    return {
      ...this.o,
      warn: (warning: RuntimeWarning) => this.o.onEvent?.({ type: 'warning', step: -1, warning }),
    }
  }
}
