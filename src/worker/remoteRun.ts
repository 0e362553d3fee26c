/**
 * The worker's side of a run beside the code (sandbox/loopProtocol.ts): the run's loop goes
 * on in its sandbox, and this replays what each of its super-steps did (saver calls, events,
 * in their order) onto the worker's saver and event sink, one `tick()` a step, so RunRegistry
 * drives it as it drives a Run of its own. Everything the sandbox sends is checked first: it
 * is where the user's code runs, and a step may only ever write the run's own thread.
 */
import type {
  ChannelVersions,
  Checkpoint,
  CheckpointAddress,
  CheckpointConfig,
  CheckpointSaver,
} from '../core/checkpoint/types'
import type { GraphSpec } from '../core/graph/schema'
import type { LoopEvent, RunConfig, RunStatus, TaskInterrupt } from '../core/pregel/loop'
import { TASKS } from '../core/graph/constants'
import { NodeRunError } from '../core/pregel/errors'
import { isSendPacket, reviveControl, Send } from '../core/pregel/types'
import { seconds } from './sandbox/hostErrors'
import {
  unpackError,
  type LoopBatch,
  type LoopStep,
  type LoopOp,
  type LoopStartRequest,
  type PackedError,
} from './sandbox/loopProtocol'
import type { LoopHandlers, LoopSession } from './sandbox/sandboxHost'
import { profiled } from './stepProfile'
import type { Timer } from './timer'

/** How many super-steps the sandbox may run ahead of the ones replayed here. */
const AHEAD = 64

/** What a run beside the code needs of the worker. */
export interface RemoteRunOptions {
  /** The loop program (`virtual:sandbox-loop`). */
  source: string
  spec: GraphSpec
  threadId: string
  input: unknown
  config: RunConfig
  /** The run's saver (its GatedSaver): seeds the loop and takes every write it relays. */
  saver: CheckpointSaver
  onEvent: (e: LoopEvent) => void
  /** Starts the loop in the run's sandbox. */
  open: (request: Omit<LoopStartRequest, 'type' | 'id'>, handlers: LoopHandlers) => LoopSession
  /** Each code call's time limit in the sandbox. */
  callTimeoutMs: number
  /**
   * The run's next super-step as the worker's saver has it: its number and the tasks it
   * runs (what a sandbox that hung is blamed on, as the loop here blames a task).
   */
  nextStep: () => Promise<{ step: number; tasks: { id: string; name: string }[] }>
  /**
   * The sandbox said nothing for longer than a call may take (code that never returns, such
   * as `while (true)`): it must be destroyed.
   */
  destroy: () => void
  timer: Timer
}

/**
 * Whether a graph's runs can go beside the code: not one with subgraphs (their runs read and
 * write checkpoints of their own namespaces) or model nodes (the worker holds the keys and
 * makes the calls).
 */
export function runsBeside(spec: GraphSpec): boolean {
  if (spec.subgraphs && Object.keys(spec.subgraphs).length > 0) return false
  return spec.nodes.every(
    (n) => n.kind === undefined || n.kind === 'code' || n.kind === 'tools' || n.kind === 'human',
  )
}

/** A run whose loop runs in its sandbox, as RunRegistry sees a Run. */
export class RemoteRun {
  interrupts: TaskInterrupt[] = []
  /** Steps (or parts of one) received and not replayed yet, in order. */
  private readonly steps: LoopStep[] = []
  private waiting: { resolve: () => void; reject: (e: Error) => void } | undefined
  private failure: Error | undefined
  private session!: LoopSession
  /** The last step replayed (the start's is 0), and how far the sandbox may go. */
  private replayed = -1
  private allowed = AHEAD
  private watch: unknown = undefined
  /** When the sandbox last said something (timer.now()). */
  private lastHeard = 0
  /** The last root step whose start was replayed here. */
  private started = -2
  /** The last step said user code left a timer pending (it may be what holds the sandbox). */
  private leftover = false

  /** The run's channel versions and versions seen (see `whole`). */
  private versions: ChannelVersions = {}
  private seen: Checkpoint['versions_seen'] = {}

  private constructor(private readonly o: RemoteRunOptions) {}

  /** Starts the loop in the sandbox; resolves once the start's checkpoint is replayed here. */
  static async start(o: RemoteRunOptions): Promise<RemoteRun> {
    const run = new RemoteRun(o)
    const { config, saver } = o
    const at = await saver.getTuple(config)
    const head = config.checkpointId !== undefined ? await saver.getTuple(threadOnly(config)) : at
    if (at) {
      run.versions = { ...at.checkpoint.channel_versions }
      run.seen = { ...at.checkpoint.versions_seen }
    }
    run.session = o.open(
      {
        source: o.source,
        spec: o.spec,
        input: o.input,
        config,
        seed: { at, head },
        incremental: saver.incremental === true,
        timeoutMs: o.callTimeoutMs,
        allow: AHEAD,
      },
      { message: (m) => run.receive(m), gone: (why) => run.fail(gone(why)) },
    )
    try {
      await run.next()
    } catch (e) {
      run.close()
      throw e
    }
    return run
  }

  /** Replays the next super-step the sandbox ran (waiting for it). */
  async tick(): Promise<RunStatus> {
    try {
      const status = await this.next()
      if (status !== 'running') this.close()
      return status
    } catch (e) {
      this.close()
      throw e
    }
  }

  /** Ends the session: later messages from the sandbox are dropped. */
  close(): void {
    this.o.timer.clear(this.watch)
    this.watch = undefined
    this.session.close()
  }

  private async next(): Promise<RunStatus> {
    const n = this.replayed + 1
    if (this.allowed - n < AHEAD / 2) {
      this.allowed = n + AHEAD
      this.session.allow(this.allowed)
    }
    const since = this.o.timer.now()
    let step: LoopStep
    do {
      while (this.steps.length === 0) {
        if (this.failure) throw this.failure
        this.watchWait(since)
        // A bench's timing hook (./stepProfile): the time the worker waits for the sandbox.
        await profiled(
          'beside.wait',
          () => new Promise<void>((resolve, reject) => (this.waiting = { resolve, reject })),
        )
      }
      step = this.steps.shift() as LoopStep
      if (step.n !== n) throw malformed(`step ${step.n} came where ${n} was due`)
      const ops = step.ops
      await profiled('beside.replay', () => this.replay(ops))
      // What a step did so far (its code waits): shown now, the rest of the step to come.
    } while (step.partial)
    this.replayed = n
    if (step.error) throw unpackError(step.error)
    if (step.status === 'interrupted') this.interrupts = step.interrupts ?? []
    return step.status ?? 'running'
  }

  private receive(data: unknown): void {
    this.lastHeard = this.o.timer.now()
    if ((data as { kind?: unknown } | null)?.kind === 'loopAlive') return
    const m = (data ?? {}) as Partial<LoopBatch>
    if (m.kind !== 'loop' || !Array.isArray(m.steps))
      return this.fail(malformed('a message that is not a step'))
    for (const step of m.steps as Partial<LoopStep>[]) {
      const problem = stepProblem(step)
      if (problem) return this.fail(malformed(problem))
      this.leftover = step.leftover === true
      this.steps.push(step as LoopStep)
    }
    this.wake()
  }

  private fail(e: Error): void {
    this.failure ??= e
    this.o.timer.clear(this.watch)
    this.watch = undefined
    const w = this.waiting
    this.waiting = undefined
    w?.reject(this.failure)
  }

  private wake(): void {
    const w = this.waiting
    this.waiting = undefined
    w?.resolve()
  }

  /**
   * While this waits for a step, the sandbox gets a call's time limit, and a second more, to
   * say something (a step, or that code runs); silence counts from the wait's start at the
   * earliest (a paused run's sandbox waits for `allow` and says nothing). One timer a wait,
   * not one a message.
   */
  private watchWait(since: number): void {
    if (this.watch !== undefined || this.failure) return
    const limit = this.o.callTimeoutMs
    const check = () => {
      this.watch = undefined
      if (!this.waiting || this.failure) return
      const quiet = this.o.timer.now() - Math.max(this.lastHeard, since)
      if (quiet < limit + 1000) {
        this.watch = this.o.timer.set(check, limit + 1000 - quiet)
        return
      }
      // The step's tasks fail with the timeout, as a call's timeout fails its task here.
      const hung = ({ step, tasks }: { step: number; tasks: { id: string; name: string }[] }) => {
        const error = hungError(
          tasks.map((t) => t.name),
          limit,
          this.leftover,
        )
        if (this.started !== step) this.o.onEvent({ type: 'step_started', step, tasks })
        for (const t of tasks)
          this.o.onEvent({
            type: 'task_failed',
            step,
            taskId: t.id,
            name: t.name,
            error,
            writes: [],
          })
        const only = tasks.length === 1 ? tasks[0] : undefined
        this.fail(only ? new NodeRunError(error, only.name) : error)
        this.o.destroy()
      }
      void this.o.nextStep().then(hung, () => hung({ step: -1, tasks: [] }))
    }
    this.watch = this.o.timer.set(check, limit + 1000)
  }

  /**
   * `sent` (a checkpoint with only its changed versions and seen entries) with the whole
   * maps, kept here from the checkpoint the run started from as the loop keeps its own: the
   * same objects each put, changed in place (an incremental saver reads them during the
   * call only, see CheckpointSaver).
   */
  private whole(sent: Checkpoint): Checkpoint {
    Object.assign(this.versions, sent.channel_versions)
    Object.assign(this.seen, sent.versions_seen)
    return { ...sent, channel_versions: this.versions, versions_seen: this.seen }
  }

  private async replay(ops: LoopOp[]): Promise<void> {
    const { saver, threadId } = this.o
    for (const op of ops) {
      switch (op[0]) {
        case 'event': {
          const event = unpackEvent(op[1])
          if (event.type === 'step_started' && event.ns === undefined) this.started = event.step
          this.o.onEvent(event)
          break
        }
        case 'put': {
          const [, config, sent, metadata, newVersions, seen] = op
          ownThread(config, threadId)
          const values = sent.channel_values
          for (const ch of Object.keys(values)) values[ch] = revivedValue(ch, values[ch])
          // An incremental put came with what changed only: the whole maps are kept here.
          const checkpoint = seen ? this.whole(sent) : sent
          await saver.put(
            config,
            checkpoint,
            metadata,
            newVersions,
            seen ? new Set(seen) : undefined,
          )
          break
        }
        case 'writes': {
          const [, address, writes, taskId] = op
          ownThread(address, threadId)
          await saver.putWrites(address, revived(writes), taskId)
          break
        }
      }
    }
  }
}

function threadOnly(config: RunConfig): CheckpointConfig {
  return { threadId: config.threadId }
}

/**
 * An event as the loop here would have made it: a failed task's error rebuilt, and the Sends
 * and Commands of written values instances again (their JSON and stored form are their own,
 * as in the loop here, which has them as instances: see reviveControl).
 */
function unpackEvent(e: LoopOp[1]): LoopEvent {
  const event = e as LoopEvent
  if (event.type === 'task_finished') return { ...event, writes: revived(event.writes) }
  if (event.type !== 'task_failed') return event
  const error = unpackError(event.error as PackedError)
  return { ...event, error, writes: revived(event.writes) }
}

function revived(writes: [string, unknown][]): [string, unknown][] {
  return writes.map(([ch, v]) => [ch, revivedValue(ch, v)])
}

/** A value of channel `ch` as the loop holds it (a Send's packet in TASKS, its args revived). */
function revivedValue(ch: string, v: unknown): unknown {
  if (ch !== TASKS) return reviveControl(v)
  const packet = (p: unknown) => (isSendPacket(p) ? { ...p, args: Send.revive(p.args) } : p)
  return Array.isArray(v) ? v.map(packet) : packet(v)
}

/** A write of the sandbox's must address the run's own thread, at the root. */
function ownThread(config: CheckpointConfig | CheckpointAddress, threadId: string): void {
  if (config?.threadId !== threadId || (config.checkpointNs ?? '') !== '')
    throw malformed('a write to another thread')
}

/** The loop's event types, each named once (the compiler says when the loop's change). */
const EVENT_TYPES: Record<LoopEvent['type'], true> = {
  step_started: true,
  task_finished: true,
  task_failed: true,
  task_interrupted: true,
  checkpoint_saved: true,
  warning: true,
}
const EVENTS = new Set(Object.keys(EVENT_TYPES))

/** Why `m` is not a LoopStep, or undefined when it is one. */
function stepProblem(m: Partial<LoopStep>): string | undefined {
  if (typeof m !== 'object' || m === null || !Number.isSafeInteger(m.n))
    return 'a step without its number'
  if (!Array.isArray(m.ops)) return 'a step without its operations'
  for (const op of m.ops as unknown[]) {
    if (!Array.isArray(op)) return 'an operation that is not a list'
    const [tag, a, b, , , ,] = op as unknown[]
    if (tag === 'event') {
      if (!EVENTS.has((a as { type?: unknown } | null)?.type as string))
        return 'an event of an unknown type'
    } else if (tag === 'put') {
      const checkpoint = b as { id?: unknown; channel_values?: unknown } | null
      if (
        op.length !== 6 ||
        typeof checkpoint?.id !== 'string' ||
        !isObject(checkpoint.channel_values)
      )
        return 'a checkpoint without its id or values'
      if (!isObject(op[3]) || !isObject(op[4])) return 'a checkpoint without its metadata'
      if (op[5] !== null && !Array.isArray(op[5])) return 'a checkpoint with a bad seen list'
    } else if (tag === 'writes') {
      if (op.length !== 4 || !Array.isArray(b) || typeof op[3] !== 'string')
        return 'writes without their task'
    } else return `an operation \`${String(tag)}\``
  }
  if (m.status !== undefined && !['running', 'done', 'interrupted'].includes(m.status))
    return 'an unknown run status'
  if (m.interrupts !== undefined && !Array.isArray(m.interrupts))
    return 'interrupts that are not a list'
  if (m.error !== undefined && typeof (m.error as { message?: unknown })?.message !== 'string')
    return 'an error without a message'
  if (m.partial !== undefined && (m.partial !== true || m.status || m.error))
    return 'a step under way with an end'
  return undefined
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function malformed(why: string): Error {
  const e = new Error(`The run's sandbox sent ${why}; the run was stopped.`)
  e.name = 'SandboxProtocolError'
  return e
}

function gone(why: string): Error {
  const e = new Error(`The run's sandbox stopped: ${why}`)
  e.name = 'SandboxRestartedError'
  return e
}

function hungError(nodes: string[], limitMs: number, leftover: boolean): Error {
  const who =
    nodes.length === 1
      ? `Node \`${nodes[0]}\``
      : nodes.length > 1
        ? `One of the nodes ${nodes.map((n) => `\`${n}\``).join(', ')}`
        : 'The code of this run'
  const why = leftover
    ? 'code left running in its sandbox (a timer set by an earlier step) held it'
    : 'it ran too long or used memory without bound'
  const e = new Error(
    `${who} did not finish within ${seconds(limitMs)}: ${why}, so its sandbox was stopped (the page and other graphs are unaffected).`,
  )
  e.name = 'NodeTimeoutError'
  return e
}
