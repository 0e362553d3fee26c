/**
 * The stream differential's two sides: a case streamed on LangGraph.js (`graph.stream()`)
 * and on Superstep (`createStreamingGraph`), each as its chunks (plain JSON) and its error,
 * and the normalisation that makes the two comparable chunk for chunk: task ids (uuid5 there,
 * task paths here) dropped, namespaces as node ids (`nsNodes`), checkpoint ids and other
 * UUIDs relabelled in order of appearance, timestamps dropped, LangChain's serialised
 * messages made plain (a streamed reply's AIMessageChunks as Superstep's plain chunks),
 * message ids dropped (LangGraph.js's messages mode rewrites them to `run-…` ids; the main
 * differential compares ids), and the config of a checkpoint reduced to what Superstep has
 * (`configurable`: namespace, thread, settings).
 */
import { createCountingEnv } from '../lib/env'
import { parseGraph } from '../core/graph/validate'
import { createStreamingGraph, type StreamCallOptions, type StreamMode } from '../core/stream'
import { nsNodes } from '../core/pregel/namespace'
import { errorToJson } from '../core/errorJson'
import type { ErrorReport, RunReport } from '../core/report'
import { canonicalizeReport } from './compare'
import { buildLangGraph, caseConfigurable, normalizeValue, type DiffCase } from './oracle'
import { Command as LangGraphCommand } from '@langchain/langgraph'
import { Command } from '../core/pregel/types'
import { AIMessageChunk } from '@langchain/core/messages'

/** What a stream gave: its chunks as plain JSON, then its error (name and code), if any. */
export interface StreamResult {
  chunks: unknown[]
  error: Pick<ErrorReport, 'name' | 'code'> | null
}

/**
 * One way to stream a case: the modes (one as a string, or a list; absent: the default) and
 * `subgraphs`.
 */
export interface StreamShape {
  streamMode?: StreamMode | StreamMode[]
  subgraphs: boolean
}

const THREAD = 'diff'

function errorOf(e: unknown): StreamResult['error'] {
  const { name, code } = errorToJson(e)
  return { name, code }
}

/**
 * What is streamed instead of the case's input: after the input was invoked without
 * streaming, `null` (continue; `{}`) or `Command({ resume })`; or, on the fresh thread, a
 * `Command({ goto, update })` (`command`).
 */
export interface ResumeStep {
  resume?: unknown
  command?: { goto?: string; update?: Record<string, unknown> }
}

/** Streams a case on LangGraph.js (after invoking its input, with `then`). */
export async function streamOnLangGraph(
  c: DiffCase,
  shape: StreamShape,
  then?: ResumeStep,
): Promise<StreamResult> {
  const chunks: unknown[] = []
  try {
    const { graph } = buildLangGraph(c.graph)
    const g = graph as unknown as {
      stream(input: unknown, config: Record<string, unknown>): Promise<AsyncIterable<unknown>>
      invoke(input: unknown, config: Record<string, unknown>): Promise<unknown>
    }
    const base: Record<string, unknown> = { configurable: caseConfigurable(c, THREAD) }
    if (c.recursionLimit !== undefined) base.recursionLimit = c.recursionLimit
    let input: unknown = structuredClone(c.input)
    if (then?.command) input = new LangGraphCommand(then.command)
    else if (then) {
      await g.invoke(input, base)
      input = 'resume' in then ? new LangGraphCommand({ resume: then.resume }) : null
    }
    const config = {
      ...base,
      ...(shape.streamMode !== undefined && { streamMode: shape.streamMode }),
      subgraphs: shape.subgraphs,
    }
    for await (const chunk of await g.stream(input, config))
      chunks.push(normalizeValue(plainMessageChunks(chunk)))
  } catch (e) {
    return { chunks, error: errorOf(e) }
  }
  return { chunks, error: null }
}

/**
 * A `messages` chunk's AIMessageChunk (a piece of a streamed reply) as Superstep streams one:
 * `{ type: "AIMessageChunk", content, id, tool_call_chunks? }` (normalizeValue would make it
 * a whole AI message). A messages payload is `[message, metadata]`, wherever it sits in the chunk.
 */
function plainMessageChunks(chunk: unknown): unknown {
  if (!Array.isArray(chunk)) return chunk
  const [m, meta] = chunk as unknown[]
  const isPayload =
    chunk.length === 2 &&
    typeof meta === 'object' &&
    meta !== null &&
    'langgraph_node' in meta &&
    AIMessageChunk.isInstance(m)
  if (!isPayload) return chunk.map(plainMessageChunks)
  const calls = m.tool_call_chunks ?? []
  const plain = {
    type: 'AIMessageChunk',
    content: m.content,
    id: m.id,
    ...(calls.length > 0 && {
      tool_call_chunks: calls.map(({ index, id, name, args }) => ({ index, id, name, args })),
    }),
  }
  return [plain, meta]
}

/** Streams a case on Superstep (after invoking its input, with `then`). */
export async function streamOnSuperstep(
  c: DiffCase,
  shape: StreamShape,
  then?: ResumeStep,
): Promise<StreamResult> {
  const parsed = parseGraph(c.graph)
  if (!parsed.ok) throw new Error(`${c.file ?? c.description}: not a valid graph`)
  const g = createStreamingGraph(parsed.spec, { env: createCountingEnv() })
  const call: StreamCallOptions = {
    subgraphs: shape.subgraphs,
    ...(shape.streamMode !== undefined && { streamMode: shape.streamMode }),
    threadId: THREAD,
    ...(c.recursionLimit !== undefined && { recursionLimit: c.recursionLimit }),
    ...(c.configurable && { configurable: c.configurable }),
  }
  const chunks: unknown[] = []
  try {
    let input: unknown = structuredClone(c.input)
    if (then?.command) input = new Command(then.command)
    else if (then) {
      await g.runtime.invoke(input, {
        threadId: THREAD,
        ...(c.recursionLimit !== undefined && { recursionLimit: c.recursionLimit }),
        ...(c.configurable && { configurable: c.configurable }),
      })
      input = 'resume' in then ? new Command({ resume: then.resume }) : null
    }
    for await (const chunk of g.stream(input, call))
      chunks.push(JSON.parse(JSON.stringify(chunk) ?? 'null'))
  } catch (e) {
    return { chunks, error: errorOf(e) }
  }
  return { chunks, error: null }
}

type Raw = [ns: unknown, mode: string, payload: unknown]

/** The chunks of a stream as `[ns, mode, payload]`, whatever shape they were asked in. */
function rawChunks(chunks: unknown[], shape: StreamShape): Raw[] {
  const multi = Array.isArray(shape.streamMode)
  const single = typeof shape.streamMode === 'string' ? shape.streamMode : 'updates'
  return chunks.map((c) => {
    const a = c as unknown[]
    if (shape.subgraphs && multi) return [a[0], String(a[1]), a[2]]
    if (multi) return [[], String(a[0]), a[1]]
    if (shape.subgraphs) return [a[0], single, a[1]]
    return [[], single, c]
  })
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi

/**
 * Chunks made comparable (see the module's comment): each graph run's chunks (one namespace)
 * in stream order, the runs ordered by namespace. Concurrent subgraph runs interleave as
 * their tasks happen to be scheduled, in either runtime; within a run the order is compared.
 */
export function comparableChunks(chunks: unknown[], shape: StreamShape): unknown[] {
  const runs = new Map<string, Raw[]>()
  for (const [ns, mode, payload] of rawChunks(chunks, shape)) {
    const key = JSON.stringify(ns)
    let run = runs.get(key)
    if (!run) runs.set(key, (run = []))
    run.push([nsList(ns), mode, comparablePayload(mode, payload)])
  }
  const masked = (run: Raw[]) => JSON.stringify(run).replace(UUID, '#')
  const ordered = [...runs.values()]
    .map((run) => ({ run: inCompletionOrderByNode(run), key: masked(run) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .flatMap(({ run }) => run)
  return (
    canonicalizeReport({ checkpoints: ordered } as unknown as RunReport) as unknown as {
      checkpoints: Raw[]
    }
  ).checkpoints
}

/**
 * The node a chunk reports the finished task of (its update, its messages, its result), or
 * undefined for any other chunk.
 */
function finishedNode([, mode, p]: Raw): string | undefined {
  const o = p as Record<string, unknown>
  if (mode === 'updates') {
    const keys = Object.keys(o).filter((k) => k !== '__metadata__')
    return keys.length === 1 && keys[0] !== '__interrupt__' ? keys[0] : undefined
  }
  if (mode === 'messages') return String((p as [unknown, { node: string }])[1].node)
  if (mode === 'tasks' && 'result' in o) return String(o.name)
  if (mode === 'debug' && o.type === 'task_result')
    return String((o.payload as { name: string }).name)
  return undefined
}

/**
 * Concurrent tasks finish in an order neither runtime promises (LangGraph.js's depends on how
 * many internal awaits a node's writers take; Superstep's on the node's own awaits): each run
 * of consecutive finished-task chunks of one namespace is put in node order (stable).
 */
function inCompletionOrderByNode(chunks: Raw[]): Raw[] {
  const out: Raw[] = []
  let run: Raw[] = []
  const flush = () => {
    const sorted = run
      .map((c, i) => ({ c, i, node: finishedNode(c) ?? '' }))
      .sort((a, b) => (a.node < b.node ? -1 : a.node > b.node ? 1 : a.i - b.i))
    out.push(...sorted.map(({ c }) => c))
    run = []
  }
  for (const c of chunks) {
    const sameNs = run.length === 0 || JSON.stringify(run[0]?.[0]) === JSON.stringify(c[0])
    if (finishedNode(c) !== undefined && sameNs) run.push(c)
    else {
      flush()
      if (finishedNode(c) !== undefined) run.push(c)
      else out.push(c)
    }
  }
  flush()
  return out
}

function nsList(ns: unknown): string[] {
  return Array.isArray(ns) ? nsNodes(ns.join('|')) : []
}

function comparablePayload(mode: string, p: unknown): unknown {
  switch (mode) {
    case 'checkpoints':
      return checkpointPayload(p)
    case 'tasks':
      return taskPayload(p)
    case 'debug': {
      const d = p as { step: number; type: string; payload: unknown }
      const payload =
        d.type === 'checkpoint' ? checkpointPayload(d.payload) : taskPayload(d.payload)
      return { step: d.step, type: d.type, payload }
    }
    case 'messages': {
      const [m, meta] = p as [Record<string, unknown>, Record<string, unknown>]
      return [
        withoutMessageIds(m),
        {
          name: meta.name,
          model: meta.ls_model_type,
          node: meta.langgraph_node,
          step: meta.langgraph_step,
          triggers: meta.langgraph_triggers,
          path: meta.langgraph_path,
          ns: nsNodes(String(meta.langgraph_checkpoint_ns ?? '')),
        },
      ]
    }
    case 'updates':
    case 'values':
      return withoutInterruptIds(withoutMessageIds(p))
    default:
      return withoutMessageIds(p)
  }
}

/**
 * Interrupt ids hash the task's namespace, whose task ids differ between the runtimes (the
 * main differential checks where each interrupt was raised instead).
 */
function withoutInterruptIds(p: unknown): unknown {
  const list = (p as { __interrupt__?: unknown } | null)?.__interrupt__
  if (!Array.isArray(list)) return p
  return { __interrupt__: withoutIds(list) }
}

function withoutIds(list: unknown): unknown {
  if (!Array.isArray(list)) return list
  return list.map((i) => ({ ...(i as object), id: '<interrupt>' }))
}

function taskPayload(p: unknown): unknown {
  const { id: _id, metadata: _metadata, ...rest } = p as Record<string, unknown>
  rest.interrupts = withoutIds(rest.interrupts)
  return withoutMessageIds(rest)
}

function configOf(c: unknown): unknown {
  if (c === undefined || c === null) return c
  const configurable = { ...(c as { configurable?: Record<string, unknown> }).configurable }
  for (const k of Object.keys(configurable)) if (k.startsWith('__pregel_')) delete configurable[k]
  delete configurable.checkpoint_map
  configurable.checkpoint_ns = nsNodes(String(configurable.checkpoint_ns ?? ''))
  return { configurable }
}

function checkpointPayload(p: unknown): unknown {
  const c = p as Record<string, unknown> & {
    metadata: { parents?: Record<string, string> } & Record<string, unknown>
    tasks: Record<string, unknown>[]
  }
  const parents = Object.fromEntries(
    Object.entries(c.metadata.parents ?? {}).map(([ns, id]) => [nsNodes(ns).join('|'), id]),
  )
  return withoutMessageIds({
    ...c,
    config: configOf(c.config),
    parentConfig: configOf(c.parentConfig),
    metadata: { ...c.metadata, parents },
    tasks: c.tasks.map(({ id: _id, state, ...t }) => {
      const ns = (state as { configurable?: { checkpoint_ns?: string } } | undefined)?.configurable
        ?.checkpoint_ns
      return {
        ...t,
        interrupts: withoutIds(t.interrupts),
        ...(state !== undefined && { state: nsNodes(ns ?? '') }),
      }
    }),
  })
}

/**
 * Drops `id` from every message-shaped object (a `type` and a `content`), and the `type:
 * "tool_call"` LangChain gives a tool call (Superstep's plain messages have none).
 */
function withoutMessageIds(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutMessageIds)
  if (typeof v !== 'object' || v === null) return v
  const o = v as Record<string, unknown>
  const isMessage = typeof o.type === 'string' && 'content' in o
  return Object.fromEntries(
    Object.entries(o)
      .filter(([k, x]) => !(isMessage && k === 'id') && !(k === 'type' && x === 'tool_call'))
      .map(([k, x]) => [k, withoutMessageIds(x)]),
  )
}

/**
 * Streams a case both ways and gives both comparable results. When LangGraph.js's run
 * failed, its stream lost the chunks still queued (an errored ReadableStream drops what its
 * reader had not taken): Superstep's chunks are then compared up to as many as it gave.
 */
export async function streamBothWays(
  c: DiffCase,
  shape: StreamShape,
  then?: ResumeStep,
): Promise<{ theirs: StreamResult; ours: StreamResult }> {
  const theirs = await streamOnLangGraph(c, shape, then)
  const ours = await streamOnSuperstep(c, shape, then)
  const kept = theirs.error ? ours.chunks.slice(0, theirs.chunks.length) : ours.chunks
  return {
    theirs: { chunks: comparableChunks(theirs.chunks, shape), error: theirs.error },
    ours: { chunks: comparableChunks(kept, shape), error: ours.error },
  }
}
