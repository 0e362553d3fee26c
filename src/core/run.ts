import type { RuntimeEnv } from '../lib/env'
import { MemorySaver } from './checkpoint/memorySaver'
import { compileGraph } from './compile/compileGraph'
import { evaluateLocally, type CodeEvaluator } from './compile/evaluate'
import type { GraphSpec } from './graph/schema'
import type { CodeHost } from './compile/host'
import { errorToJson } from './errorJson'
import type { LoopEvent, RunConfig } from './pregel/loop'
import { GraphRuntime } from './pregel/runtime'
import type { StateSnapshot } from './pregel/state'
import type { RuntimeWarning } from './pregel/task'
import { Command, Send } from './pregel/types'
import type { CheckpointReport, ErrorReport, RunReport } from './report'
import type { CheckpointAddress, CheckpointSaver, CheckpointTuple } from './checkpoint/types'
import type { CompiledGraph } from './compile/compileGraph'
import { nsNodes } from './pregel/namespace'
import { channelsFromCheckpoint, prepareTasks, readState } from './pregel/algo'
import { ReportSaver } from './reportSaver'
import { CheckpointsText } from './reportText'
import { snapshotOf } from './pregel/state'
import { interruptNamespaces, requireGraphAtNamespace } from './pregel/subgraphState'

export interface RunOptions {
  input: unknown
  recursionLimit?: number
  /** The run's `config.configurable` settings (the graph's declared defaults fill the rest). */
  configurable?: Record<string, unknown>
  env: RuntimeEnv
  evaluate?: CodeEvaluator
  /** Run user code in this host instead of evaluating it here. */
  host?: CodeHost
  onEvent?: (e: LoopEvent) => void
}

/** The CLI report plus what only Superstep knows: the runtime's warnings. */
export type RunGraphReport = RunReport & { warnings: RuntimeWarning[] }

const THREAD = 'cli'

function createRuntime<S extends CheckpointSaver = MemorySaver>(
  spec: GraphSpec,
  opts: Omit<RunOptions, 'input'>,
  warnings: RuntimeWarning[],
  saver: S = new MemorySaver() as CheckpointSaver as S,
) {
  const graph = compileGraph(spec, {
    evaluate: opts.evaluate ?? evaluateLocally,
    newId: opts.env.newId,
    ...(opts.host ? { host: opts.host } : {}),
  })
  const runtime = new GraphRuntime({
    graph,
    saver,
    env: opts.env,
    // Only warnings are wanted here: no listener for every event unless the caller has one.
    onWarning: (w) => warnings.push(w),
    ...(opts.onEvent && { onEvent: opts.onEvent }),
  })
  return { graph, runtime, saver }
}

/** Whether a document has subgraphs: its reports then list their checkpoints too. */
function hasSubgraphs(spec: GraphSpec): boolean {
  return Object.keys(spec.subgraphs ?? {}).length > 0
}

interface SubgraphSnapshot {
  ns: string[]
  snapshot: StateSnapshot
  fields: ReadonlySet<string>
}

/** The config of the `index`-th subgraph checkpoint of the session's thread (oldest first). */
function subgraphAt(saver: MemorySaver, index: number): CheckpointAddress {
  const all = saver.listAllNamespaces(THREAD).filter((t) => t.config.checkpointNs)
  const tuple = all[index]
  if (!tuple)
    throw new RangeError(
      `There is no subgraph checkpoint ${index} (the session has ${all.length}).`,
    )
  return tuple.config
}

/** Every checkpoint of every subgraph on the thread, oldest first, as its graph reads it. */
async function subgraphSnapshots(
  graph: CompiledGraph,
  saver: MemorySaver,
): Promise<{ snapshots: SubgraphSnapshot[]; tuples: CheckpointTuple[] }> {
  const tuples = saver.listAllNamespaces(THREAD).filter((t) => t.config.checkpointNs)
  const snapshots: SubgraphSnapshot[] = []
  for (const tuple of tuples) {
    const ns = tuple.config.checkpointNs ?? ''
    const sub = requireGraphAtNamespace(graph, ns)
    snapshots.push({
      ns: nsNodes(ns),
      snapshot: await snapshotOf(sub, tuple),
      fields: sub.fieldSet,
    })
  }
  return { snapshots, tuples }
}

/** The payloads of a checkpoint's pending interrupts, in task order. */
function pendingInterrupts(s: StateSnapshot): unknown[] {
  return s.tasks.flatMap((t) => t.interrupts.map((i) => i.value))
}

function checkpointReport(s: StateSnapshot, fields: ReadonlySet<string>): CheckpointReport {
  return {
    step: s.metadata.step,
    source: s.metadata.source,
    next: s.next,
    values: s.values,
    versions: fieldVersions(s.channelVersions, fields),
  }
}

/** The versions of the state fields, in the versions' order. */
function fieldVersions(
  versions: Record<string, number>,
  fields: ReadonlySet<string>,
): Record<string, number> {
  const out: Record<string, number> = {}
  for (const k of Object.keys(versions)) if (fields.has(k)) out[k] = versions[k] as number
  return out
}

/** Invokes the graph on the report's thread; an error the graph raised is part of the report. */
async function invokeOnce(
  runtime: ReturnType<typeof createRuntime>['runtime'],
  opts: RunOptions,
): Promise<{ error: RunReport['error']; interrupted: boolean }> {
  try {
    const r = await runtime.invoke(opts.input, {
      threadId: THREAD,
      recursionLimit: opts.recursionLimit,
      ...(opts.configurable && { configurable: opts.configurable }),
    })
    return { error: null, interrupted: r.status === 'interrupted' }
  } catch (e) {
    return { error: errorToJson(e), interrupted: false }
  }
}

/**
 * Runs a validated graph once on a fresh thread with an in-memory saver and reports every
 * checkpoint: what `superstep run` prints. Errors raised by the graph are part of the report.
 */
export async function runGraph(spec: GraphSpec, opts: RunOptions): Promise<RunGraphReport> {
  const warnings: RuntimeWarning[] = []
  const { graph, runtime, saver } = createRuntime(spec, opts, warnings)
  const { error, interrupted } = await invokeOnce(runtime, opts)
  const history = await runtime.getStateHistory({ threadId: THREAD })
  const newest = history[0]
  const checkpoints = history.reverse().map((s) => checkpointReport(s, graph.fieldSet))
  const pending = interrupted && newest ? newest.tasks.flatMap((t) => t.interrupts) : []
  const report: RunGraphReport = {
    status: error ? 'error' : interrupted ? 'interrupted' : 'done',
    values: checkpoints.at(-1)?.values ?? {},
    checkpoints,
    interrupts: pending.map((i) => i.value),
    error,
    warnings,
  }
  if (!hasSubgraphs(spec)) return report
  const { snapshots, tuples } = await subgraphSnapshots(graph, saver)
  report.subgraphCheckpoints = snapshots.map(({ ns, snapshot, fields }) => ({
    ...checkpointReport(snapshot, fields),
    ns,
  }))
  report.interruptNs = interruptNamespaces(
    pending.map((i) => i.id),
    tuples,
  )
  return report
}

/**
 * What `superstep run` prints, written as it goes: the same text as
 * `JSON.stringify(await runGraph(spec, opts), null, 2)` and a newline. Each checkpoint's
 * entry is made when the checkpoint is saved, and the checkpoint dropped (ReportSaver); the
 * entries become text a batch at a time (CheckpointsText): a 20,000-step run holds neither
 * 20,000 checkpoints nor their snapshots, only the entries' text, in pieces of about `chunk`
 * characters. The pieces are written when the run ends, after the report's head (its
 * status and values come first).
 */
export async function writeRunReport(
  spec: GraphSpec,
  opts: RunOptions,
  write: (text: string) => void,
  chunk = 1 << 16,
): Promise<void> {
  // A subgraph's checkpoints are read back from the whole history; a Command as input
  // (not JSON, so never the CLI's) may add writes to a checkpoint after it is saved.
  if (hasSubgraphs(spec) || opts.input instanceof Command) {
    write(`${JSON.stringify(await runGraph(spec, opts), null, 2)}\n`)
    return
  }
  const warnings: RuntimeWarning[] = []
  const checkpoints = new CheckpointsText(chunk)
  const saver = new ReportSaver((tuple) => checkpoints.add(entryOf(graph, tuple)))
  const { graph, runtime } = createRuntime(spec, opts, warnings, saver)
  const { error, interrupted } = await invokeOnce(runtime, opts)
  const newestTuple = await saver.getTuple({ threadId: THREAD })
  const newest = newestTuple && (await snapshotOf(graph, newestTuple))
  const pending = interrupted && newest ? newest.tasks.flatMap((t) => t.interrupts) : []
  const report: RunGraphReport = {
    status: error ? 'error' : interrupted ? 'interrupted' : 'done',
    values: newest ? checkpointReport(newest, graph.fieldSet).values : {},
    checkpoints: [],
    interrupts: pending.map((i) => i.value),
    error,
    warnings,
  }
  // Only the report's own key is indented by two spaces (a value's lines by four or more,
  // and a string holds no line break): the one place the checkpoints go.
  const text = JSON.stringify(report, null, 2)
  const at = text.indexOf(CHECKPOINTS_KEY)
  if (at < 0) throw new Error('The report has no checkpoints key.')
  const head = text.slice(0, at + CHECKPOINTS_KEY.length - 2)
  const tail = text.slice(at + CHECKPOINTS_KEY.length)
  write(head)
  for (const piece of checkpoints.end()) write(piece)
  write(`${tail}\n`)
}

const CHECKPOINTS_KEY = '\n  "checkpoints": []'

/**
 * A checkpoint's report entry, as checkpointReport(snapshotOf(...)) makes it, at once: a
 * checkpoint saved by a run from an empty thread has no task-less writes to apply.
 */
function entryOf(graph: CompiledGraph, tuple: Readonly<CheckpointTuple>): CheckpointReport {
  const { checkpoint, metadata } = tuple
  const channels = channelsFromCheckpoint(graph, checkpoint)
  const next: string[] = []
  for (const t of prepareTasks(graph, checkpoint, channels)) next.push(t.name)
  return {
    step: metadata.step,
    source: metadata.source,
    next,
    values: readState(graph, channels),
    versions: fieldVersions(checkpoint.channel_versions, graph.fieldSet),
  }
}

/** A `goto` target in a session op: a node name, or a Send written as `{ node, args }`. */
export type GotoJson = string | { node: string; args: unknown }

/** A Command written as JSON (a `command` op, or the output an update writes). */
export interface CommandJson {
  resume?: unknown
  update?: Record<string, unknown>
  goto?: GotoJson | GotoJson[]
}

/**
 * What an update writes as `asNode`'s output: `values`, or a Command given as `command`
 * (as LangGraph's server API takes it). `asNode` may also be `__input__`, `__copy__` or,
 * with null values, `__end__`.
 */
export interface StateUpdateJson {
  values?: unknown
  command?: CommandJson
  asNode?: string
}

interface SessionOpBase {
  /** Index into the thread's checkpoints so far, oldest first; absent: the latest. */
  checkpoint?: number
  /**
   * Index into the subgraphs' checkpoints so far (`subgraphCheckpoints`, oldest first):
   * addresses that checkpoint of a subgraph (its namespace) instead of a root one.
   */
  subgraphCheckpoint?: number
  /** When the op throws, record the error in `opErrors` and go on (retries, limits). */
  continueOnError?: boolean
}

/**
 * One answer of a resume addressed to one of several pending interrupts: the `index`-th
 * (default 0) interrupt pending in `node`'s tasks, in task order. Interrupt ids differ
 * between runtimes; the node and the position do not.
 */
export interface ResumeAnswerJson {
  node: string
  index?: number
  value: unknown
}

/** One operation of a session (`superstep session`). */
export type SessionOp = SessionOpBase &
  (
    | { op: 'invoke'; input: unknown }
    | { op: 'resume'; value: unknown }
    | { op: 'resume'; answers: ResumeAnswerJson[] }
    | ({ op: 'command' } & CommandJson)
    | ({ op: 'update' } & StateUpdateJson)
    | { op: 'bulkUpdate'; supersteps: { updates: StateUpdateJson[] }[] }
  )

/**
 * One checkpoint of the thread as its history shows it (pending task writes not applied;
 * a Command's stored update/goto applied without touching versions).
 */
export interface SessionCheckpointReport extends CheckpointReport {
  /** Index of the parent checkpoint in `checkpoints`, or null. */
  parent: number | null
  /** Payloads of the interrupts stored for the checkpoint's tasks, in task order. */
  interrupts: unknown[]
}

export interface SessionReport {
  /** `error` if an op stopped the session; else `interrupted` if the newest checkpoint has a `next`. */
  status: 'done' | 'error' | 'interrupted'
  /** Values of the newest checkpoint. */
  values: Record<string, unknown>
  /** Every checkpoint of the thread, forks included, in creation order. */
  checkpoints: SessionCheckpointReport[]
  /** The error of the op that stopped the session, or null. */
  error: ErrorReport | null
  /** Errors of `continueOnError` ops, with the op's index; oldest first. */
  opErrors: { op: number; error: ErrorReport }[]
  warnings: RuntimeWarning[]
  /**
   * Documents with subgraphs only: every checkpoint of every subgraph, oldest first, with
   * its `ns` (see SubgraphCheckpointReport); `parent` indexes this list.
   */
  subgraphCheckpoints?: (SessionCheckpointReport & { ns: string[] })[]
}

/**
 * Runs operations on one in-memory thread and reports every checkpoint of it: what
 * `superstep session` prints. The first operation that fails ends the session.
 */
export async function runSession(
  spec: GraphSpec,
  ops: readonly SessionOp[],
  opts: Omit<RunOptions, 'input'>,
): Promise<SessionReport> {
  const warnings: RuntimeWarning[] = []
  const { graph, runtime, saver } = createRuntime(spec, opts, warnings)
  const history = async () => (await runtime.getStateHistory({ threadId: THREAD })).reverse()
  const at = async (index: number | undefined) => {
    if (index === undefined) return undefined
    const id = (await history())[index]?.config.checkpointId
    if (!id)
      throw new RangeError(
        `There is no checkpoint ${index} (the session has ${(await history()).length}).`,
      )
    return id
  }
  let error: ErrorReport | null = null
  const opErrors: SessionReport['opErrors'] = []
  for (const [i, op] of ops.entries()) {
    try {
      const inner =
        op.subgraphCheckpoint === undefined ? undefined : subgraphAt(saver, op.subgraphCheckpoint)
      await runSessionOp(runtime, op, {
        threadId: THREAD,
        checkpointId: inner?.checkpointId ?? (await at(op.checkpoint)),
        ...(inner && { checkpointNs: inner.checkpointNs }),
        recursionLimit: opts.recursionLimit,
      })
    } catch (e) {
      if (!op.continueOnError) {
        error = errorToJson(e)
        break
      }
      opErrors.push({ op: i, error: errorToJson(e) })
    }
  }
  const snapshots = await history()
  const index = new Map(snapshots.map((s, i) => [s.config.checkpointId, i]))
  const checkpoints = snapshots.map((s) => ({
    ...checkpointReport(s, graph.fieldSet),
    parent: s.parentConfig ? (index.get(s.parentConfig.checkpointId) ?? null) : null,
    interrupts: pendingInterrupts(s),
  }))
  const newest = checkpoints.at(-1)
  const report: SessionReport = {
    status: error ? 'error' : newest && newest.next.length > 0 ? 'interrupted' : 'done',
    values: newest?.values ?? {},
    checkpoints,
    error,
    opErrors,
    warnings,
  }
  if (!hasSubgraphs(spec)) return report
  const subgraphs = (await subgraphSnapshots(graph, saver)).snapshots
  const subIndex = new Map(subgraphs.map((s, i) => [s.snapshot.config.checkpointId, i]))
  report.subgraphCheckpoints = subgraphs.map(({ ns, snapshot, fields }) => ({
    ...checkpointReport(snapshot, fields),
    parent: snapshot.parentConfig
      ? (subIndex.get(snapshot.parentConfig.checkpointId) ?? null)
      : null,
    interrupts: pendingInterrupts(snapshot),
    ns,
  }))
  return report
}

/** Runs one session op on a runtime, addressed by `cfg` (what `superstep session` does per op). */
export function runSessionOp(
  runtime: GraphRuntime,
  op: SessionOp,
  cfg: RunConfig,
): Promise<unknown> {
  switch (op.op) {
    case 'invoke':
      return runtime.invoke(op.input, cfg)
    case 'resume':
      if ('answers' in op)
        return runtime
          .getState(cfg)
          .then((s) => runtime.invoke(new Command({ resume: resumeMap(s, op.answers) }), cfg))
      return runtime.invoke(new Command({ resume: op.value }), cfg)
    case 'command':
      return runtime.invoke(commandOf(op), cfg)
    case 'update':
      return runtime.updateState(cfg, updateValues(op), op.asNode)
    case 'bulkUpdate':
      return runtime.bulkUpdateState(
        cfg,
        op.supersteps.map((s) => ({
          updates: s.updates.map((u) => ({
            values: updateValues(u),
            ...(u.asNode !== undefined && { asNode: u.asNode }),
          })),
        })),
      )
  }
}

/**
 * The resume map (`{ [interruptId]: value }`, LangGraph's) for answers addressed by node and
 * position among the interrupts pending at `snapshot`.
 */
export function resumeMap(
  snapshot: StateSnapshot | undefined,
  answers: readonly ResumeAnswerJson[],
): Record<string, unknown> {
  const map: Record<string, unknown> = {}
  for (const { node, index = 0, value } of answers) {
    const pending = (snapshot?.tasks ?? [])
      .filter((t) => t.name === node)
      .flatMap((t) => t.interrupts)
    const target = pending[index]
    if (!target?.id)
      throw new RangeError(
        `No interrupt ${index} is pending in node "${node}" (it has ${pending.length}).`,
      )
    map[target.id] = value
  }
  return map
}

function commandOf(c: CommandJson): Command {
  const toSend = (g: GotoJson) => (typeof g === 'string' ? g : new Send(g.node, g.args))
  const goto =
    c.goto === undefined ? undefined : Array.isArray(c.goto) ? c.goto.map(toSend) : toSend(c.goto)
  return new Command({
    ...('resume' in c ? { resume: c.resume } : {}),
    ...(c.update ? { update: c.update } : {}),
    ...(goto !== undefined ? { goto } : {}),
  })
}

const updateValues = (u: StateUpdateJson): unknown => (u.command ? commandOf(u.command) : u.values)
