/**
 * The LangGraph.js side of the differential suite: translates a graph document (format v1)
 * into a real `@langchain/langgraph` StateGraph, runs it with a MemorySaver and reports what
 * happened as a {@link RunReport}, the same shape Superstep's own runtime produces.
 */
import {
  Annotation,
  Command,
  END,
  MemorySaver,
  START,
  Send,
  StateGraph,
  interrupt,
  messagesStateReducer,
} from '@langchain/langgraph'
import { EphemeralValue, Topic } from '@langchain/langgraph/channels'
import { isBaseMessage } from '@langchain/core/messages'
import type { BaseMessage } from '@langchain/core/messages'
import type { BaseChannel } from '@langchain/langgraph/channels'
import type { RunnableConfig } from '@langchain/core/runnables'
import { errorMessage, errorToJson } from '../core/errorJson'
import { NAMED_REDUCERS } from '../core/reducers/named'
import type { Reducer } from '../core/reducers/named'
import type { CheckpointReport, ErrorReport, RunReport } from '../core/report'
import { kindNode, prebuiltRouterOf, type NodeKindJson } from './oracleKinds'
import type { CheckpointTuple } from '../core/checkpoint/types'
import { subgraphsCalledBy } from '../core/graph/subgraphScope'
import { nsNodes } from '../core/pregel/namespace'
import { interruptNamespaces } from '../core/pregel/subgraphState'
import type { SessionCheckpointReport as SessionCheckpoint } from '../core/run'

/** One state field of a graph document. */
export interface FieldJson {
  name: string
  reducer?: 'overwrite' | 'append' | 'add' | 'union' | 'merge' | 'custom' | 'add_messages'
  default?: unknown
  code?: string
  channel?: 'topic' | 'ephemeral'
  accumulate?: boolean
}

/** One node of a graph document. */
export interface NodeJson extends NodeKindJson {
  id: string
  /** Code nodes only. */
  code?: string
  ends?: string[]
  defer?: boolean
  position?: { x: number; y: number }
}

/** A static edge; an array `from` is a join (waiting edge). */
export interface EdgeJson {
  from: string | string[]
  to: string
}

/** A conditional edge. */
export interface BranchJson {
  from: string
  router: string
  paths?: Record<string, string> | string[]
}

/** The plain JSON of a graph document, typed just enough for the translator. */
export interface GraphDocumentJson {
  superstep: number
  name?: string
  state: FieldJson[]
  nodes: NodeJson[]
  edges?: EdgeJson[]
  branches?: BranchJson[]
  interruptBefore?: string[]
  interruptAfter?: string[]
  subgraphs?: Record<string, SubgraphJson>
  /** The run settings the graph declares (top level only). */
  config?: { name: string; type: string; default?: unknown; description?: string }[]
}

/** A subgraph of a document: a graph document without `superstep`. */
export type SubgraphJson = Omit<GraphDocumentJson, 'superstep'>

/** One differential case: a graph document, its input and an optional recursion limit. */
export interface DiffCase {
  description: string
  graph: GraphDocumentJson
  input: unknown
  recursionLimit?: number
  /** The run's `config.configurable` settings (the graph's declared defaults fill the rest). */
  configurable?: Record<string, unknown>
  /** For graphs LangGraph refuses to compile: the validation code Superstep must report. */
  invalid?: string
  /** The file the case was loaded from (set by the loaders, not part of the file). */
  file?: string
}

/** A graph LangGraph.js refuses to compile. */
export type InvalidCase = DiffCase & { invalid: string }

/** What {@link buildLangGraph} returns: the compiled graph and its checkpointer. */
export interface BuiltLangGraph {
  graph: CompiledLangGraph
  checkpointer: MemorySaver
  /** The document's subgraphs as compiled for it (documents with subgraphs). */
  subgraphs?: SubgraphScope
  /** The document built (to read its subgraphs' checkpoints). */
  doc?: GraphDocumentJson
  /**
   * The subgraph whose checkpoints a namespace holds, when the graph was built elsewhere (the
   * codegen suite: an emitted module's own compiled subgraphs); else found in `subgraphs`.
   */
  subgraphAt?: (ns: string) => { doc: GraphDocumentJson; compiled: CompiledLangGraph }
}

const THREAD_ID = 'diff'

/**
 * Evaluates document code (node, router or custom reducer) with LangGraph's own
 * `Send`, `Command`, `interrupt`, `START` and `END` in scope, and `subgraphs`: the
 * compiled subgraphs by name (`subgraphs.<name>.invoke(input)`).
 */
export function evaluateCode(code: string, subgraphs: Record<string, unknown> = {}): unknown {
  const factory = new Function(
    'Send',
    'Command',
    'interrupt',
    'START',
    'END',
    'subgraphs',
    `return (${code}\n)`,
  )
  return factory(Send, Command, interrupt, START, END, subgraphs) as unknown
}

function evaluateFunction(
  code: string,
  what: string,
  subgraphs?: Record<string, unknown>,
): (...args: unknown[]) => unknown {
  const fn = evaluateCode(code, subgraphs)
  if (typeof fn !== 'function') throw new TypeError(`${what}: code does not evaluate to a function`)
  return fn as (...args: unknown[]) => unknown
}

/** The name LangGraph uses for a document endpoint (`__start__`/`__end__` are START/END). */
function endpoint(name: string): string {
  return name === '__start__' ? START : name === '__end__' ? END : name
}

/**
 * `add_messages`: LangGraph's `messagesStateReducer`. LangChain's coercion already turns a
 * plain `{ type: 'remove', id }` into a `RemoveMessage`, so updates are passed through.
 */
const addMessages: Reducer = (a, b) =>
  messagesStateReducer(a as BaseMessage[], b as BaseMessage[]) as unknown

function reducerOf(field: FieldJson): Reducer | undefined {
  switch (field.reducer) {
    case undefined:
    case 'overwrite':
      return undefined
    case 'custom':
      return evaluateFunction(field.code ?? '', `reducer of "${field.name}"`) as Reducer
    case 'add_messages':
      return addMessages
    default:
      return NAMED_REDUCERS[field.reducer]
  }
}

/** The LangGraph channel (or Annotation) for one document field. */
function channelOf(field: FieldJson): BaseChannel {
  if (field.channel === 'topic') return new Topic({ accumulate: field.accumulate ?? false })
  if (field.channel === 'ephemeral') return new EphemeralValue()
  const reducer = reducerOf(field)
  if (reducer === undefined) return Annotation() as BaseChannel
  if (!('default' in field)) return Annotation({ reducer }) as BaseChannel
  const initial = field.default
  return Annotation({ reducer, default: () => structuredClone(initial) }) as BaseChannel
}

function stateSchema(graph: GraphDocumentJson) {
  const spec: Record<string, BaseChannel> = {}
  for (const field of graph.state) spec[field.name] = channelOf(field)
  return Annotation.Root(spec)
}

function nodeOptions(node: NodeJson): { ends?: string[]; defer?: boolean } | undefined {
  const options: { ends?: string[]; defer?: boolean } = {}
  if (node.ends) options.ends = node.ends.map(endpoint)
  if (node.defer) options.defer = true
  return Object.keys(options).length > 0 ? options : undefined
}

/** The StateGraph builder typed loosely: documents are dynamic, so node names are strings. */
interface LooseBuilder {
  addNode(id: string, fn: unknown, options?: unknown): LooseBuilder
  addEdge(from: string | string[], to: string): LooseBuilder
  addConditionalEdges(from: string, router: unknown, paths?: unknown): LooseBuilder
  compile(options: Record<string, unknown>): unknown
}

/**
 * The subgraphs a graph's nodes see, by name, each compiled once (on first use) the way
 * LangGraph users compile a subgraph: `.compile()` without a checkpointer, so it inherits
 * its parent's; its own static breakpoints compiled in.
 */
class SubgraphScope {
  private readonly compiled = new Map<string, CompiledLangGraph>()
  constructor(
    private readonly specs: Record<string, SubgraphJson>,
    private readonly parent: SubgraphScope | undefined,
  ) {}

  /** The compiled subgraph `name` resolves to (nearest scope first), or undefined. */
  get(name: string): CompiledLangGraph | undefined {
    return this.resolve(name)?.compiled
  }

  /** The subgraph `name` resolves to: its document, the scope its nodes see, its compiled graph. */
  resolve(
    name: string,
  ): { doc: GraphDocumentJson; scope: SubgraphScope; compiled: CompiledLangGraph } | undefined {
    if (!Object.hasOwn(this.specs, name)) return this.parent?.resolve(name)
    const spec = this.specs[name] as SubgraphJson
    const doc: GraphDocumentJson = { ...spec, superstep: 1 }
    const inner = new SubgraphScope(spec.subgraphs ?? {}, this)
    let hit = this.compiled.get(name)
    if (!hit) {
      hit = createBuilder(doc, inner).compile({
        interruptBefore: interruptList(doc.interruptBefore),
        interruptAfter: interruptList(doc.interruptAfter),
      }) as CompiledLangGraph
      this.compiled.set(name, hit)
    }
    return { doc, scope: inner, compiled: hit }
  }

  /** Every name in scope, nearest first. */
  private names(): string[] {
    return [...Object.keys(this.specs), ...(this.parent?.names() ?? [])]
  }

  /** Every name in scope, as node code's `subgraphs` object (compiled on first access). */
  asObject(): Record<string, unknown> {
    const out: Record<string, unknown> = {}
    for (const n of new Set(this.names()))
      Object.defineProperty(out, n, { get: () => this.get(n), enumerable: true })
    return out
  }
}

function createBuilder(
  graph: GraphDocumentJson,
  scope: SubgraphScope = new SubgraphScope(graph.subgraphs ?? {}, undefined),
): LooseBuilder {
  const builder = new StateGraph(stateSchema(graph)) as unknown as LooseBuilder
  const subgraphs = scope.asObject()
  for (const node of graph.nodes) {
    if (node.kind === 'graph') {
      const sub = scope.get(node.graph ?? '')
      if (!sub) throw new Error(`node "${node.id}": no subgraph "${node.graph ?? ''}"`)
      builder.addNode(node.id, sub, nodeOptions(node))
      continue
    }
    if ((node.kind ?? 'code') !== 'code') {
      builder.addNode(node.id, kindNode(node.id, node, evaluateFunction), nodeOptions(node))
      continue
    }
    const fn = evaluateFunction(node.code ?? '', `node "${node.id}"`, subgraphs)
    builder.addNode(
      node.id,
      (state: unknown, config: unknown) => fn(state, config),
      nodeOptions(node),
    )
  }
  for (const edge of graph.edges ?? []) {
    const from = Array.isArray(edge.from) ? edge.from.map(endpoint) : endpoint(edge.from)
    builder.addEdge(from, endpoint(edge.to))
  }
  for (const branch of graph.branches ?? []) {
    const prebuilt = prebuiltRouterOf(branch.router)
    const router = prebuilt ?? evaluateFunction(branch.router, `router of "${branch.from}"`)
    builder.addConditionalEdges(
      endpoint(branch.from),
      prebuilt ??
        ((state: unknown, config: unknown) =>
          (router as (s: unknown, c: unknown) => unknown)(state, config)),
      pathsOf(branch),
    )
  }
  return builder
}

function pathsOf(branch: BranchJson): Record<string, string> | string[] | undefined {
  if (branch.paths === undefined) return undefined
  if (Array.isArray(branch.paths)) return branch.paths.map(endpoint)
  return Object.fromEntries(Object.entries(branch.paths).map(([k, v]) => [k, endpoint(v)]))
}

/**
 * The `configurable` a case runs with: the document's declared defaults, the case's own
 * settings, the thread.
 */
export function caseConfigurable(c: DiffCase, threadId: string): Record<string, unknown> {
  const defaults = (c.graph.config ?? []).flatMap((s) =>
    s.default === undefined ? [] : [[s.name, s.default] as const],
  )
  return { ...Object.fromEntries(defaults), ...c.configurable, thread_id: threadId }
}

/** The compiled graph, typed as loosely as the documents that produce it. */
export interface CompiledLangGraph {
  invoke(input: unknown, config: RunnableConfig & { recursionLimit?: number }): Promise<unknown>
  getState(config: RunnableConfig): Promise<{
    values: unknown
    next: readonly string[]
    metadata?: { step?: number; source?: string }
    config: RunnableConfig
    parentConfig?: RunnableConfig
    tasks: readonly { interrupts: readonly { value?: unknown; id?: string }[] }[]
  }>
  getStateHistory(config: RunnableConfig): AsyncIterableIterator<{
    values: unknown
    next: readonly string[]
    metadata?: { step?: number; source?: string }
    config: RunnableConfig
    tasks: readonly { interrupts: readonly { value?: unknown; id?: string }[] }[]
  }>
  /** LangGraph's own field: a benchmark gives each run a fresh saver through it. */
  checkpointer?: MemorySaver | boolean
}

function compileBuilder(
  builder: LooseBuilder,
  graph: GraphDocumentJson,
  saver: MemorySaver,
): CompiledLangGraph {
  return builder.compile({
    checkpointer: saver,
    interruptBefore: interruptList(graph.interruptBefore),
    interruptAfter: interruptList(graph.interruptAfter),
  }) as CompiledLangGraph
}

/** A document's breakpoint list as LangGraph takes it: `["*"]` means every node. */
function interruptList(list: string[] | undefined): string[] | '*' {
  return list?.includes('*') ? '*' : (list ?? [])
}

/**
 * Translates a graph document into a compiled LangGraph.js graph with a fresh MemorySaver.
 * Throws whatever LangGraph throws when it refuses to compile.
 */
export function buildLangGraph(graph: GraphDocumentJson): BuiltLangGraph {
  const checkpointer = new MemorySaver()
  const subgraphs = new SubgraphScope(graph.subgraphs ?? {}, undefined)
  return {
    graph: compileBuilder(createBuilder(graph, subgraphs), graph, checkpointer),
    checkpointer,
    subgraphs,
    doc: graph,
  }
}

/** Compiles a document on LangGraph.js; returns the compile error's message, or null. */
export function compileOnLangGraph(graph: GraphDocumentJson): string | null {
  try {
    buildLangGraph(graph)
    return null
  } catch (err) {
    return errorMessage(err)
  }
}

/**
 * Makes a state value plain JSON: LangChain messages become `{ type, content, id, name?,
 * tool_calls?, tool_call_id? }`, `undefined` object entries are dropped, the rest is cloned.
 */
export function normalizeValue(value: unknown): unknown {
  const replaced = JSON.stringify(value, function (this: unknown, key: string, v: unknown) {
    // JSON.stringify calls toJSON() before the replacer, so messages are read from the holder
    const raw = (this as Record<string, unknown>)[key]
    return isBaseMessage(raw) ? normalizeMessage(raw) : v
  })
  return replaced === undefined ? undefined : (JSON.parse(replaced) as unknown)
}

function normalizeMessage(msg: BaseMessage): Record<string, unknown> {
  const m = msg as BaseMessage & {
    tool_calls?: { name: string; args: unknown; id?: string }[]
    tool_call_id?: string
    status?: string
  }
  return {
    type: m._getType(),
    content: m.content,
    id: m.id,
    ...(m.name ? { name: m.name } : {}),
    ...(m.tool_calls?.length
      ? { tool_calls: m.tool_calls.map(({ name, args, id }) => ({ name, args, id })) }
      : {}),
    ...(m.tool_call_id ? { tool_call_id: m.tool_call_id } : {}),
    ...(m._getType() === 'tool' && m.status !== undefined ? { status: m.status } : {}),
  }
}

/** The state fields that hold a value, as plain JSON. */
export function normalizeState(
  values: unknown,
  fields: readonly string[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  const source = (values ?? {}) as Record<string, unknown>
  for (const name of fields) {
    if (source[name] !== undefined) out[name] = normalizeValue(source[name])
  }
  return out
}

/** The channel versions of the state fields. */
export function pickVersions(
  versions: Record<string, unknown>,
  fields: readonly string[],
): Record<string, number> {
  const out: Record<string, number> = {}
  for (const name of fields) {
    const v = versions[name]
    if (typeof v === 'number') out[name] = v
  }
  return out
}

/** The newest checkpoint's pending interrupts, in task order. */
async function pendingInterrupts(
  built: BuiltLangGraph,
): Promise<{ value?: unknown; id?: string }[]> {
  const config = { configurable: { thread_id: THREAD_ID } }
  for await (const newest of built.graph.getStateHistory(config))
    return newest.tasks.flatMap((t) => t.interrupts)
  return []
}

async function collectCheckpoints(
  built: BuiltLangGraph,
  fields: readonly string[],
): Promise<CheckpointReport[]> {
  const config = { configurable: { thread_id: THREAD_ID } }
  const reports: CheckpointReport[] = []
  for await (const snapshot of built.graph.getStateHistory(config)) {
    const tuple = await built.checkpointer.getTuple(snapshot.config)
    reports.push({
      step: snapshot.metadata?.step ?? NaN,
      source: (snapshot.metadata?.source ?? 'loop') as CheckpointReport['source'],
      next: [...snapshot.next],
      values: normalizeState(snapshot.values, fields),
      versions: pickVersions(tuple?.checkpoint.channel_versions ?? {}, fields),
    })
  }
  return reports.reverse()
}

/**
 * Runs a case on real LangGraph.js and reports every checkpoint saved on the thread.
 * `build` makes the graph (by default {@link buildLangGraph}; the codegen suite passes the
 * graph an emitted module exports).
 */
export async function runOnLangGraph(
  c: DiffCase,
  build: (graph: GraphDocumentJson) => BuiltLangGraph = buildLangGraph,
): Promise<RunReport> {
  const fields = c.graph.state.map((f) => f.name)
  let built: BuiltLangGraph
  try {
    built = build(c.graph)
  } catch (err) {
    return { status: 'error', values: {}, checkpoints: [], interrupts: [], error: errorToJson(err) }
  }
  let error: ErrorReport | null = null
  // LangGraph.js's invoke returns `__interrupt__` (empty after a static breakpoint) when the
  // run paused. Not `next`: a finished run may still have one (case 26).
  let paused = false
  try {
    const config: RunnableConfig = { configurable: caseConfigurable(c, THREAD_ID) }
    if (c.recursionLimit !== undefined) config.recursionLimit = c.recursionLimit
    // A copy: node code that mutates its state in place would otherwise rewrite the case's input
    const result = await built.graph.invoke(structuredClone(c.input), config)
    paused = typeof result === 'object' && result !== null && Object.hasOwn(result, '__interrupt__')
  } catch (err) {
    error = errorToJson(err)
  }
  const checkpoints = await collectCheckpoints(built, fields)
  const newest = checkpoints.at(-1)
  const pending = paused ? await pendingInterrupts(built) : []
  const interrupts = pending.map((i) => normalizeValue(i.value))
  const status = error ? 'error' : paused ? 'interrupted' : 'done'
  const report: RunReport = { status, values: newest?.values ?? {}, checkpoints, interrupts, error }
  if (Object.keys(c.graph.subgraphs ?? {}).length === 0) return report
  const subgraphs = await collectSubgraphCheckpoints(built, THREAD_ID)
  report.subgraphCheckpoints = subgraphs.map(({ report: r }) => ({
    step: r.step,
    source: r.source,
    next: r.next,
    values: r.values,
    versions: r.versions,
    ns: r.ns,
  }))
  report.interruptNs = interruptNamespaces(
    pending.map((i) => i.id ?? ''),
    subgraphs.map((s) => s.tuple),
  )
  return report
}

/** One checkpoint of a subgraph as the reports show it, and the raw tuple it came from. */
export interface SubgraphCheckpointRead {
  report: SessionCheckpoint & { ns: string[] }
  tuple: CheckpointTuple
}

/**
 * Every checkpoint of every subgraph on the thread (the saver's non-root namespaces),
 * oldest first by checkpoint id (LangGraph's ids are time-ordered uuid6), each read through
 * the compiled subgraph its namespace names: `getState` with the parent's checkpointer.
 */
export async function collectSubgraphCheckpoints(
  built: BuiltLangGraph,
  threadId: string,
): Promise<SubgraphCheckpointRead[]> {
  const raw: { id: string; ns: string; tuple: LangGraphTuple }[] = []
  for await (const t of built.checkpointer.list({ configurable: { thread_id: threadId } })) {
    const ns = String(t.config.configurable?.checkpoint_ns ?? '')
    if (ns !== '') raw.push({ id: String(t.config.configurable?.checkpoint_id), ns, tuple: t })
  }
  raw.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  const index = new Map(raw.map((r, i) => [r.id, i]))
  const out: SubgraphCheckpointRead[] = []
  for (const { id, ns, tuple } of raw) {
    const at = subgraphAtNamespace(built, ns)
    const fields = at.doc.state.map((f) => f.name)
    const snapshot = await at.compiled.getState({
      configurable: {
        thread_id: threadId,
        checkpoint_ns: ns,
        checkpoint_id: id,
        __pregel_checkpointer: built.checkpointer,
      },
    })
    const parentId = tuple.parentConfig?.configurable?.checkpoint_id
    out.push({
      report: {
        step: snapshot.metadata?.step ?? NaN,
        source: (snapshot.metadata?.source ?? 'loop') as CheckpointReport['source'],
        next: [...snapshot.next],
        values: normalizeState(snapshot.values, fields),
        versions: pickVersions(tuple.checkpoint.channel_versions, fields),
        parent: parentId === undefined ? null : (index.get(String(parentId)) ?? null),
        interrupts: snapshot.tasks.flatMap((t) => t.interrupts.map((i) => normalizeValue(i.value))),
        ns: nsNodes(ns),
      },
      tuple: {
        config: { threadId, checkpointId: id, checkpointNs: ns },
        checkpoint: tuple.checkpoint as unknown as CheckpointTuple['checkpoint'],
        metadata: tuple.metadata as unknown as CheckpointTuple['metadata'],
        parentConfig: undefined,
        pendingWrites: (tuple.pendingWrites ?? []) as CheckpointTuple['pendingWrites'],
      },
    })
  }
  return out
}

type LangGraphTuple = NonNullable<Awaited<ReturnType<MemorySaver['getTuple']>>>

/** The subgraph document and compiled graph whose checkpoints a namespace holds. */
function subgraphAtNamespace(
  built: BuiltLangGraph,
  ns: string,
): { doc: GraphDocumentJson; compiled: CompiledLangGraph } {
  if (built.subgraphAt) return built.subgraphAt(ns)
  let doc = built.doc
  let scope = built.subgraphs
  let compiled: CompiledLangGraph | undefined
  for (const id of nsNodes(ns)) {
    const node = doc?.nodes.find((n) => n.id === id)
    const called = node ? subgraphsCalledBy(node.code ?? '') : []
    const name = node?.kind === 'graph' ? node.graph : called.length === 1 ? called[0] : undefined
    const hit = name === undefined ? undefined : scope?.resolve(name)
    if (!hit) throw new Error(`oracle: no subgraph at namespace "${ns}"`)
    ;({ doc, scope, compiled } = hit)
  }
  if (!doc || !compiled) throw new Error(`oracle: no subgraph at namespace "${ns}"`)
  return { doc, compiled }
}
