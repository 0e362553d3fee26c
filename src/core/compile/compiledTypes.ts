import type { Channel } from '../channels'
import type { GraphSpec } from '../graph/schema'
import type { TaskScratchpad } from '../pregel/interrupt'
import type { TaskLog } from './host'

/**
 * What a compiled graph is made of: the graph, its nodes and branches, and the functions
 * its tasks run. Types only, apart from the compiler (compileGraph.ts) and the runners
 * (runners.ts) that both use them.
 */

/**
 * The second argument of node code and routers: the parts of LangGraph's RunnableConfig
 * Superstep has. `configurable`: the run's settings (and `thread_id`); `writer(chunk)`: a
 * `custom` stream chunk.
 */
export interface NodeConfig {
  configurable: Record<string, unknown>
  writer: (chunk: unknown) => void
}

/**
 * A piece of a model's reply as it streams (OpenAI's `delta`): text, and tool-call fragments
 * by index; `id`: the reply's id, when the endpoint sends it with the piece.
 */
export interface AiMessageDelta {
  content?: string
  tool_call_chunks?: { index: number; id?: string; name?: string; args?: string }[]
  id?: string
}

/** What a node run may use of its task: answers for `interrupt()`, writes, log capture. */
export interface NodeCallContext {
  pad: TaskScratchpad
  /**
   * Set while the run streams messages (LangGraph's `lc_prefer_streaming`: a model node then
   * streams its reply): takes each piece of the reply, in order, with the id the whole reply
   * will have. Absent, a model node asks for its reply whole.
   */
  onDelta?: (messageId: string, delta: AiMessageDelta) => void
  /** The run's config, as node code and routers receive it (absent outside a run's task). */
  config?: NodeConfig
  /**
   * Set for a task an edge triggered (PULL): its input is the state the step began with,
   * from which its routers' state is made (so a host may run them with the node).
   */
  pull?: boolean
  write: (channel: string, value: unknown) => void
  log: (logs: TaskLog[]) => void
  /**
   * Runs a compiled subgraph as part of the task (in its own checkpoint namespace); resolves
   * to its output values. Absent where no run hosts the task.
   */
  subgraph?: (graph: CompiledGraph, input: unknown) => Promise<unknown>
}

/** The subgraphs node code may call, by name (what `subgraphs` in its scope holds). */
export type SubgraphResolver = (name: string) => CompiledGraph | undefined

/** Runs a node's function on its input within its task. */
export type NodeRunner = (input: unknown, ctx: NodeCallContext) => unknown

/**
 * Runs a router on the state its node's task left. LangGraph.js runs a node's routers
 * inside the node's task, so `interrupt()` in a router pauses that task and follows its
 * scratchpad (after the node's own interrupts). Without a task (the writers updateState
 * runs), `interrupt()` fails as LangGraph.js's does there.
 */
export type RouterRunner = (state: unknown, call?: NodeCallContext) => unknown

/** A custom reducer that lives in a sandbox: folded a step at a time, asynchronously. */
export type RemoteFold = (current: unknown, values: unknown[]) => Promise<unknown>

/** A write every run of a node makes after its own update (an edge firing). */
export interface StaticWrite {
  channel: string
  value: unknown
}

export interface CompiledBranch {
  router: RouterRunner
  /** Route key → node; null when the router returns node names. */
  paths: Record<string, string> | null
}

export interface CompiledNode {
  name: string
  /** Channels whose new versions trigger the node, first match wins (as in LangGraph.js). */
  triggers: string[]
  /** The user's function; null for `__start__`, whose input is its output. */
  fn: NodeRunner | null
  writes: StaticWrite[]
  branches: CompiledBranch[]
  /** A graph node: its output is a subgraph's values, whose keys the parent may lack. */
  runsSubgraph?: true
}

export interface CompiledGraph {
  spec: GraphSpec
  /**
   * The subgraph a name resolves to from this graph (compiled once, on first use), or
   * undefined. Graph nodes and `subgraphs.<name>` in node code run these.
   */
  subgraph: (name: string) => CompiledGraph | undefined
  /** State field names in document order. */
  fields: readonly string[]
  fieldSet: ReadonlySet<string>
  /** The declared settings' defaults: what `config.configurable` starts from. */
  configDefaults: Readonly<Record<string, unknown>>
  /** Empty channels in LangGraph's order: fields, START, tasks, branch:to:*, join:*. */
  channels: Readonly<Record<string, Channel>>
  /** `__start__` first, then the nodes in document order. */
  nodes: ReadonlyMap<string, CompiledNode>
  triggerToNodes: Readonly<Record<string, readonly string[]>>
  interruptBefore: readonly string[] | '*'
  interruptAfter: readonly string[] | '*'
  /** Custom reducers that run in a sandbox: their writes are folded before apply_writes. */
  remoteFolds: ReadonlyMap<string, RemoteFold>
}
