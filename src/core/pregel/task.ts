import { EMPTY, InvalidUpdateError, type Channel } from '../channels'
import type { AiMessageDelta } from '../compile/compiledTypes'
import {
  TASKS,
  branchChannel,
  type CompiledBranch,
  type CompiledGraph,
  type NodeCallContext,
  type NodeConfig,
} from '../compile/compileGraph'
import { END, START } from '../graph/constants'
import { readState, type Channels, type Task } from './algo'
import { Command, isCommand, isSend, type Send } from './types'
import { ParentCommand } from './errors'
import type { TaskScratchpad } from './interrupt'
import { foldRemoteWrites } from './foldRemote'
import { writeTypeProblem } from './writeTypes'

/** Something LangGraph.js silently ignores, reported so the debugger can show it. */
export interface RuntimeWarning {
  code: 'UNKNOWN_UPDATE_KEY' | 'UNKNOWN_ROUTE_TARGET' | 'VALUE_TYPE_MISMATCH'
  node: string
  /** The state field, for a warning about one. */
  field?: string
  message: string
}

export interface TaskContext {
  graph: CompiledGraph
  /** The channels as of the start of the super-step (every task reads the same snapshot). */
  channels: Channels
  warn: (w: RuntimeWarning) => void
  /** The task's resume state, for `interrupt()`. */
  scratchpad: (task: Task) => TaskScratchpad
  /** The namespace of the graph the task runs in (`''`: the root). */
  ns?: string
  /** Whether the graph runs inside a parent's task: a `Command.PARENT` then goes there. */
  nested?: boolean
  /** The run's config, as the task's node code and routers receive it. */
  config?: NodeConfig
  /** Set while the run streams messages: a piece of a model's reply in a task (NodeCallContext.onDelta). */
  onDelta?: (task: Task, messageId: string, delta: AiMessageDelta) => void
  /** A task's namespace: what its subgraph calls are stored under. */
  taskNs?: (task: Task) => string
  /** Runs the `n`-th subgraph call of a task (see NodeCallContext.subgraph). */
  runSubgraph?: (
    task: Task,
    pad: TaskScratchpad,
    n: number,
    graph: CompiledGraph,
    input: unknown,
  ) => Promise<unknown>
}

type WriterContext = Omit<TaskContext, 'scratchpad'>

/**
 * Runs one task: the node's function, then its writers in LangGraph's order (state update,
 * Command goto, static edges and joins, conditional edges). Fills `task.writes`. A node that
 * calls `interrupt()` without an answer throws GraphInterrupt, leaving its `__resume__`
 * writes in `task.writes`.
 */
export async function runTask(task: Task, ctx: TaskContext, eager = false): Promise<void> {
  const { node } = task
  const call = taskCall(task, ctx)
  try {
    let output = node.fn ? node.fn(task.input, call) : task.input
    // Eager (a task alone in its step, or a step without routers: nothing of the writers can
    // interleave with a sibling's code), only promises are awaited.
    if (!eager || isThenable(output)) output = await output
    const writing = runWriters(task, output, ctx, call, eager)
    if (writing) await writing
  } catch (e) {
    await raisedByTask(task, ctx, call, e)
  }
}

/**
 * runTask, done at once (undefined) when nothing is a promise: a step of sync nodes need not
 * wait. It may then throw instead of rejecting.
 */
export function runTaskNow(task: Task, ctx: TaskContext, eager = false): Promise<void> | undefined {
  const { node } = task
  const call = taskCall(task, ctx)
  try {
    const output = node.fn ? node.fn(task.input, call) : task.input
    if (!eager || isThenable(output)) return finishTask(task, ctx, call, output, eager)
    const writing = runWriters(task, output, ctx, call, eager)
    return writing && awaitWriters(task, ctx, call, writing)
  } catch (e) {
    return raisedByTask(task, ctx, call, e)
  }
}

/** What a task's node and routers are given. */
function taskCall(task: Task, ctx: TaskContext): NodeCallContext {
  return new TaskCall(task, ctx)
}

/**
 * A task's NodeCallContext. Most node code reads only `config`: the scratchpad and the
 * functions (which code may take off the object, so each is bound to the task) are made on
 * first use, once per task.
 */
class TaskCall implements NodeCallContext {
  config?: NodeConfig
  pull?: boolean
  private padMade: TaskScratchpad | undefined
  private writeMade: NodeCallContext['write'] | undefined
  private logMade: NodeCallContext['log'] | undefined
  private subgraphMade: NodeCallContext['subgraph'] | undefined
  private onDeltaMade: NodeCallContext['onDelta'] | undefined
  /** Subgraph calls made so far (the `n` of the next). */
  private calls = 0

  constructor(
    private readonly task: Task,
    private readonly ctx: TaskContext,
  ) {
    if (ctx.config) this.config = ctx.config
    if (task.kind === 'pull') this.pull = true
  }

  /** One scratchpad for the node and its routers: their interrupts count as one task's. */
  get pad(): TaskScratchpad {
    return (this.padMade ??= this.ctx.scratchpad(this.task))
  }

  get write(): NodeCallContext['write'] {
    const task = this.task
    return (this.writeMade ??= (ch, v) => {
      task.writes.push([ch, v])
    })
  }

  get log(): NodeCallContext['log'] {
    const task = this.task
    return (this.logMade ??= (logs) => {
      ;(task.logs ??= []).push(...logs)
    })
  }

  get subgraph(): NodeCallContext['subgraph'] {
    const run = this.ctx.runSubgraph
    if (!run) return undefined
    return (this.subgraphMade ??= (graph, input) =>
      run(this.task, this.pad, this.calls++, graph, input))
  }

  get onDelta(): NodeCallContext['onDelta'] {
    const sink = this.ctx.onDelta
    if (!sink) return undefined
    return (this.onDeltaMade ??= (id, delta) => sink(this.task, id, delta))
  }
}

/** runTaskNow once the node's output is a promise (or, not eager, always). */
async function finishTask(
  task: Task,
  ctx: TaskContext,
  call: NodeCallContext,
  pending: unknown,
  eager: boolean,
): Promise<void> {
  try {
    const output = await pending
    const writing = runWriters(task, output, ctx, call, eager)
    if (writing) await writing
  } catch (e) {
    await raisedByTask(task, ctx, call, e)
  }
}

async function awaitWriters(
  task: Task,
  ctx: TaskContext,
  call: NodeCallContext,
  writing: Promise<void>,
): Promise<void> {
  try {
    await writing
  } catch (e) {
    await raisedByTask(task, ctx, call, e)
  }
}

/**
 * What a task raised: a `Command.PARENT` from inside a subgraph the task ran becomes the
 * task's output (a promise of its writers); any other error is thrown on.
 */
function raisedByTask(
  task: Task,
  ctx: TaskContext,
  call: NodeCallContext,
  e: unknown,
): Promise<void> {
  if (!(e instanceof ParentCommand)) throw e
  // Raised by this task's writers: it goes to the task that runs this graph.
  if (e.target === undefined) e.target = ctx.ns ?? ''
  else if (e.target === ctx.taskNs?.(task)) {
    // From inside a subgraph this task ran: the command is this task's output.
    const { update, goto } = e.command
    return runWriters(
      task,
      new Command({ ...(update && { update }), goto }),
      ctx,
      call,
    ) as Promise<void>
  }
  throw e
}

/**
 * A node's writers on an output: what the node's function returned, or, for updateState,
 * the values written "as" the node (then without `call`: no task to pause).
 */
export function runWriters(
  task: Task,
  output: unknown,
  ctx: WriterContext,
  call?: NodeCallContext,
  /** Only promises are awaited (see runTask): done at once (undefined) when none is met. */
  eager = false,
): Promise<void> | undefined {
  const { node } = task
  const writes = task.writes
  // A subgraph's values for keys the parent lacks are dropped silently, as LangGraph does.
  const wctx = node.runsSubgraph ? { ...ctx, warn: () => {} } : ctx
  const before = writes.length
  try {
    stateUpdates(task.name, output, wctx, writes)
  } catch (e) {
    writes.length = before // all of the output's updates or none, as LangGraph sends them
    throw e
  }
  const toParent = ctx.nested ? parentCommandOf(output) : undefined
  if (toParent) throw new ParentCommand(toParent)
  for (const dest of controlDestinations(output)) writeDestination(task, dest, ctx)
  for (const w of node.writes) writes.push([w.channel, w.value])
  const { branches } = node
  if (branches.length === 0) return eager ? undefined : Promise.resolve()
  if (!eager || ctx.graph.remoteFolds.size > 0) return routeAsync(task, ctx, call, 0)
  for (let i = 0; i < branches.length; i++) {
    const branch = branches[i] as CompiledBranch
    const routed = branch.router(freshStateLocal(task, ctx, task), call)
    if (isThenable(routed)) return routeAsync(task, ctx, call, i, routed)
    writeRoute(task, branch, routed, ctx)
  }
  return undefined
}

/** The task's conditional edges from the `from`-th on (its router's answer when given). */
async function routeAsync(
  task: Task,
  ctx: WriterContext,
  call: NodeCallContext | undefined,
  from: number,
  pending?: PromiseLike<unknown>,
): Promise<void> {
  const { branches } = task.node
  for (let i = from; i < branches.length; i++) {
    const branch = branches[i] as CompiledBranch
    const routed =
      i === from && pending ? await pending : await branch.router(await freshState(task, ctx), call)
    writeRoute(task, branch, routed, ctx)
  }
}

function isThenable(v: unknown): v is PromiseLike<unknown> {
  return typeof v === 'object' && v !== null && typeof (v as { then?: unknown }).then === 'function'
}

/** The first `Command.PARENT` of a node's output (a Command, or one in an array). */
function parentCommandOf(output: unknown): Command | undefined {
  const commands = isCommand(output)
    ? [output]
    : Array.isArray(output)
      ? output.filter(isCommand)
      : []
  return commands.find((c) => c.graph === Command.PARENT)
}

const hasOwn = Object.prototype.hasOwnProperty

/**
 * LangGraph.js's node output mapper: falsy → nothing, Command → its update, object → keys.
 * Pushes the updates to `out` (a task's writes: no array in between).
 */
function stateUpdates(
  name: string,
  output: unknown,
  ctx: WriterContext,
  out: [string, unknown][],
): void {
  if (!output) return
  if (isCommand(output)) {
    if (output.graph !== '__parent__') filterKnown(name, output.updateTuples(), ctx, out)
    return
  }
  if (Array.isArray(output) && output.length > 0 && output.some(isCommand)) {
    for (const item of output) {
      if (isCommand(item)) {
        if (item.graph !== '__parent__') filterKnown(name, item.updateTuples(), ctx, out)
      } else stateUpdates(name, item, ctx, out)
    }
    return
  }
  if (typeof output === 'object' && !Array.isArray(output)) {
    // A plain update (the common case): its own keys in order, as Object.entries gives them.
    const known = ctx.graph.fieldSet
    const o = output as Record<string, unknown>
    for (const key in o) {
      if (!hasOwn.call(o, key)) continue
      const value = o[key]
      if (known.has(key)) {
        out.push([key, value])
        checkWriteType(name, key, value, ctx)
      } else warnUnknownKey(name, key, ctx)
    }
    return
  }
  const kind = Array.isArray(output) ? 'array' : typeof output
  throw new InvalidUpdateError(
    `Expected node "${name}" to return an object or an array containing at least one Command object, received ${kind}`,
    'INVALID_GRAPH_NODE_RETURN_VALUE',
  )
}

function filterKnown(
  name: string,
  pairs: [string, unknown][],
  ctx: WriterContext,
  out: [string, unknown][],
): void {
  const known = ctx.graph.fieldSet
  for (const pair of pairs) {
    if (known.has(pair[0])) {
      out.push(pair)
      checkWriteType(name, pair[0], pair[1], ctx)
    } else warnUnknownKey(name, pair[0], ctx)
  }
}

function checkWriteType(name: string, field: string, value: unknown, ctx: WriterContext): void {
  const problem = writeTypeProblem(ctx.graph.spec, name, field, value)
  if (problem) ctx.warn({ code: 'VALUE_TYPE_MISMATCH', node: name, field, message: problem })
}

function warnUnknownKey(name: string, key: string, ctx: WriterContext): void {
  ctx.warn({
    code: 'UNKNOWN_UPDATE_KEY',
    node: name,
    message: `${name === START ? 'The input' : `Node \`${name}\``} wrote \`${key}\`, which is not a state field; the write was ignored.`,
  })
}

/** Destinations of a returned Command's `goto` (or of a returned Send). */
function controlDestinations(output: unknown): readonly (string | Send)[] {
  if (isSend(output)) return [output]
  // A plain update (the common case): no array made.
  if (!isCommand(output) && !Array.isArray(output)) return NO_DESTINATIONS
  const commands = isCommand(output)
    ? [output]
    : Array.isArray(output)
      ? output.filter(isCommand)
      : []
  const out: (string | Send)[] = []
  for (const c of commands) {
    if (c.graph === '__parent__') continue
    const g = c.goto
    if (isSend(g) || typeof g === 'string') out.push(g)
    else if (Array.isArray(g)) out.push(...g)
  }
  return out.filter((d) => d !== END)
}

const NO_DESTINATIONS: readonly (string | Send)[] = Object.freeze([])

/** Writes where a router's answer leads (branchDestinations without arrays for one answer). */
function writeRoute(task: Task, branch: CompiledBranch, routed: unknown, ctx: WriterContext): void {
  if (Array.isArray(routed)) {
    for (const dest of branchDestinations(task.name, branch, routed))
      writeDestination(task, dest, ctx)
    return
  }
  const dest = branch.paths && !isSend(routed) ? branch.paths[String(routed)] : routed
  if (!dest) {
    throw new Error(
      `Branch condition returned unknown or null destination (conditional edge from \`${task.name}\` returned ${JSON.stringify(routed) ?? 'undefined'})`,
    )
  }
  if (isSend(dest) && dest.node === END) {
    throw new InvalidUpdateError('Cannot send a packet to the END node')
  }
  if (dest !== END) writeDestination(task, dest as string | Send, ctx)
}

function branchDestinations(
  name: string,
  branch: CompiledBranch,
  routed: unknown,
): (string | Send)[] {
  const results = Array.isArray(routed) ? (routed as unknown[]) : [routed]
  const dests = branch.paths
    ? results.map((r) => (isSend(r) ? r : branch.paths?.[String(r)]))
    : results
  if (dests.some((d) => !d)) {
    const bad = results[dests.findIndex((d) => !d)]
    throw new Error(
      `Branch condition returned unknown or null destination (conditional edge from \`${name}\` returned ${JSON.stringify(bad) ?? 'undefined'})`,
    )
  }
  if (dests.some((d) => isSend(d) && d.node === END)) {
    throw new InvalidUpdateError('Cannot send a packet to the END node')
  }
  return (dests as (string | Send)[]).filter((d) => d !== END)
}

function writeDestination(task: Task, dest: string | Send, ctx: WriterContext): void {
  if (isSend(dest)) {
    if (!ctx.graph.nodes.has(dest.node) || dest.node === START) {
      throw new InvalidUpdateError(`Invalid node name "${dest.node}" in Send packet`)
    }
    task.writes.push([TASKS, { node: dest.node, args: dest.args }])
    return
  }
  const ch = branchChannel(String(dest))
  if (!(ch in ctx.channels)) {
    ctx.warn({
      code: 'UNKNOWN_ROUTE_TARGET',
      node: task.name,
      message: `\`${task.name}\` routed to \`${String(dest)}\`, which is not a node; the route was ignored.`,
    })
  }
  task.writes.push([ch, task.name])
}

/**
 * The state as the task's own writes would leave it: what its routers read (LangGraph's
 * `_localRead` with `fresh`).
 */
async function freshState(task: Task, ctx: WriterContext): Promise<Record<string, unknown>> {
  const [own] = await foldRemoteWrites(ctx.graph, ctx.channels, [task])
  return freshStateLocal(task, ctx, own as Task)
}

/** freshState once sandboxed reducers' writes are folded: `own` holds the task's writes. */
function freshStateLocal(
  task: Task,
  ctx: WriterContext,
  own: Pick<Task, 'writes'>,
): Record<string, unknown> {
  const { graph, channels } = ctx
  const byField = new Map<string, unknown[]>()
  for (const [ch, v] of own.writes) {
    if (!graph.fieldSet.has(ch)) continue
    let list = byField.get(ch)
    if (!list) byField.set(ch, (list = []))
    list.push(v)
  }
  if (byField.size === 0) return readState(graph, channels)
  // The written fields' channels as the task's writes leave them; the others as they are.
  const local = new Map<string, Channel>()
  for (const [f, vals] of byField) {
    const current = channels[f] as Channel
    const copy = current.fromCheckpoint(current.checkpoint())
    try {
      copy.update(vals)
    } catch (e) {
      if (!(e instanceof InvalidUpdateError)) throw e
      const wrapped = new InvalidUpdateError(
        `Invalid update for channel "${f}" with values ${JSON.stringify(vals)}: ${e.message}`,
      )
      wrapped.lc_error_code = e.lc_error_code
      throw wrapped
    }
    // LangGraph.js reads through a local apply_writes without versions, which marks no
    // channel updated and so then updates each written one with []: an ephemeral or a
    // non-accumulating topic field the task wrote is cleared before its routers see it.
    if (task.triggers.length > 0 && copy.isAvailable()) copy.update([])
    local.set(f, copy)
  }
  const out: Record<string, unknown> = {}
  for (const f of graph.fields) {
    const v = (local.get(f) ?? (channels[f] as Channel)).get()
    if (v !== EMPTY) out[f] = v
  }
  return out
}
