import { mark } from './stepProfile'
import { compileGraph, type CompiledGraph } from '../core/compile/compileGraph'
import type { CodeEvaluator } from '../core/compile/evaluate'
import type { CodeHost } from '../core/compile/host'
import type { GraphSpec } from '../core/graph/schema'
import { parseGraph } from '../core/graph/validate'
import { GraphRuntime } from '../core/pregel/runtime'
import type { RuntimeWarning } from '../core/pregel/task'
import { Command, Send } from '../core/pregel/types'
import { systemEnv, type RuntimeEnv } from '../lib/env'
import { CodeChecks } from './codeChecks'
import { checkDocument } from './compile'
import { inspectStored, readTimeline, subgraphAt } from './debugReads'
import { toWorkerError, WorkerRequestError } from './errors'
import { EventBatcher } from './eventBatcher'
import { toJsonSafe } from './jsonSafe'
import { networkOffModels, OpenAiProvider } from './openaiProvider'
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
import { runningElsewhere, type ThreadLocks } from './threadLocks'
import { RunRegistry } from './runs'
import { SandboxPool, type PooledHost, type SandboxLease } from './sandboxPool'
import type { WorkerStorage } from './storage'
import {
  createThread,
  listThreadInfos,
  renameThread,
  repairThread,
  setThreadSettings,
} from './threads'
import { exportThread, ThreadTransfers } from './threadTransfer'
import { pendingInterruptsOf } from './runEvents'
import { runsBeside } from './remoteRun'
import { DEFAULT_SANDBOX_TIMEOUT_MS } from '../core/compile/host'
import type { Timer } from './timer'
import type { ChatModelProvider } from '../core/compile/kinds'

export type { WorkerSaver, WorkerStorage } from './storage'

export interface RuntimeServiceOptions {
  /** Posts to the page (`self.postMessage` in the worker). */
  post: (m: WorkerMessage) => void
  /** Opens the database: checkpoints, named threads, task runs (`openDexieStorage`). */
  openStorage: (dbName: string) => WorkerStorage
  /**
   * Makes the host of one fresh sandbox (a SandboxCodeHost without a port yet: its calls wait
   * for the port the page sends); `timeoutMs` is init's `sandboxTimeoutMs`.
   */
  makeSandboxHost: (o: { timeoutMs?: number; onHung: () => void }) => PooledHost
  env?: RuntimeEnv
  timer?: Timer
  batchIntervalMs?: number
  /** Tests only: evaluates code locally where core would (it never does with a host). */
  evaluate?: CodeEvaluator
  /** The chat-completions client (default: one over the worker's `fetch`). */
  models?: OpenAiProvider
  /** One run per thread across tabs (the worker's Web Locks; absent: no other tabs). */
  locks?: ThreadLocks
  /**
   * The loop program of runs beside the code (remoteRun.ts), loaded on first use; default
   * `virtual:sandbox-loop`. False: every run's loop runs here, calling the sandbox per code.
   */
  loopProgram?: (() => Promise<string>) | false
}

type Handlers = { [K in RequestType]: (p: ParamsOf<K>) => Promise<ResultOf<K>> | ResultOf<K> }

/** A compiled graph: its spec (each run binds it to a sandbox of its own) and its reads. */
interface GraphEntry {
  spec: GraphSpec
  allowNetwork: boolean
  /** Bound to `reads`, for the requests that only read the thread. */
  graph: CompiledGraph
  reads: Pick<SandboxLease, 'release'>
  /** Compiled for reading only (`compileForReading`): its runs and updates are refused. */
  readOnly?: true
}

/**
 * Everything the runtime worker does, over an injected saver factory, sandbox connector
 * and post function: the only writer of checkpoints, the owner of compiled graphs and runs.
 * `runtime.worker.ts` wires it to `self`; tests drive it over a MessageChannel.
 */
export class RuntimeService {
  private stored: WorkerStorage | undefined
  private dbName: string | undefined
  private runs: RunRegistry | undefined
  private checks: CodeChecks | undefined
  private readonly graphs = new Map<string, GraphEntry>()
  private readonly sandboxes: SandboxPool
  private sandboxTimeoutMs: number | undefined
  private readonly batcher: EventBatcher
  private readonly env: RuntimeEnv
  /** Holds the API keys (memory only); model nodes call it from the trusted runtime. */
  private readonly models: OpenAiProvider
  private readonly transfers: ThreadTransfers
  private loopProgram: Promise<string | undefined> | undefined

  constructor(private readonly o: RuntimeServiceOptions) {
    this.env = o.env ?? systemEnv
    this.transfers = new ThreadTransfers({
      storage: () => this.storage(),
      emit: (e) => this.emit(e),
      env: () => this.env,
      ...(o.locks && { locks: o.locks }),
    })
    this.models = o.models ?? new OpenAiProvider()
    this.sandboxes = new SandboxPool({
      emit: (e) => this.emit(e),
      newId: this.env.newId,
      makeHost: ({ onHung }) => o.makeSandboxHost({ timeoutMs: this.sandboxTimeoutMs, onHung }),
    })
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

  /** How many sandboxes the worker holds (asked for or running). */
  get sandboxCount(): number {
    return this.sandboxes.size
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
      mark(`request.${data.type}<`)
      const result = await handler(data.params)
      mark(`request.${data.type}>`)
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
      this.checks = new CodeChecks(stored.codeChecks)
      this.dbName = name
      this.sandboxTimeoutMs = sandboxTimeoutMs
      this.runs = new RunRegistry({
        saver: stored.saver,
        recordTaskRuns: (rows) => stored.taskRuns.record(rows),
        env: this.env,
        timer: this.o.timer,
        emit: (e) => this.emit(e),
        sandboxRestarted: (threadIds) =>
          this.emit({ type: 'sandbox_hung', reason: 'stopped', threadIds }),
        ...(this.o.locks && { locks: this.o.locks }),
      })
      void this.transfers.sweep().catch(() => {}) // retried by every listThreads
      return { dbName: name }
    },
    sandboxPort: ({ sandboxId, port }) => {
      const connected = this.sandboxes.connect(sandboxId, port)
      if (!connected) port.close()
      return { connected }
    },
    compile: async ({ graph, options }) => {
      // The checks evaluate the document's code: in a sandbox of its own network mode, used
      // by nothing else and destroyed after them.
      const allowNetwork = options?.allowNetwork === true
      // Code checked before (this graph opened again, or edited elsewhere than its code) is
      // not asked again: with nothing to ask, no sandbox starts.
      const known = await this.codeChecks().known(allowNetwork)
      const checks = this.sandboxes.lease(allowNetwork)
      const r = await checkDocument(graph, checks, known).finally(() => checks.release())
      if (!r.ok) return r
      const graphId = this.env.newId()
      const reads = this.sandboxes.lease(allowNetwork)
      const compiled = this.bind({ spec: r.spec, allowNetwork }, reads)
      this.graphs.set(graphId, { spec: r.spec, allowNetwork, reads, graph: compiled })
      return { ok: true, graphId, issues: r.issues }
    },
    compileForReading: ({ graph }) => {
      // No code is checked or run: its thread's checkpoints are read as they were written.
      const parsed = parseGraph(graph)
      const spec = parsed.ok ? parsed.spec : parsed.wellFormed
      if (!spec) return { graphId: null }
      let compiled: CompiledGraph
      try {
        compiled = this.bind({ spec, allowNetwork: false }, refusingHost)
      } catch {
        return { graphId: null } // its problems are in its shape: no reading of it either
      }
      const graphId = this.env.newId()
      this.graphs.set(graphId, {
        spec,
        allowNetwork: false,
        reads: { release: () => undefined },
        graph: compiled,
        readOnly: true,
      })
      return { graphId }
    },
    releaseGraph: ({ graphId }) => {
      const entry = this.graphs.get(graphId)
      entry?.reads.release()
      return { released: this.graphs.delete(graphId) }
    },
    setModelKeys: ({ keys }) => {
      this.models.setKeys(isKeyMap(keys) ? keys : {})
      return { count: this.models.keyCount }
    },
    run: async (p) => {
      const entry = this.runnable(p.graphId)
      // Run to the end, unwatched: its loop goes beside its code, where it can (remoteRun.ts).
      const beside =
        p.mode === 'toEnd' && !entry.allowNetwork && runsBeside(entry.spec)
          ? !this.registry().isWatched(p.threadId) && (await this.loopSource())
          : undefined
      // Every run gets a fresh sandbox: no timer or global left by an earlier run is there.
      const sandbox = this.sandboxes.lease(entry.allowNetwork)
      sandbox.threadIds = [p.threadId]
      // The run's end (a stop included) also abandons a model request under way, at once.
      const stopper = new AbortController()
      return this.registry().start(p.threadId, {
        graph: this.bind(entry, sandbox, stopper.signal),
        sandbox: {
          get busy() {
            return sandbox.busy
          },
          release: () => {
            stopper.abort()
            sandbox.release()
          },
        },
        graphId: p.graphId,
        input: p.command ? toCommand(p.command) : p.input,
        config: {
          threadId: p.threadId,
          checkpointId: p.checkpointId,
          recursionLimit: p.recursionLimit,
          interruptBefore: p.interruptBefore,
          interruptAfter: p.interruptAfter,
          configurable: p.configurable,
        },
        timeoutMs: p.timeoutMs,
        mode: p.mode,
        ...(beside && {
          beside: {
            source: beside,
            spec: entry.spec,
            callTimeoutMs: this.sandboxTimeoutMs ?? DEFAULT_SANDBOX_TIMEOUT_MS,
            open: (request, handlers) => sandbox.startLoop(request, handlers),
            destroy: () => sandbox.hang(),
          },
        }),
      })
    },
    continue: ({ threadId, mode }) => this.registry().continue(threadId, mode),
    pause: ({ threadId }) => ({ pausing: this.registry().pause(threadId) }),
    stop: ({ threadId }) => this.registry().stop(threadId),
    watchStream: ({ threadId, on, modes }) => ({
      watching: this.registry().watchStream(threadId, on, modes),
    }),
    updateState: async ({ graphId, threadId, checkpointId, checkpointNs, values, asNode }) => {
      this.registry().assertIdle(threadId)
      const warnings: RuntimeWarning[] = []
      const entry = this.runnable(graphId)
      // A custom reducer may run: in a sandbox of this update's own.
      const sandbox = this.sandboxes.lease(entry.allowNetwork)
      try {
        const runtime = this.runtime(this.bind(entry, sandbox), (w) => warnings.push(w))
        const address = { threadId, checkpointId, ...(checkpointNs && { checkpointNs }) }
        const config = await runtime.updateState(address, values, asNode)
        return { threadId: config.threadId, checkpointId: config.checkpointId, warnings }
      } finally {
        sandbox.release()
      }
    },
    getState: async ({ graphId, threadId, checkpointId }) => {
      const s = await this.runtime(this.graph(graphId)).getState({ threadId, checkpointId })
      return s ? toJsonSafe(s) : null
    },
    pendingInterrupts: async ({ graphId, threadId }) => {
      const runtime = this.runtime(this.graph(graphId))
      const snapshot = await runtime
        .getState({ threadId }, { subgraphs: true })
        .catch(() => runtime.getState({ threadId }))
      return pendingInterruptsOf(snapshot)
    },
    getHistory: async ({ graphId, threadId, limit, before }) =>
      toJsonSafe(
        await this.runtime(this.graph(graphId)).getStateHistory({ threadId }, { limit, before }),
      ),
    inspectCheckpoint: ({ graphId, threadId, checkpointId, checkpointNs }) =>
      inspectStored(subgraphAt(this.graph(graphId), checkpointNs), this.storage(), {
        threadId,
        checkpointId,
        ...(checkpointNs && { checkpointNs }),
      }),
    getTimeline: ({ graphId, threadId, limit, before, checkpointNs }) =>
      readTimeline(subgraphAt(this.graph(graphId), checkpointNs), this.storage(), {
        threadId,
        limit,
        before,
        ...(checkpointNs && { checkpointNs }),
      }),
    listThreads: async ({ graph }) => {
      await this.transfers.sweep() // interrupted imports first: they are no thread to list
      return listThreadInfos(this.storage(), graph)
    },
    createThread: (p) => createThread(this.storage(), p, this.env.now()),
    renameThread: (p) => renameThread(this.storage(), p, this.env.now()),
    setThreadSettings: (p) => setThreadSettings(this.storage(), p, this.env.now()),
    deleteThread: async ({ threadId }) => {
      this.registry().assertIdle(threadId)
      // A run of another tab's keeps its thread: never deleted from under it.
      const unlock = this.o.locks ? await this.o.locks.hold(threadId) : () => undefined
      if (!unlock) throw runningElsewhere(threadId, 'delete it')
      try {
        await this.storage().saver.deleteThread(threadId)
      } finally {
        unlock()
      }
      return { deleted: true }
    },
    repairThread: ({ threadId }) => {
      this.registry().assertIdle(threadId)
      return repairThread(this.storage(), threadId, this.env.now())
    },
    exportThread: ({ threadId }) => exportThread(this.storage(), threadId),
    exportThreadFile: (p) => this.transfers.exportFile(p),
    readThreadFile: (p) => this.transfers.readFile(p),
    importThread: (p) => {
      this.registry().assertIdle(p.threadId)
      return this.transfers.importFile(p)
    },
    cancelTransfer: ({ threadId }) => this.transfers.cancel(threadId),
  }

  private storage(): WorkerStorage {
    if (!this.stored) throw notInitialized()
    return this.stored
  }

  private codeChecks(): CodeChecks {
    if (!this.checks) throw notInitialized()
    return this.checks
  }

  private registry(): RunRegistry {
    if (!this.runs) throw notInitialized()
    return this.runs
  }

  private graph(graphId: string): CompiledGraph {
    return this.entry(graphId).graph
  }

  private entry(graphId: string): GraphEntry {
    const entry = this.graphs.get(graphId)
    if (!entry) {
      throw new WorkerRequestError(
        'UNKNOWN_GRAPH',
        `No compiled graph ${graphId}: compile the graph (again) first.`,
        'UnknownGraphError',
      )
    }
    return entry
  }

  /** A graph compiled to run: one compiled for reading only is refused. */
  private runnable(graphId: string): GraphEntry {
    const entry = this.entry(graphId)
    if (entry.readOnly) {
      throw new WorkerRequestError(
        'READ_ONLY_GRAPH',
        `Graph ${graphId} was compiled for reading only (it has problems, or is not trusted): it cannot run or change a thread.`,
        'ReadOnlyGraphError',
      )
    }
    return entry
  }

  /** The loop program of runs beside the code; undefined when off or it cannot be loaded. */
  private loopSource(): Promise<string | undefined> {
    const load = this.o.loopProgram ?? (() => import('./loopProgram').then((m) => m.loopProgram))
    if (load === false) return Promise.resolve(undefined)
    this.loopProgram ??= load().catch(() => {
      this.loopProgram = undefined // another run tries again
      return undefined
    })
    return this.loopProgram
  }

  /**
   * The graph with its code run in `host`; model nodes reach their endpoints only when the
   * graph's Network setting allows it.
   */
  private bind(
    entry: Pick<GraphEntry, 'spec' | 'allowNetwork'>,
    host: CodeHost,
    stopped?: AbortSignal,
  ): CompiledGraph {
    const models: ChatModelProvider = { call: (r) => this.models.call(r, stopped) }
    return compileGraph(entry.spec, {
      evaluate: this.o.evaluate ?? refuseLocalEvaluation,
      newId: this.env.newId,
      host,
      models: entry.allowNetwork ? models : networkOffModels,
    })
  }

  private runtime(graph: CompiledGraph, warn?: (w: RuntimeWarning) => void): GraphRuntime {
    return new GraphRuntime({
      graph,
      saver: this.storage().saver,
      env: this.env,
      onEvent: (e) => e.type === 'warning' && warn?.(e.warning),
    })
  }
}

/** The code host of a graph compiled for reading: its code never runs. */
const refusingHost: CodeHost = {
  runNode: () => Promise.reject(readOnlyCode()),
  runRouter: () => Promise.reject(readOnlyCode()),
  foldReducer: () => Promise.reject(readOnlyCode()),
  check: () => Promise.reject(readOnlyCode()),
}

function readOnlyCode(): Error {
  return new Error('BUG: a graph compiled for reading only has no code to run.')
}

/**
 * The worker never evaluates user code in its own realm: bound to a host, compileGraph sends
 * every piece of code there, so this is only reached by a bug.
 */
const refuseLocalEvaluation: CodeEvaluator = (_code, ref) => {
  throw new Error(`BUG: the ${ref.kind} code of \`${ref.owner}\` must run in the sandbox.`)
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
