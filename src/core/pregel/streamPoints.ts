/**
 * What a run tells a stream (`graph.stream()`'s producer, stream.ts) at the moments
 * LangGraph.js's PregelLoop emits its stream chunks. A separate, optional sink beside the
 * loop's events: nothing here is computed unless someone streams, and the events the worker
 * turns into page events stay as they are. `ns` (set for a subgraph's run, as on LoopEvent):
 * the checkpoint namespace of the run it happened in.
 */
import type { CheckpointSource, PendingWrite } from '../checkpoint/types'
import type { AiMessageDelta } from '../compile/compiledTypes'

/** A task as prepared for a super-step, with what the `tasks` and `checkpoints` modes show. */
export interface PreparedTask {
  id: string
  name: string
  kind: 'pull' | 'push'
  input: unknown
  triggers: string[]
  /** Output writes reapplied from an earlier attempt (the task will not run again). */
  writes: [string, unknown][]
  /** A graph node's task: the namespace its subgraph runs in. */
  subgraphNs?: string
}

export type StreamPoint = StreamPointBody & { ns?: string }

type StreamPointBody =
  /** A resume (or a Command's update/goto) was applied: the state the run goes on from. */
  | { type: 'resumed'; values: Record<string, unknown> }
  /** A super-step's writes were applied and checkpointed; `wroteState`: some write was to a field. */
  | { type: 'applied'; step: number; values: Record<string, unknown>; wroteState: boolean }
  /** The tasks of the next super-step were prepared against the latest checkpoint. */
  | {
      type: 'prepared'
      step: number
      checkpoint: {
        id: string
        parentId: string | undefined
        step: number
        source: CheckpointSource
      }
      values: Record<string, unknown>
      tasks: PreparedTask[]
      /** The checkpoint's pending writes (a loaded checkpoint's: results, errors, interrupts). */
      pendingWrites: PendingWrite[]
    }
  /** The super-step starts (past any breakpoint); `allCached`: every task had its writes already. */
  | { type: 'started'; step: number; tasks: PreparedTask[]; allCached: boolean }
  /** A task handed a `Command.PARENT` to the graph that runs this one. */
  | { type: 'handoff'; step: number; taskId: string; name: string; writes: [string, unknown][] }
  /** `config.writer(chunk)` in a task of this run. */
  | { type: 'custom'; chunk: unknown }
  /**
   * A piece of a model's reply, as a task's model streams it (only while the runtime's
   * `preferStreaming` says so); `messageId`: the id the whole reply will have.
   */
  | {
      type: 'delta'
      step: number
      taskId: string
      name: string
      messageId: string
      delta: AiMessageDelta
    }

/** Receives stream points; absent, the loop computes none of them. */
export type StreamSink = (p: StreamPoint) => void
