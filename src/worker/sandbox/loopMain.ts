/**
 * The loop beside the code: the program a sandbox evaluates for a `runLoop` request (built as
 * one script by vite.config.ts's `virtual:sandbox-loop`, see loopProtocol.ts). It runs the
 * graph's Pregel loop here, in the sandbox's realm, over a saver that relays every call to
 * the worker. The user's code still runs exactly as it does for the worker: the same
 * sandboxMain serves it, and the same SandboxCodeHost calls it, over a MessageChannel within
 * this thread instead of one between threads, so replies, errors, logs and time limits are
 * the same; only the hop between two threads per call is gone.
 */
import type {
  ChannelVersions,
  Checkpoint,
  CheckpointAddress,
  CheckpointConfig,
  CheckpointMetadata,
  CheckpointSaver,
  CheckpointTuple,
} from '../../core/checkpoint/types'
import { foldWrites } from '../../core/channels/binaryOperatorAggregate'
import { compileGraph } from '../../core/compile/compileGraph'
import { routerState } from '../../core/compile/fusedRoutes'
import { nextAnswer } from '../../core/pregel/interrupt'
import type { LoopEvent } from '../../core/pregel/loop'
import { GraphRuntime } from '../../core/pregel/runtime'
import { Command, reviveControl, Send } from '../../core/pregel/types'
import { namedReducers } from '../../core/reducers/named'
import { systemEnv } from '../../lib/env'
import { toLogValue } from './logValue'
import {
  packError,
  type LoopAlive,
  type LoopApi,
  type LoopBatch,
  type LoopStep,
  type LoopOp,
  type PackedEvent,
  type LoopStartRequest,
} from './loopProtocol'
import { SandboxCodeHost, type SandboxPort } from './sandboxHost'
import { sandboxMain, type SandboxServePort } from './sandboxMain'
import { SANDBOX_PORT_MESSAGE } from './sandboxProtocol'

/** Starts the run of `api.request`; everything it does reaches the host in LoopBatches. */
export function startLoop(api: LoopApi): void {
  void runLoop(api)
}

async function runLoop(api: LoopApi): Promise<void> {
  const req = api.request
  let allow = req.allow
  let wake: (() => void) | undefined
  api.onControl((c) => {
    allow = c.allow
    wake?.()
  })
  let lastPost = now()
  const post = (m: LoopBatch | LoopAlive) => {
    lastPost = now()
    api.post(m)
  }
  // The host's clock on this run: a message at least this often while code runs.
  const aliveEvery = Math.max(50, req.timeoutMs / 4)
  const host = new SandboxCodeHost(
    codePort(() => {
      if (now() - lastPost >= aliveEvery) post({ id: req.id, kind: 'loopAlive' })
    }),
    { timeoutMs: req.timeoutMs },
  )
  const ops: LoopOp[] = []
  const saver = new RelaySaver(req, ops)
  const env = { ...systemEnv, newId: pooledUuid() }
  const graph = compileGraph(req.spec, {
    evaluate: (_code, ref) => {
      throw new Error(`BUG: the ${ref.kind} code of \`${ref.owner}\` must run in the sandbox.`)
    },
    newId: env.newId,
    host,
    models: {
      call: () => Promise.reject(new Error('BUG: a model node does not run beside the code.')),
    },
  })
  // Done steps wait to be posted together (a post out of this process costs more than a
  // step), but never across a change of the nodes that run: a step that runs a node other
  // than the last step's has everything before it posted first, so code that then hangs this
  // thread (a `while (true)`) is found in its own node with every step before it saved. A
  // node that hangs in a later round of a cycle may lose the last BATCH_MS of its rounds.
  let steps: LoopStep[] = []
  let firstAt = 0
  // Posts what waits once this thread turns (code awaiting a timer or a promise): a message
  // to itself, not a timer (the prelude counts those as the user's, see timersPending).
  const soon = new MessageChannel()
  let armed = false
  soon.port1.onmessage = () => {
    armed = false
    flush(true)
  }
  const arm = () => {
    if (armed) return
    armed = true
    soon.port2.postMessage(null)
  }
  // The step under way, if any (its ops so far are `ops`).
  let stepping = false
  /**
   * Posts the done steps; with `partly`, also what the step under way did so far (its code
   * waits: the page then shows which nodes run, as it does for the loop in the worker).
   */
  const flush = (partly = false) => {
    if (partly && stepping && ops.length > 0) steps.push({ n, ops: ops.splice(0), partial: true })
    if (steps.length === 0) return
    const batch = steps
    steps = []
    post({ id: req.id, kind: 'loop', steps: batch })
  }
  let lastNodes = ''
  const runtime = new GraphRuntime({
    graph,
    saver,
    env,
    onEvent: (e) => {
      if (e.type === 'step_started' && e.ns === undefined) {
        const nodes = e.tasks.map((t) => t.name).join('\n')
        if (nodes !== lastNodes) flush()
        lastNodes = nodes
        stepping = true
        arm()
      }
      ops.push(['event', packEvent(e)])
    },
  })
  let n = 0
  const pending = api.timersPending ?? (() => false)
  const done = (extra: Omit<LoopStep, 'n' | 'ops'>, last = false) => {
    stepping = false
    if (steps.length === 0) firstAt = now()
    steps.push({ n, ops: ops.splice(0), ...extra, ...(pending() && { leftover: true }) })
    if (last || n >= allow || now() - firstAt >= BATCH_MS) flush()
    else arm()
  }
  try {
    const run = await runtime.start(reviveControl(req.input), req.config)
    done({})
    for (;;) {
      n += 1
      // The only wait of the loop besides its code's: a timer that code left pending runs
      // here first (or in the code's own waits), never between two steps that need none.
      while (n > allow) await new Promise<void>((resolve) => (wake = resolve))
      wake = undefined
      const status = await run.tick()
      const over = status !== 'running'
      done({ status, ...(status === 'interrupted' && { interrupts: run.interrupts }) }, over)
      if (over) return
    }
  } catch (e) {
    done({ error: packError(e) }, true)
  } finally {
    flush()
    soon.port1.close()
    host.dispose()
  }
}

const now = (): number => performance.now()

/** `map`'s entries at `keys` (those it has). */
function pick<V>(map: Record<string, V>, keys: Iterable<string>): Record<string, V> {
  const out: Record<string, V> = {}
  for (const k of keys) if (k in map) out[k] = map[k] as V
  return out
}

/** How long done steps may wait to be posted together (ms). */
const BATCH_MS = 2

/**
 * Version 4 UUIDs, as `crypto.randomUUID` makes them (the sandbox's origin is opaque, so the
 * prelude rebuilds that from `getRandomValues`, one call per id): here from a pool of random
 * bytes refilled 256 ids at a time, a step makes several.
 */
function pooledUuid(): () => string {
  const pool = new Uint8Array(16 * 256)
  let at = pool.length
  const hex = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'))
  return () => {
    if (at === pool.length) {
      crypto.getRandomValues(pool)
      at = 0
    }
    const b = pool.subarray(at, (at += 16))
    b[6] = (b[6]! & 0x0f) | 0x40
    b[8] = (b[8]! & 0x3f) | 0x80
    let s = ''
    for (let i = 0; i < 16; i++) {
      s += hex[b[i]!]
      if (i === 3 || i === 5 || i === 7 || i === 9) s += '-'
    }
    return s
  }
}

/**
 * A sandboxMain of its own, serving on one end of a port pair in this realm; returns the other
 * end for a SandboxCodeHost, calling `traffic` on each message either way (a call's `started`
 * says that code runs). A message is copied (structured clone, as between threads: code never
 * shares an object with the loop) and delivered in a microtask: no task, and no trip through
 * the browser's message pipes, per call.
 */
function codePort(traffic: () => void): SandboxPort {
  let open = true
  const end = () => {
    let handler: ((e: MessageEvent) => void) | null = null
    return {
      get onmessage() {
        return handler
      },
      set onmessage(h: ((e: MessageEvent) => void) | null) {
        handler = h
      },
      onmessageerror: null as ((e: MessageEvent) => void) | null,
      deliver(message: unknown) {
        traffic()
        // A message that does not clone throws here, as postMessage does, to its sender.
        const data = structuredClone(message)
        queueMicrotask(() => open && handler?.({ data } as MessageEvent))
      },
    }
  }
  const host = end()
  const sandbox = end()
  let listener: ((e: { data: unknown; ports: readonly SandboxServePort[] }) => void) | undefined
  const reducers = namedReducers()
  const lib = { Send, Command, nextAnswer, foldWrites, toLogValue, routerState, reducers }
  // Without the prelude's count of timers: here that count holds the host's own clocks (a
  // timer a call, pending until its reply is handled), so every reply would say `leftover`
  // and every call wait for a `started`. A timer the user's code left pending is told to the
  // worker with the step instead (LoopStep's `leftover`).
  sandboxMain({ addEventListener: (_type, l) => void (listener = l) }, lib)
  const served: SandboxServePort = {
    postMessage: (m: unknown) => host.deliver(m),
    get onmessage() {
      return sandbox.onmessage
    },
    set onmessage(h) {
      sandbox.onmessage = h
    },
  }
  listener?.({ data: { type: SANDBOX_PORT_MESSAGE }, ports: [served] })
  return {
    postMessage(message: unknown) {
      sandbox.deliver(message)
    },
    get onmessage() {
      return host.onmessage
    },
    set onmessage(h) {
      host.onmessage = h
    },
    get onmessageerror() {
      return host.onmessageerror
    },
    set onmessageerror(h) {
      host.onmessageerror = h ?? null
    },
    close() {
      open = false
    },
  }
}

/** A loop event as it can be posted: a failed task's error in its wire form. */
function packEvent(e: LoopEvent): PackedEvent {
  return e.type === 'task_failed' ? { ...e, error: packError(e.error) } : e
}

/**
 * The saver of a run beside the code: reads what the worker seeded (see LoopStartRequest),
 * and relays each write as an op, copied at once (the loop goes on with its objects).
 */
class RelaySaver implements CheckpointSaver {
  readonly incremental: boolean

  constructor(
    private readonly req: Pick<LoopStartRequest, 'seed' | 'incremental' | 'config'>,
    private readonly ops: LoopOp[],
  ) {
    this.incremental = req.incremental
  }

  put(
    config: CheckpointConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
    changedSeen?: ReadonlySet<string>,
  ): Promise<CheckpointAddress> {
    // What the loop goes on changing is copied now (values and seen entries it replaces,
    // never mutates; the batch's post makes the deep copy). To an incremental saver, only
    // what changed: the versions of `newVersions`' channels and the seen entries of
    // `changedSeen`'s nodes (remoteRun.ts keeps the whole maps from them), so a step costs
    // the wire what it changed, not the size of the graph.
    const cv = checkpoint.channel_versions
    const vs = checkpoint.versions_seen
    const copy: Checkpoint = changedSeen
      ? {
          ...checkpoint,
          channel_versions: pick(cv, Object.keys(newVersions)),
          versions_seen: pick(vs, changedSeen),
        }
      : { ...checkpoint, channel_versions: { ...cv }, versions_seen: { ...vs } }
    const seen = changedSeen ? [...changedSeen] : null
    this.ops.push(['put', { ...config }, copy, { ...metadata }, { ...newVersions }, seen])
    const ns = config.checkpointNs ?? ''
    const { threadId } = config
    const id = checkpoint.id
    return Promise.resolve(
      ns === '' ? { threadId, checkpointId: id } : { threadId, checkpointId: id, checkpointNs: ns },
    )
  }

  putWrites(config: CheckpointAddress, writes: [string, unknown][], taskId: string) {
    this.ops.push(['writes', { ...config }, [...writes], taskId])
    return Promise.resolve()
  }

  getTuple(config: CheckpointConfig): Promise<CheckpointTuple | undefined> {
    const { at, head } = this.req.seed
    if (config.checkpointId !== undefined) {
      return Promise.resolve(at?.checkpoint.id === config.checkpointId ? at : undefined)
    }
    return Promise.resolve(this.req.config.checkpointId !== undefined ? head : at)
  }

  // eslint-disable-next-line require-yield
  async *list(): AsyncIterable<CheckpointTuple> {
    throw new Error('BUG: a run beside the code lists no checkpoints.')
  }

  deleteThread(): Promise<void> {
    return Promise.reject(new Error('BUG: a run beside the code deletes no thread.'))
  }
}
