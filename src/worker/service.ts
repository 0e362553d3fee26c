import type { CompiledGraph } from '../core/compile/compileGraph'
import type { CodeEvaluator } from '../core/compile/evaluate'
import type { CodeHost } from '../core/compile/host'
import { GraphRuntime } from '../core/pregel/runtime'
import type { RuntimeWarning } from '../core/pregel/task'
import { Command, Send } from '../core/pregel/types'
import { systemEnv, type RuntimeEnv } from '../lib/env'
import { compileDocument } from './compile'
import { inspectStored, readTimeline } from './debugReads'
import { DeferredCodeHost } from './deferredHost'
import { toWorkerError, WorkerRequestError } from './errors'
import { EventBatcher } from './eventBatcher'
import { toJsonSafe } from './jsonSafe'
import { OpenAiProvider } from './openaiProvider'
import {
  isWorkerRequest,
  type CommandJson,
  type SendJson,
  type ParamsOf,
  type RequestType,
  type ResultOf,
  type WorkerEvent,
  type WorkerMessage,
} from './protocol'
import { RunRegistry } from './runs'
import type { WorkerStorage } from './storage'
import { createThread, listThreadInfos, renameThread } from './threads'
import { exportThread, importThread } from './threadTransfer'
import type { Timer } from './timer'

export type { WorkerSaver, WorkerStorage } from './storage'

export interface RuntimeServiceOptions {
  /** Posts to the page (`self.postMessage` in the worker). */
  post: (m: WorkerMessage) => void
  /** Opens the database: checkpoints, named threads, task runs (`openDexieStorage`). */
  openStorage: (dbName: string) => WorkerStorage
  /** Makes (first port) or repoints (later ports) the sandbox's CodeHost. */
  connectSandbox: (port: MessagePort, options: { timeoutMs?: number }) => CodeHost
  env?: RuntimeEnv
  timer?: Timer
  /** How long code waits for a sandbox before failing (default 5 s). */
  sandboxWaitMs?: number
  batchIntervalMs?: number
  /** Tests only: evaluates code locally where core would (it never does with a host). */
  evaluate?: CodeEvaluator
  /** The chat-completions client (default: one over the worker's `fetch`). */
  models?: OpenAiProvider
}

type Handlers = { [K in RequestType]: (p: ParamsOf<K>) => Promise<ResultOf<K>> | ResultOf<K> }

/**
 * Everything the runtime worker does, over an injected saver factory, sandbox connector
 * and post function: the only writer of checkpoints, the owner of compiled graphs and runs.
 * `runtime.worker.ts` wires it to `self`; tests drive it over a MessageChannel.
 */
export class RuntimeService {
  private stored: WorkerStorage | undefined
  private dbName: string | undefined
  private runs: RunRegistry | undefined
  private readonly graphs = new Map<string, CompiledGraph>()
  private readonly host: DeferredCodeHost
  private sandboxAllowsNetwork: boolean | undefined
  private sandboxSeen = false
  private sandboxTimeoutMs: number | undefined
  private readonly batcher: EventBatcher
  private readonly env: RuntimeEnv
  /** Holds the API keys (memory only); model nodes call it from the trusted runtime. */
  private readonly models: OpenAiProvider

  constructor(private readonly o: RuntimeServiceOptions) {
    this.env = o.env ?? systemEnv
    this.models = o.models ?? new OpenAiProvider()
    this.host = new DeferredCodeHost(o.sandboxWaitMs, o.timer)
    this.batcher = new EventBatcher({
      post: (events) => o.post({ type: 'events', events }),
      intervalMs: o.batchIntervalMs,
      timer: o.timer,
    })
  }

  /** Queues an event for the page. */
  emit(e: WorkerEvent): void {
    this.batcher.push(e)
  }

  /** The sandbox timed out: the page must replace it. */
  sandboxHung(): void {
    this.emit({
      type: 'sandbox_hung',
      reason: 'timeout',
      threadIds: this.runs?.tickingThreads() ?? [],
    })
  }

  /** Handles one message from the page; always answers a request, never throws. */
  async receive(data: unknown): Promise<void> {
    if (!isWorkerRequest(data)) {
      const id = (data as { id?: unknown } | null)?.id
      if (typeof id === 'number')
        this.fail(id, new WorkerRequestError('BAD_REQUEST', 'Not a request.'))
      return
    }
    const handler = Object.hasOwn(this.handlers, data.type)
      ? (this.handlers[data.type] as (p: unknown) => unknown)
      : undefined
    if (!handler) {
      this.fail(
        data.id,
        new WorkerRequestError('BAD_REQUEST', `Unknown request type ${data.type}.`),
      )
      return
    }
    try {
      const result = await handler(data.params)
      this.batcher.flush()
      this.o.post({ type: 'response', id: data.id, ok: true, result } as WorkerMessage)
    } catch (e) {
      this.fail(data.id, e)
    }
  }

  private fail(id: number, e: unknown): void {
    this.batcher.flush()
    this.o.post({ type: 'response', id, ok: false, error: toWorkerError(e) })
  }

  private readonly handlers: Handlers = {
    init: ({ dbName, sandboxTimeoutMs }) => {
      const name = dbName ?? 'superstep'
      if (this.stored) {
        if (name === this.dbName) return { dbName: name }
        throw new WorkerRequestError(
          'ALREADY_INITIALIZED',
          `The worker already uses database ${this.dbName}.`,
        )
      }
      const stored = this.o.openStorage(name)
      this.stored = stored
      this.dbName = name
      this.sandboxTimeoutMs = sandboxTimeoutMs
      const host = this.host
      this.runs = new RunRegistry({
        saver: stored.saver,
        recordTaskRuns: (rows) => stored.taskRuns.record(rows),
        env: this.env,
        timer: this.o.timer,
        emit: (e) => this.emit(e),
        codeRunning: () => host.busy,
        restartSandbox: (threadIds) => {
          host.disconnect()
          this.emit({ type: 'sandbox_hung', reason: 'stopped', threadIds })
        },
      })
      return { dbName: name }
    },
    sandboxPort: ({ port, allowNetwork }) => {
      const replaced = this.sandboxSeen
      this.sandboxSeen = true
      this.sandboxAllowsNetwork = allowNetwork ?? false
      this.host.connect(this.o.connectSandbox(port, { timeoutMs: this.sandboxTimeoutMs }))
      return { replaced }
    },
    compile: async ({ graph, options }) => {
      const r = await compileDocument(graph, {
        host: this.host,
        newId: this.env.newId,
        allowNetwork: options?.allowNetwork,
        sandboxAllowsNetwork: this.sandboxAllowsNetwork,
        evaluate: this.o.evaluate,
        models: this.models,
      })
      if (!r.ok) return r
      const graphId = this.env.newId()
      this.graphs.set(graphId, r.graph)
      return { ok: true, graphId, issues: r.issues }
    },
    releaseGraph: ({ graphId }) => ({ released: this.graphs.delete(graphId) }),
    setModelKeys: ({ keys }) => {
      this.models.setKeys(isKeyMap(keys) ? keys : {})
      return { count: this.models.keyCount }
    },
    run: (p) => {
      const graph = this.graph(p.graphId)
      return this.registry().start(p.threadId, {
        graph,
        graphId: p.graphId,
        input: p.command ? toCommand(p.command) : p.input,
        config: {
          threadId: p.threadId,
          checkpointId: p.checkpointId,
          recursionLimit: p.recursionLimit,
          interruptBefore: p.interruptBefore,
          interruptAfter: p.interruptAfter,
        },
        timeoutMs: p.timeoutMs,
        mode: p.mode,
      })
    },
    continue: ({ threadId, mode }) => this.registry().continue(threadId, mode),
    pause: ({ threadId }) => ({ pausing: this.registry().pause(threadId) }),
    stop: ({ threadId }) => this.registry().stop(threadId),
    updateState: async ({ graphId, threadId, checkpointId, values, asNode }) => {
      this.registry().assertIdle(threadId)
      const warnings: RuntimeWarning[] = []
      const runtime = this.runtime(graphId, (w) => warnings.push(w))
      const config = await runtime.updateState({ threadId, checkpointId }, values, asNode)
      return { ...config, warnings }
    },
    getState: async ({ graphId, threadId, checkpointId }) => {
      const s = await this.runtime(graphId).getState({ threadId, checkpointId })
      return s ? toJsonSafe(s) : null
    },
    getHistory: async ({ graphId, threadId, limit, before }) =>
      toJsonSafe(await this.runtime(graphId).getStateHistory({ threadId }, { limit, before })),
    inspectCheckpoint: ({ graphId, threadId, checkpointId }) =>
      inspectStored(this.graph(graphId), this.storage(), { threadId, checkpointId }),
    getTimeline: ({ graphId, threadId, limit, before }) =>
      readTimeline(this.graph(graphId), this.storage(), { threadId, limit, before }),
    listThreads: ({ graph }) => listThreadInfos(this.storage(), graph),
    createThread: (p) => createThread(this.storage(), p, this.env.now()),
    renameThread: (p) => renameThread(this.storage(), p, this.env.now()),
    deleteThread: async ({ threadId }) => {
      this.registry().assertIdle(threadId)
      await this.storage().saver.deleteThread(threadId)
      return { deleted: true }
    },
    exportThread: ({ threadId }) => exportThread(this.storage(), threadId),
    importThread: (p) => {
      this.registry().assertIdle(p.threadId)
      return importThread(this.storage(), p, this.env.now())
    },
  }

  private storage(): WorkerStorage {
    if (!this.stored) throw notInitialized()
    return this.stored
  }

  private registry(): RunRegistry {
    if (!this.runs) throw notInitialized()
    return this.runs
  }

  private graph(graphId: string): CompiledGraph {
    const graph = this.graphs.get(graphId)
    if (!graph) {
      throw new WorkerRequestError(
        'UNKNOWN_GRAPH',
        `No compiled graph ${graphId}: compile the graph (again) first.`,
        'UnknownGraphError',
      )
    }
    return graph
  }

  private runtime(graphId: string, warn?: (w: RuntimeWarning) => void): GraphRuntime {
    return new GraphRuntime({
      graph: this.graph(graphId),
      saver: this.storage().saver,
      env: this.env,
      onEvent: (e) => e.type === 'warning' && warn?.(e.warning),
    })
  }
}

function notInitialized(): WorkerRequestError {
  return new WorkerRequestError('NOT_INITIALIZED', 'Send `init` before any other request.')
}

/** A Command from its plain form; a goto's `{ node, args }` becomes a Send. */
export function toCommand(c: CommandJson): Command {
  const send = (g: string | SendJson) => (typeof g === 'string' ? g : new Send(g.node, g.args))
  const goto = c.goto
  return new Command({
    ...(c.resume !== undefined && { resume: c.resume }),
    ...(c.update !== undefined && { update: c.update }),
    ...(goto !== undefined && {
      goto: Array.isArray(goto) ? goto.map((g) => send(g)) : send(goto),
    }),
  })
}

function isKeyMap(v: unknown): v is Record<string, string> {
  return (
    typeof v === 'object' &&
    v !== null &&
    !Array.isArray(v) &&
    Object.values(v).every((k) => typeof k === 'string')
  )
}
