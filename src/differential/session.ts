/**
 * Multi-operation sessions for the differential suite: a graph document plus a list of
 * operations (invoke, resume, Command, updateState, replay and fork from old checkpoints)
 * run on ONE thread of one MemorySaver, reported as a {@link SessionReport} that lists every
 * checkpoint of the thread, all branches, oldest first.
 */
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Command, Send } from '@langchain/langgraph'
import type { RunnableConfig } from '@langchain/core/runnables'
import { errorToJson } from '../core/errorJson'
import type { ErrorReport, RunReport } from '../core/report'
import type {
  CommandJson,
  GotoJson,
  ResumeAnswerJson,
  SessionCheckpointReport,
  SessionOp,
  SessionReport as CoreSessionReport,
  StateUpdateJson,
} from '../core/run'
import { canonicalizeReport } from './compare'
import {
  buildLangGraph,
  collectSubgraphCheckpoints,
  normalizeState,
  normalizeValue,
  pickVersions,
} from './oracle'
import type { BuiltLangGraph, GraphDocumentJson } from './oracle'

/** The thread every session runs on. */
export const SESSION_THREAD_ID = 'session'

/**
 * A `goto` target of a `command` op: a node name, or a Send written as `{ node, args }`
 * (turned into LangGraph's `new Send(node, args)`).
 */
/** One session: a graph, the ops run on one thread, and the recursion limit of every run. */
export interface SessionCase {
  description: string
  graph: GraphDocumentJson
  ops: SessionOp[]
  /** Applies to every invoke, resume and command op when given. */
  recursionLimit?: number
  /** The file the session was loaded from (set by {@link loadSessions}). */
  file?: string
}

/** Superstep's report; its `warnings` are Superstep's own, so the oracle leaves them empty. */
export type SessionReport = Omit<CoreSessionReport, 'warnings'>
export type SessionCheckpoint = SessionCheckpointReport

/** The slice of a history snapshot the report reads. */
interface HistorySnapshot {
  values: unknown
  next: readonly string[]
  metadata?: { step?: number; source?: string }
  config: RunnableConfig
  parentConfig?: RunnableConfig
  tasks: readonly { name: string; interrupts: readonly { value?: unknown; id?: string }[] }[]
}

/** The compiled graph with the state API sessions need. */
interface SessionGraph {
  invoke(input: unknown, config: RunnableConfig): Promise<unknown>
  updateState(config: RunnableConfig, values: unknown, asNode?: string): Promise<RunnableConfig>
  bulkUpdateState(
    config: RunnableConfig,
    supersteps: { updates: { values: unknown; asNode?: string }[] }[],
  ): Promise<RunnableConfig>
  getStateHistory(config: RunnableConfig): AsyncIterableIterator<HistorySnapshot>
  getState(config: RunnableConfig): Promise<HistorySnapshot>
}

const threadConfig = (): RunnableConfig => ({ configurable: { thread_id: SESSION_THREAD_ID } })

function checkpointIdOf(config: RunnableConfig | undefined): string | undefined {
  const id = (config?.configurable as { checkpoint_id?: unknown } | undefined)?.checkpoint_id
  return typeof id === 'string' ? id : undefined
}

/** The thread's history, oldest first (getStateHistory is newest first). */
async function history(graph: SessionGraph): Promise<HistorySnapshot[]> {
  const snapshots: HistorySnapshot[] = []
  for await (const snapshot of graph.getStateHistory(threadConfig())) snapshots.push(snapshot)
  return snapshots.reverse()
}

/** The config of one op: the thread, plus `checkpoint_id` when the op addresses one. */
async function opConfig(
  graph: SessionGraph,
  op: SessionOp,
  built: BuiltLangGraph,
): Promise<RunnableConfig> {
  const config = threadConfig()
  if (op.subgraphCheckpoint !== undefined) {
    const all = await collectSubgraphCheckpoints(built, SESSION_THREAD_ID)
    const hit = all[op.subgraphCheckpoint]?.tuple.config
    if (!hit)
      throw new RangeError(
        `op ${op.op}: subgraph checkpoint ${op.subgraphCheckpoint} does not exist`,
      )
    return {
      configurable: {
        thread_id: SESSION_THREAD_ID,
        checkpoint_ns: hit.checkpointNs ?? '',
        checkpoint_id: hit.checkpointId,
      },
    }
  }
  if (op.checkpoint === undefined) return config
  const snapshots = await history(graph)
  const id = checkpointIdOf(snapshots[op.checkpoint]?.config)
  if (id === undefined) {
    throw new RangeError(
      `op ${op.op}: checkpoint ${op.checkpoint} does not exist (the thread has ${snapshots.length})`,
    )
  }
  // As a snapshot's config has it: LangGraph.js's MemorySaver refuses a missing namespace
  // on some paths (an update of a checkpoint with pending writes).
  return { configurable: { thread_id: SESSION_THREAD_ID, checkpoint_id: id, checkpoint_ns: '' } }
}

function toGoto(goto: GotoJson | GotoJson[]): unknown {
  const one = (g: GotoJson) => (typeof g === 'string' ? g : new Send(g.node, g.args))
  return Array.isArray(goto) ? goto.map(one) : one(goto)
}

function commandOf(c: CommandJson): Command {
  const params: { resume?: unknown; update?: Record<string, unknown>; goto?: unknown } = {}
  if ('resume' in c) params.resume = c.resume
  if ('update' in c) params.update = c.update
  if ('goto' in c && c.goto !== undefined) params.goto = toGoto(c.goto)
  return new Command(params as ConstructorParameters<typeof Command>[0])
}

/** What an update writes: its values, or its Command. */
const updateValues = (u: StateUpdateJson): unknown => (u.command ? commandOf(u.command) : u.values)

/** What every invoke of a session adds to its config. */
interface RunOptions {
  recursionLimit?: number
  interruptBefore?: '*'
  interruptAfter?: '*'
}

async function runOp(
  graph: SessionGraph,
  op: SessionOp,
  config: RunnableConfig,
  options: RunOptions,
): Promise<void> {
  if (op.op === 'update') {
    if (op.asNode === undefined) await graph.updateState(config, updateValues(op))
    else await graph.updateState(config, updateValues(op), op.asNode)
    return
  }
  if (op.op === 'bulkUpdate') {
    const supersteps = op.supersteps.map((s) => ({
      updates: s.updates.map((u) => ({
        values: updateValues(u),
        ...(u.asNode !== undefined && { asNode: u.asNode }),
      })),
    }))
    await graph.bulkUpdateState(config, supersteps)
    return
  }
  Object.assign(config, options)
  const input =
    op.op === 'invoke'
      ? structuredClone(op.input)
      : op.op === 'resume'
        ? new Command({
            resume: 'answers' in op ? await resumeMap(graph, config, op.answers) : op.value,
          })
        : commandOf(op)
  await graph.invoke(input, config)
}

/** LangGraph's resume map for answers addressed by node and position among the pending interrupts. */
async function resumeMap(
  graph: SessionGraph,
  config: RunnableConfig,
  answers: readonly ResumeAnswerJson[],
): Promise<Record<string, unknown>> {
  const { tasks } = await graph.getState(config)
  const map: Record<string, unknown> = {}
  for (const { node, index = 0, value } of answers) {
    const pending = tasks.filter((t) => t.name === node).flatMap((t) => t.interrupts)
    const id = pending[index]?.id
    if (id === undefined)
      throw new RangeError(`No interrupt ${index} is pending in node "${node}".`)
    map[id] = value
  }
  return map
}

async function collectSessionCheckpoints(
  built: BuiltLangGraph,
  fields: readonly string[],
): Promise<SessionCheckpoint[]> {
  const snapshots = await history(built.graph as unknown as SessionGraph)
  const indexById = new Map<string, number>()
  snapshots.forEach((s, i) => {
    const id = checkpointIdOf(s.config)
    if (id !== undefined) indexById.set(id, i)
  })
  const reports: SessionCheckpoint[] = []
  for (const snapshot of snapshots) {
    const tuple = await built.checkpointer.getTuple(snapshot.config)
    const parentId = checkpointIdOf(snapshot.parentConfig)
    reports.push({
      step: snapshot.metadata?.step ?? NaN,
      source: (snapshot.metadata?.source ?? 'loop') as SessionCheckpoint['source'],
      next: [...snapshot.next],
      values: normalizeState(snapshot.values, fields),
      versions: pickVersions(tuple?.checkpoint.channel_versions ?? {}, fields),
      parent: parentId === undefined ? null : (indexById.get(parentId) ?? null),
      interrupts: snapshot.tasks.flatMap((t) => t.interrupts.map((i) => normalizeValue(i.value))),
    })
  }
  return reports
}

/**
 * Runs a session on real LangGraph.js: builds the graph once (one MemorySaver), runs the ops
 * in order on thread `'session'` until one throws, then reports every checkpoint.
 * Throws (instead of reporting) only when an op addresses a checkpoint that does not exist.
 * `build` makes the graph (by default {@link buildLangGraph}; the codegen suite passes the
 * graph an emitted module exports).
 */
export async function runSessionOnLangGraph(
  c: SessionCase,
  build: (graph: GraphDocumentJson) => BuiltLangGraph = buildLangGraph,
): Promise<SessionReport> {
  const fields = c.graph.state.map((f) => f.name)
  const { graph: doc, options } = splitStarInterrupts(c.graph)
  if (c.recursionLimit !== undefined) options.recursionLimit = c.recursionLimit
  let built: BuiltLangGraph
  try {
    built = build(doc)
  } catch (err) {
    return { status: 'error', values: {}, checkpoints: [], error: errorToJson(err), opErrors: [] }
  }
  const graph = built.graph as unknown as SessionGraph
  let error: ErrorReport | null = null
  const opErrors: SessionReport['opErrors'] = []
  for (const [index, op] of c.ops.entries()) {
    const config = await opConfig(graph, op, built)
    try {
      await runOp(graph, op, config, options)
    } catch (err) {
      if (op.continueOnError) opErrors.push({ op: index, error: errorToJson(err) })
      else {
        error = errorToJson(err)
        break
      }
    }
  }
  const checkpoints = await collectSessionCheckpoints(built, fields)
  const newest = checkpoints.at(-1)
  const status = error ? 'error' : newest && newest.next.length > 0 ? 'interrupted' : 'done'
  const report: SessionReport = {
    status,
    values: newest?.values ?? {},
    checkpoints,
    error,
    opErrors,
  }
  if (Object.keys(c.graph.subgraphs ?? {}).length > 0) {
    const subgraphs = await collectSubgraphCheckpoints(built, SESSION_THREAD_ID)
    report.subgraphCheckpoints = subgraphs.map((s) => s.report)
  }
  return report
}

/**
 * LangGraph.js takes "every node" as the string `'*'`, a document as `["*"]`, which
 * `buildLangGraph` would pass on as a node name. Such a list is taken out of the document
 * and given to every invoke instead (LangGraph reads `interruptBefore`/`interruptAfter`
 * from the invoke config first; the semantics are the same as at compile time).
 */
function splitStarInterrupts(graph: GraphDocumentJson): {
  graph: GraphDocumentJson
  options: RunOptions
} {
  const options: RunOptions = {}
  const doc = { ...graph }
  if (graph.interruptBefore?.includes('*')) {
    delete doc.interruptBefore
    options.interruptBefore = '*'
  }
  if (graph.interruptAfter?.includes('*')) {
    delete doc.interruptAfter
    options.interruptAfter = '*'
  }
  return { graph: doc, options }
}

/**
 * Replaces UUID-shaped strings by `#1`, `#2`… in order of first appearance (sorted-key walk),
 * exactly as {@link canonicalizeReport} does for single runs.
 */
export function canonicalizeSession(r: SessionReport): SessionReport {
  // canonicalizeReport only walks strings, whatever the report's shape
  return canonicalizeReport(r as unknown as RunReport) as unknown as SessionReport
}

/** All sessions of `src/differential/sessions`, sorted by file name; `file` holds the name. */
export function loadSessions(): SessionCase[] {
  const path = fileURLToPath(new URL('./sessions/', import.meta.url))
  return readdirSync(path)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => ({
      ...(JSON.parse(readFileSync(join(path, file), 'utf8')) as SessionCase),
      file,
    }))
}
