/**
 * LangGraph's stream modes, made from what a run reports (its LoopEvents and StreamPoints):
 * the chunks `graph.stream(input, { streamMode, subgraphs })` of @langchain/langgraph 1.7.3
 * yields, in its order. Each chunk is produced as `[ns, mode, payload]` (ns: the checkpoint
 * namespace split at `|`, `[]` for the root); `formatChunk` (core/stream.ts) gives it the
 * shape the caller asked for. Where Superstep's chunks differ from LangGraph.js's, docs/runtime.md (Streaming)
 * says how and why.
 */
import type { CompiledGraph } from '../compile/compileGraph'
import { ERROR, INTERRUPT, NO_WRITES, START } from '../graph/constants'
import { messagesFieldOf, nodeKind } from '../graph/nodeKinds'
import { holdsMessages } from '../compile/kinds'
import type { Interrupt } from './interrupt'
import type { LoopEvent } from './loop'
import { NS_SEPARATOR, taskNamespace } from './namespace'
import {
  checkpointTask,
  errorOf,
  isMessageLike,
  nsPath,
  pathOf,
  resultOf,
  updatesOf,
} from './streamPayloads'
import type { PreparedTask, StreamPoint } from './streamPoints'
import { graphAtNamespace } from './subgraphState'

export const STREAM_MODES = [
  'values',
  'updates',
  'messages',
  'custom',
  'debug',
  'checkpoints',
  'tasks',
] as const
export type StreamMode = (typeof STREAM_MODES)[number]

export const isStreamMode = (m: string): m is StreamMode =>
  (STREAM_MODES as readonly string[]).includes(m)

/** A chunk before formatting: the namespace, the mode, the payload. */
export type RawChunk = [ns: string[], mode: StreamMode, payload: unknown]

export interface StreamProducerOptions {
  /** The modes asked for (others are not produced). */
  modes: readonly StreamMode[]
  /** Whether subgraphs' chunks are wanted (`subgraphs: true`). */
  subgraphs: boolean
  threadId: string
  recursionLimit: number
  /** The run's `configurable`, as checkpoint configs show it. */
  configurable: Record<string, unknown>
  /** ISO-8601 now, for `debug` chunks' timestamps. */
  now: () => string
}

/** A prepared task and where it ran: what its later events need to be streamed. */
interface TaskInfo extends PreparedTask {
  step: number
  checkpointId: string
}

/**
 * Turns one run's events and points (the root's and its subgraphs') into stream chunks,
 * pushed as they happen. Feed it with {@link onEvent} and {@link onPoint}; at the end of the
 * root run, {@link finish} adds what LangGraph.js adds when the run pauses.
 */
export class StreamProducer {
  private readonly modes: ReadonlySet<StreamMode>
  /** Per namespace: the tasks of its current super-step, by id. */
  private readonly tasks = new Map<string, Map<string, TaskInfo>>()
  /** Per namespace: its latest checkpoint's id (a subgraph checkpoint's `parents`). */
  private readonly latest = new Map<string, string>()
  /** Message ids already streamed or seen in a task's input (LangGraph's dedupe). */
  private readonly seen = new Set<string>()
  /** Whether a task of the root's last super-step wrote a state field (see finish). */
  private rootWroteState = false

  constructor(
    private readonly graph: CompiledGraph,
    private readonly o: StreamProducerOptions,
    private readonly push: (chunk: RawChunk) => void,
  ) {
    this.modes = new Set(o.modes)
  }

  /**
   * LangGraph's `lc_prefer_streaming`: the messages mode wants models' replies piece by piece
   * (the runtime's `preferStreaming`).
   */
  get prefersStreaming(): boolean {
    return this.modes.has('messages')
  }

  onEvent(e: LoopEvent): void {
    const ns = e.ns ?? ''
    if (!this.wanted(ns)) return
    switch (e.type) {
      case 'checkpoint_saved':
        this.latest.set(ns, e.checkpointId)
        return
      case 'task_finished':
        return this.taskFinished(ns, e.taskId, e.name, e.writes)
      case 'task_interrupted':
        return this.taskInterrupted(ns, e.taskId, e.name, e.interrupts)
      case 'task_failed':
        return this.taskFailed(ns, e.step, e.taskId, e.name, e.writes, errorOf(e.error))
      default:
        return
    }
  }

  onPoint(p: StreamPoint): void {
    const ns = p.ns ?? ''
    if (p.type === 'custom') {
      // A subgraph's custom chunks reach the root's stream even without `subgraphs`.
      return this.emit(ns, 'custom', p.chunk)
    }
    if (!this.wanted(ns)) return
    switch (p.type) {
      case 'resumed':
        return this.emit(ns, 'values', p.values)
      case 'applied':
        if (ns === '') this.rootWroteState = false
        if (p.wroteState) this.emit(ns, 'values', p.values)
        return
      case 'prepared': {
        const byId = new Map<string, TaskInfo>()
        for (const t of p.tasks)
          byId.set(t.id, { ...t, step: p.step, checkpointId: p.checkpoint.id })
        this.tasks.set(ns, byId)
        this.latest.set(ns, p.checkpoint.id)
        if (!this.modes.has('checkpoints') && !this.modes.has('debug')) return
        const config = this.config(ns, p.checkpoint.id)
        const payload = {
          config,
          values: p.values,
          metadata: {
            source: p.checkpoint.source,
            step: p.checkpoint.step,
            parents: this.parents(ns),
          },
          next: p.tasks.map((t) => t.name),
          tasks: p.tasks.map((t) =>
            checkpointTask(t, p.pendingWrites, this.graphAt(ns), this.o.threadId),
          ),
          parentConfig: p.checkpoint.parentId && this.config(ns, p.checkpoint.parentId),
        }
        this.emit(ns, 'checkpoints', payload)
        this.debug(ns, p.checkpoint.step, 'checkpoint', payload)
        return
      }
      case 'started':
        return this.started(ns, p.step, p.tasks, p.allCached)
      case 'delta':
        return this.delta(ns, p)
      case 'handoff':
        // LangGraph.js commits a task that raised a ParentCommand with its writes, or, having
        // none, as an error (its runner's `_commit`).
        if (p.writes.length > 0) return this.taskFinished(ns, p.taskId, p.name, p.writes)
        return this.taskFailed(ns, p.step, p.taskId, p.name, [], {
          message: '',
          name: 'ParentCommand',
        })
    }
  }

  /**
   * The end of a root run that paused: on `interrupt()`, the state with the writes of the
   * tasks that finished (`values`, if one wrote a field); at a breakpoint, `{ __interrupt__: [] }`.
   */
  async finish(paused: {
    dynamic: boolean
    values: () => Promise<Record<string, unknown>>
  }): Promise<void> {
    if (paused.dynamic) {
      if (this.rootWroteState) this.emit('', 'values', await paused.values())
      return
    }
    this.emit('', 'updates', { [INTERRUPT]: [] })
    this.emit('', 'values', { [INTERRUPT]: [] })
  }

  private wanted(ns: string): boolean {
    return ns === '' || this.o.subgraphs
  }

  private emit(ns: string, mode: StreamMode, payload: unknown): void {
    if (!this.modes.has(mode)) return
    this.push([nsPath(ns), mode, payload])
  }

  /** `debug` wraps `checkpoints` and `tasks` payloads (LangGraph's `_emit`). */
  private debug(ns: string, step: number, type: string, payload: unknown): void {
    if (!this.modes.has('debug')) return
    this.push([nsPath(ns), 'debug', { step, type, timestamp: this.o.now(), payload }])
  }

  private started(ns: string, step: number, tasks: PreparedTask[], allCached: boolean): void {
    if (ns === '') this.rootWroteState = false
    const graph = this.graphAt(ns)
    for (const t of tasks) {
      if (t.name === START) continue
      if (ns === '' && t.writes.some(([ch]) => this.graph.fieldSet.has(ch)))
        this.rootWroteState = true
      if (graph && t.writes.length === 0) this.seeInput(graph, t.input)
      if (t.writes.length > 0 && !t.writes.some(([ch]) => ch === ERROR || ch === INTERRUPT)) {
        this.emit(ns, 'updates', {
          ...updatesOf(graph, t.name, t.writes),
          __metadata__: { cached: true },
        })
      }
    }
    if (allCached) return
    for (const t of tasks) {
      if (t.name === START) continue
      const payload = {
        id: t.id,
        name: t.name,
        input: t.input,
        triggers: t.triggers,
        interrupts: [],
      }
      this.emit(ns, 'tasks', payload)
      this.debug(ns, step, 'task', payload)
    }
  }

  private taskFinished(ns: string, id: string, name: string, writes: [string, unknown][]): void {
    if (name === START) return
    const graph = this.graphAt(ns)
    const info = this.tasks.get(ns)?.get(id)
    if (ns === '' && writes.some(([ch]) => this.graph.fieldSet.has(ch))) this.rootWroteState = true
    if (this.modes.has('messages') && graph && info) this.messages(ns, graph, info, writes)
    const out = writes.length > 0 ? writes : [[NO_WRITES, null] as [string, unknown]]
    this.emit(ns, 'updates', updatesOf(graph, name, out))
    this.taskResult(ns, info?.step ?? 0, {
      id,
      name,
      result: resultOf(graph, out),
      interrupts: [],
      error: null,
    })
  }

  /** A failed task's writes and error are committed together: an update if it wrote first. */
  private taskFailed(
    ns: string,
    step: number,
    id: string,
    name: string,
    writes: [string, unknown][],
    error: { message: string; name: string },
  ): void {
    if (name === START) return
    const graph = this.graphAt(ns)
    if (writes.length > 0) this.emit(ns, 'updates', updatesOf(graph, name, writes))
    this.taskResult(ns, step, { id, name, result: resultOf(graph, writes), interrupts: [], error })
  }

  private taskInterrupted(ns: string, id: string, name: string, interrupts: Interrupt[]): void {
    // LangGraph records nothing for a task paused by a breakpoint inside its subgraph.
    if (interrupts.length === 0 || name === START) return
    const list = interrupts.map(({ id: iid, value }) => ({ id: iid, value }))
    this.emit(ns, 'updates', { [INTERRUPT]: list })
    this.emit(ns, 'values', { [INTERRUPT]: list })
    const info = this.tasks.get(ns)?.get(id)
    this.taskResult(ns, info?.step ?? 0, { id, name, result: {}, interrupts: list, error: null })
  }

  private taskResult(ns: string, step: number, payload: Record<string, unknown>): void {
    this.emit(ns, 'tasks', payload)
    this.debug(ns, step, 'task_result', payload)
  }

  /**
   * `messages`: what LangGraph's StreamMessagesHandler sends for a task, before its update:
   * the messages of its output that LangChain holds as message objects (a model's reply, a
   * tools node's tool messages, the messages of a subgraph's add_messages fields), each once.
   */
  private messages(ns: string, graph: CompiledGraph, t: TaskInfo, writes: [string, unknown][]) {
    const node = graph.spec.nodes.find((n) => n.id === t.name)
    if (!node) return
    const kind = nodeKind(node)
    if (kind !== 'model' && kind !== 'tools' && kind !== 'graph') return
    const fields =
      kind === 'graph'
        ? new Set(graph.spec.state.filter(holdsMessages).map((f) => f.name))
        : new Set([messagesFieldOf(node)])
    const metadata = { tags: [], name: t.name, ...this.taskMetadata(ns, t) }
    for (const [ch, v] of writes) {
      if (!fields.has(ch)) continue
      for (const m of Array.isArray(v) ? v : [v]) {
        if (!isMessageLike(m)) continue
        const id = typeof m.id === 'string' ? m.id : undefined
        if (id !== undefined && this.seen.has(id)) continue
        if (id !== undefined) this.seen.add(id)
        this.emit(ns, 'messages', [m, metadata])
      }
    }
  }

  /**
   * `messages`: a piece of a model's reply as LangGraph's handleLLMNewToken sends it, an
   * AIMessageChunk (`type: "AIMessageChunk"`, as LangGraph's servers send one) with the
   * reply's id, which then counts as seen: the whole reply is not sent again when the task ends.
   */
  private delta(ns: string, p: Extract<StreamPoint, { type: 'delta' }>): void {
    if (!this.modes.has('messages')) return
    const t = this.tasks.get(ns)?.get(p.taskId)
    if (!t) return
    const model = this.graphAt(ns)?.spec.nodes.find((n) => n.id === t.name)?.model
    const { content, tool_call_chunks: calls } = p.delta
    const chunk = {
      type: 'AIMessageChunk',
      content: content ?? '',
      id: p.messageId,
      ...(calls && calls.length > 0 && { tool_call_chunks: calls.map((c) => ({ ...c })) }),
    }
    this.seen.add(p.messageId)
    const metadata = {
      tags: [],
      ...this.taskMetadata(ns, t),
      ls_model_type: 'chat',
      ...(model && { ls_provider: model.provider }),
      ...(model?.provider === 'openai' && { ls_model_name: model.model }),
    }
    this.emit(ns, 'messages', [chunk, metadata])
  }

  /** What LangGraph puts in the metadata of a task's runs (`langgraph_*`, the namespace). */
  private taskMetadata(ns: string, t: TaskInfo) {
    const taskNs = taskNamespace(ns, t.checkpointId, t.id, t.name)
    return {
      thread_id: this.o.threadId,
      langgraph_step: t.step,
      langgraph_node: t.name,
      langgraph_triggers: t.triggers,
      langgraph_path: pathOf(t),
      langgraph_checkpoint_ns: taskNs,
      checkpoint_ns: taskNs,
    }
  }

  /** A task's input messages count as seen (LangGraph's handleChainStart). */
  private seeInput(graph: CompiledGraph, input: unknown): void {
    if (!this.modes.has('messages') || typeof input !== 'object' || input === null) return
    for (const f of graph.spec.state) {
      if (!holdsMessages(f)) continue
      const v = (input as Record<string, unknown>)[f.name]
      for (const m of Array.isArray(v) ? v : [v])
        if (isMessageLike(m) && typeof m.id === 'string') this.seen.add(m.id)
    }
  }

  /** A checkpoint's config as LangGraph's `formatConfig` shows the parts Superstep has. */
  private config(ns: string, checkpointId: string) {
    return {
      configurable: {
        checkpoint_ns: ns,
        ...this.o.configurable,
        thread_id: this.o.threadId,
        checkpoint_id: checkpointId,
      },
      metadata: { thread_id: this.o.threadId },
      recursion_limit: this.o.recursionLimit,
      tags: [],
    }
  }

  /** LangGraph's `checkpoint_map`: each enclosing graph's latest checkpoint, by namespace. */
  private parents(ns: string): Record<string, string> {
    if (ns === '') return {}
    const out: Record<string, string> = {}
    const parts = ns.split(NS_SEPARATOR)
    for (let i = 0; i < parts.length; i++) {
      const outer = parts.slice(0, i).join(NS_SEPARATOR)
      if (i > 0 && /^\d+$/.test(parts[i - 1] as string)) continue
      const id = this.latest.get(outer)
      if (id !== undefined) out[outer] = id
    }
    return out
  }

  private graphAt(ns: string): CompiledGraph | undefined {
    return ns === '' ? this.graph : graphAtNamespace(this.graph, ns)
  }
}
