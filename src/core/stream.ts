/**
 * `graph.stream()` for graph documents: what `superstep stream` prints. A run's chunks in
 * LangGraph's stream modes (see pregel/stream.ts), shaped as LangGraph.js yields them.
 */
import type { RuntimeEnv } from '../lib/env'
import { MemorySaver } from './checkpoint/memorySaver'
import { compileGraph, type CompiledGraph } from './compile/compileGraph'
import { evaluateLocally, type CodeEvaluator } from './compile/evaluate'
import type { CodeHost } from './compile/host'
import type { GraphSpec } from './graph/schema'
import { DEFAULT_RECURSION_LIMIT, type LoopEvent, type RunConfig } from './pregel/loop'
import { GraphRuntime } from './pregel/runtime'
import {
  StreamProducer,
  type RawChunk,
  type StreamMode,
  type StreamProducerOptions,
} from './pregel/stream'
import type { StreamPoint } from './pregel/streamPoints'

export { STREAM_MODES, isStreamMode, type StreamMode } from './pregel/stream'

/** What one `stream()` call asks for (LangGraph's `streamMode`, `subgraphs`, config). */
export interface StreamCallOptions {
  /** One mode (chunks are bare payloads; default `updates`) or a list (`[mode, payload]`). */
  streamMode?: StreamMode | readonly StreamMode[]
  /** Subgraphs' chunks too, each with its namespace: `[ns, mode, payload]` / `[ns, payload]`. */
  subgraphs?: boolean
  /** `config.configurable` for the run (the graph's declared defaults fill the rest). */
  configurable?: Record<string, unknown>
  recursionLimit?: number
  /** The thread (default `cli`); a checkpoint of it to run from. */
  threadId?: string
  checkpointId?: string
}

export interface StreamingOptions {
  env: RuntimeEnv
  evaluate?: CodeEvaluator
  host?: CodeHost
}

/**
 * A compiled document on an in-memory saver whose runs can be streamed, call after call (one
 * at a time: a stream whose consumer stopped early runs on to its end in the background).
 */
export interface StreamingGraph {
  graph: CompiledGraph
  runtime: GraphRuntime
  saver: MemorySaver
  stream(input: unknown, options?: StreamCallOptions): AsyncGenerator<unknown>
}

const THREAD = 'cli'

/**
 * A chunk as plain JSON, as it is now: the consumer may read it after later steps ran, and
 * state values are shared with the run (a channel may go on changing one in place). JSON, as
 * LangGraph.js's chunks print: a Send or Command as its `toJSON()`, `undefined` keys dropped.
 */
function snapshotOf(chunk: RawChunk): RawChunk {
  try {
    return JSON.parse(JSON.stringify(chunk)) as RawChunk
  } catch {
    // Not JSON (a BigInt, a cycle): the chunk as it is, rather than failing the run.
    return chunk
  }
}

/** A chunk in the shape LangGraph.js yields it for these options. */
export function formatChunk(
  [ns, mode, payload]: RawChunk,
  opts: { multi: boolean; subgraphs: boolean },
): unknown {
  if (opts.subgraphs && opts.multi) return [ns, mode, payload]
  if (opts.multi) return [mode, payload]
  if (opts.subgraphs) return [ns, payload]
  return payload
}

/** Compiles a validated document for streaming (see {@link StreamingGraph}). */
export function createStreamingGraph(spec: GraphSpec, opts: StreamingOptions): StreamingGraph {
  const graph = compileGraph(spec, {
    evaluate: opts.evaluate ?? evaluateLocally,
    newId: opts.env.newId,
    ...(opts.host ? { host: opts.host } : {}),
  })
  const saver = new MemorySaver()
  // One stream at a time: the runtime's sinks go to the current one's producer.
  let producer: StreamProducer | undefined
  const runtime = new GraphRuntime({
    graph,
    saver,
    env: opts.env,
    onEvent: (e: LoopEvent) => producer?.onEvent(e),
    stream: (p: StreamPoint) => producer?.onPoint(p),
    preferStreaming: () => producer?.prefersStreaming === true,
  })
  async function* stream(input: unknown, call: StreamCallOptions = {}): AsyncGenerator<unknown> {
    // A StateGraph's default, as LangGraph.js's CompiledStateGraph has it.
    const asked = call.streamMode ?? 'updates'
    const modes: StreamMode[] = typeof asked === 'string' ? [asked] : [...asked]
    const shape = { multi: typeof asked !== 'string', subgraphs: call.subgraphs === true }
    const threadId = call.threadId ?? THREAD
    const queue: unknown[] = []
    let wake: (() => void) | undefined
    const options: StreamProducerOptions = {
      modes,
      subgraphs: shape.subgraphs,
      threadId,
      recursionLimit: call.recursionLimit ?? DEFAULT_RECURSION_LIMIT,
      configurable: { ...graph.configDefaults, ...call.configurable },
      now: opts.env.now,
    }
    const mine = new StreamProducer(graph, options, (c) => {
      queue.push(formatChunk(snapshotOf(c), shape))
      wake?.()
    })
    if (producer) throw new Error('A stream of this graph is already running.')
    producer = mine
    const config: RunConfig = {
      threadId,
      ...(call.checkpointId !== undefined && { checkpointId: call.checkpointId }),
      ...(call.recursionLimit !== undefined && { recursionLimit: call.recursionLimit }),
      ...(call.configurable && { configurable: call.configurable }),
    }
    let finished = false
    let failure: { error: unknown } | undefined
    const running = (async () => {
      try {
        const run = await runtime.start(input, config)
        const status = await run.toEnd()
        if (status === 'interrupted')
          await mine.finish({
            dynamic: run.interrupts.length > 0,
            values: async () => (await runtime.getState({ threadId }))?.values ?? {},
          })
      } catch (error) {
        failure = { error }
      } finally {
        finished = true
        if (producer === mine) producer = undefined
        wake?.()
      }
    })()
    while (true) {
      if (queue.length > 0) {
        yield queue.shift()
        continue
      }
      if (finished) break
      await new Promise<void>((resolve) => (wake = resolve))
      wake = undefined
    }
    await running
    if (failure) throw failure.error
  }
  return { graph, runtime, saver, stream }
}

/**
 * Streams one run of a validated document on a fresh in-memory thread: each chunk as
 * `graph.stream(input, { streamMode, subgraphs })` yields it; the run's error, if any, is
 * thrown after its last chunk.
 */
export function streamGraph(
  spec: GraphSpec,
  input: unknown,
  opts: StreamingOptions & StreamCallOptions,
): AsyncGenerator<unknown> {
  return createStreamingGraph(spec, opts).stream(input, opts)
}
