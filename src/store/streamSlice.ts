import type { RuntimeRequests } from '../worker/client'
import type { WorkerEvent } from '../worker/protocol'

/** One chunk of a watched run's stream, as the Stream tab lists it. */
export interface StreamChunk {
  seq: number
  /** The root's super-step it came from. */
  step: number
  /** Node ids from the root down to the subgraph it came from (`[]`: the root graph). */
  path: string[]
  mode: string
  payload: unknown
  /** The node it is about, when the mode says (updates, tasks, messages, debug). */
  node?: string
}

/** The stream of the open thread's runs, while the Stream tab watches it. */
export interface StreamState {
  streamChunks: StreamChunk[]
  /** Whether the worker sends the open thread's runs' chunks (the Stream tab is open). */
  streamWatched: boolean
}

export interface StreamActions {
  /**
   * The Stream tab (every mode) or the Chat tab (`['messages']`) opened (true) or closed:
   * runs started from now on stream, or not.
   */
  watchStream(on: boolean, modes?: string[]): Promise<void>
  clearStream(): void
}

/** The most chunks kept: the newest, so a long run's view stays light. */
export const STREAM_KEEP = 5000

export const INITIAL_STREAM: StreamState = { streamChunks: [], streamWatched: false }

type Host = StreamState & { threadId: string }

export function createStreamSlice(
  set: (p: Partial<StreamState>) => void,
  get: () => Host,
  client: RuntimeRequests,
): StreamActions {
  return {
    async watchStream(on, modes) {
      set({ streamWatched: on })
      const { threadId } = get()
      if (threadId) await client.request('watchStream', { threadId, on, ...(modes && { modes }) })
    },
    clearStream() {
      set({ streamChunks: [] })
    },
  }
}

/**
 * The chunks of a batch of worker events for the open thread, added to those kept (a run's
 * start clears them: the view shows the latest run). Null when the batch has none.
 */
export function withStreamChunks(
  kept: readonly StreamChunk[],
  events: readonly WorkerEvent[],
  threadId: string,
): StreamChunk[] | null {
  let out: StreamChunk[] | null = null
  for (const e of events) {
    if (!('threadId' in e) || e.threadId !== threadId) continue
    if (e.type === 'run_started') out = []
    if (e.type !== 'stream_chunk') continue
    out ??= [...kept]
    const node = nodeOf(e.mode, e.payload)
    out.push({
      seq: e.seq,
      step: e.step,
      path: e.path,
      mode: e.mode,
      payload: e.payload,
      ...(node !== undefined && { node }),
    })
  }
  return out && out.length > STREAM_KEEP ? out.slice(-STREAM_KEEP) : out
}

/** The node a chunk is about, read from its payload as LangGraph shapes it. */
export function nodeOf(mode: string, payload: unknown): string | undefined {
  const obj = (v: unknown): Record<string, unknown> | undefined =>
    typeof v === 'object' && v !== null && !Array.isArray(v)
      ? (v as Record<string, unknown>)
      : undefined
  switch (mode) {
    case 'updates': {
      const keys = Object.keys(obj(payload) ?? {}).filter((k) => !k.startsWith('__'))
      return keys.length === 1 ? keys[0] : undefined
    }
    case 'tasks': {
      const name = obj(payload)?.name
      return typeof name === 'string' ? name : undefined
    }
    case 'messages': {
      const meta = Array.isArray(payload) ? obj(payload[1]) : undefined
      const node = meta?.langgraph_node
      return typeof node === 'string' ? node : undefined
    }
    case 'debug': {
      const name = obj(obj(payload)?.payload)?.name
      return typeof name === 'string' ? name : undefined
    }
    default:
      return undefined
  }
}
