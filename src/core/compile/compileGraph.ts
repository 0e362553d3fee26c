import {
  BinaryOperatorAggregate,
  EphemeralValue,
  LastValue,
  LastValueAfterFinish,
  NamedBarrierValue,
  NamedBarrierValueAfterFinish,
  Topic,
  type Channel,
} from '../channels'
import { END, START, TASKS } from '../graph/constants'
import type { FieldSpec, GraphSpec } from '../graph/schema'
import { branchTargets } from '../graph/wiring'
import { reducerFor, type Reducer } from '../reducers'
import type { CodeEvaluator } from './evaluate'
import { fieldFold, RouteFusion } from './fusedRoutes'
import type { CodeHost } from './host'
import { nodeKind, prebuiltRouter } from '../graph/nodeKinds'
import type { NodeSpec } from '../graph/schema'
import {
  humanRunner,
  modelRunner,
  toolsCondition,
  toolsRunner,
  type ChatModelProvider,
  type KindOptions,
} from './kinds'
import {
  lookupSubgraph,
  namesInScope,
  scopeOf,
  subgraphDocument,
  type SubgraphScope,
} from '../graph/subgraphScope'
import {
  callsSubgraphs,
  localNodeRunner,
  localRouterRunner,
  remoteFold,
  remoteNodeRunner,
  remoteRouter,
  unreachableReducer,
} from './runners'
import type {
  CompiledGraph,
  CompiledNode,
  NodeRunner,
  RemoteFold,
  SubgraphResolver,
} from './compiledTypes'

export type {
  CompiledBranch,
  CompiledGraph,
  CompiledNode,
  NodeCallContext,
  NodeConfig,
  NodeRunner,
  RouterRunner,
  StaticWrite,
} from './compiledTypes'
import { configDefaults } from '../graph/configDefaults'
export type { AiMessageJson, ChatModelProvider, ChatModelRequest, ToolDefinition } from './kinds'

export { TASKS } from '../graph/constants'
export const branchChannel = (node: string): string => `branch:to:${node}`
export const joinChannel = (sources: readonly string[], target: string): string =>
  `join:${sources.join('+')}:${target}`

export interface CompileOptions {
  /** Evaluates code in this realm (CLI, tests); ignored for code that runs in `host`. */
  evaluate: CodeEvaluator
  newId: () => string
  /** Where untrusted code runs (the browser's sandbox); when given, all user code runs there. */
  host?: CodeHost
  /**
   * Calls the chat models the runtime cannot run itself (`provider: "openai"`); without it
   * such a model node fails with `ModelProviderUnavailableError`. Scripted models never use it.
   */
  models?: ChatModelProvider
  /** The subgraphs around the graph being compiled (set when a subgraph is compiled). */
  scope?: SubgraphScope
}

/**
 * Lowers a validated graph document to channels and trigger wiring the way LangGraph's
 * StateGraph.compile() does. The spec must have passed `parseGraph`.
 */
export function compileGraph(spec: GraphSpec, opts: CompileOptions): CompiledGraph {
  const scope = scopeOf(spec, opts.scope)
  const compiled = new Map<string, CompiledGraph>()
  const subgraph = (name: string): CompiledGraph | undefined => {
    const hit = compiled.get(name)
    if (hit) return hit
    const found = lookupSubgraph(scope, name)
    if (!found) return undefined
    const graph = compileGraph(subgraphDocument(name, found.spec), { ...opts, scope: found.scope })
    compiled.set(name, graph)
    return graph
  }
  const channels: Record<string, Channel> = {}
  const remoteFolds = new Map<string, RemoteFold>()
  const { host } = opts
  for (const f of spec.state) {
    if (host && f.reducer === 'custom' && !f.channel) {
      remoteFolds.set(f.name, remoteFold(f.code ?? '', f.name, host))
      channels[f.name] = new BinaryOperatorAggregate(unreachableReducer(f.name), initialOf(f))
    } else channels[f.name] = fieldChannel(f, opts)
  }
  channels[START] = new EphemeralValue(true)
  channels[TASKS] = new Topic(false)

  const nodes = new Map<string, CompiledNode>()
  nodes.set(START, { name: START, triggers: [START], fn: null, writes: [], branches: [] })
  const deferred = new Set(spec.nodes.filter((n) => n.defer).map((n) => n.id))
  // Code nodes in a host run their sandboxed routers in the same call (fusedRoutes.ts).
  const fusions = new Map<string, RouteFusion>()
  const folds =
    host && spec.state.map((f): [string, ReturnType<typeof fieldFold>] => [f.name, fieldFold(f)])
  for (const n of spec.nodes) {
    const ch = branchChannel(n.id)
    channels[ch] = deferred.has(n.id) ? new LastValueAfterFinish() : new EphemeralValue(false)
    const fusion = folds && nodeKind(n) === 'code' ? new RouteFusion(folds) : undefined
    if (fusion) fusions.set(n.id, fusion)
    nodes.set(n.id, {
      name: n.id,
      triggers: [ch],
      fn: nodeRunner(n, spec, opts, { names: namesInScope(scope), resolve: subgraph }, fusion),
      writes: [],
      branches: [],
      ...(nodeKind(n) === 'graph' && { runsSubgraph: true as const }),
    })
  }
  const node = (id: string) => nodes.get(id) as CompiledNode
  const plain = spec.edges.filter((e) => typeof e.from === 'string')
  const joins = spec.edges.filter((e) => Array.isArray(e.from))
  for (const e of plain) {
    if (e.to !== END)
      node(e.from as string).writes.push({ channel: branchChannel(e.to), value: null })
  }
  for (const e of joins) {
    const sources = e.from as string[]
    const ch = joinChannel(sources, e.to)
    const names = new Set(sources)
    channels[ch] = deferred.has(e.to)
      ? new NamedBarrierValueAfterFinish(names)
      : new NamedBarrierValue(names)
    node(e.to).triggers.push(ch)
    for (const s of sources) node(s).writes.push({ channel: ch, value: s })
  }
  for (const b of spec.branches ?? []) {
    node(b.from).branches.push({
      router: prebuiltRouter(b)
        ? toolsCondition
        : host
          ? remoteRouter(b.router, b.from, host, fusions.get(b.from))
          : localRouterRunner(b.router, b.from, opts.evaluate),
      paths: b.paths ? Object.fromEntries(branchTargets(b.paths)) : null,
    })
  }

  const triggerToNodes: Record<string, string[]> = {}
  for (const n of nodes.values())
    for (const t of n.triggers) (triggerToNodes[t] ??= []).push(n.name)

  return {
    spec,
    subgraph,
    fields: spec.state.map((f) => f.name),
    fieldSet: new Set(spec.state.map((f) => f.name)),
    configDefaults: configDefaults(spec.config),
    channels,
    nodes,
    triggerToNodes,
    interruptBefore: interruptList(spec.interruptBefore),
    interruptAfter: interruptList(spec.interruptAfter),
    remoteFolds,
  }
}

function nodeRunner(
  n: NodeSpec,
  spec: GraphSpec,
  opts: CompileOptions,
  subgraphs: { names: readonly string[]; resolve: SubgraphResolver },
  fusion?: RouteFusion,
): NodeRunner {
  const kindOpts: KindOptions = { ...opts, nodes: spec.nodes, state: spec.state }
  switch (nodeKind(n)) {
    case 'graph':
      return graphNodeRunner(n, subgraphs.resolve)
    case 'model':
      return modelRunner(n, kindOpts)
    case 'tools':
      return toolsRunner(n, kindOpts)
    case 'human':
      return humanRunner(n)
    case 'code': {
      const code = n.code ?? ''
      const usesSubgraphs = subgraphs.names.length > 0 && callsSubgraphs(code)
      if (opts.host) {
        const sub = usesSubgraphs ? subgraphs : undefined
        return remoteNodeRunner(code, n.id, opts.host, sub, sub ? undefined : fusion)
      }
      return localNodeRunner(code, n.id, opts.evaluate, usesSubgraphs ? subgraphs : undefined)
    }
  }
}

/**
 * A graph node (LangGraph's `addNode(id, compiledSubgraph)`): the node's input (the parent's
 * state, or a Send's argument) goes in as the subgraph's input, its output values come back
 * as the node's update.
 */
function graphNodeRunner(n: NodeSpec, resolve: SubgraphResolver): NodeRunner {
  const name = n.graph ?? ''
  return (input, ctx) => {
    const graph = resolve(name)
    if (!graph) throw new Error(`Node \`${n.id}\` runs subgraph \`${name}\`, which does not exist.`)
    if (!ctx.subgraph) throw new Error(`Node \`${n.id}\` can only run inside a graph's task.`)
    return ctx.subgraph(graph, input)
  }
}

function interruptList(list: string[] | undefined): readonly string[] | '*' {
  return list?.includes('*') ? '*' : (list ?? [])
}

function fieldChannel(
  f: FieldSpec,
  opts: { evaluate: CodeEvaluator; newId: () => string },
): Channel {
  if (f.channel === 'topic') return new Topic(f.accumulate ?? false)
  if (f.channel === 'ephemeral') return new EphemeralValue(true)
  const reducer = reducerFor(
    f,
    opts.newId,
    (code) => opts.evaluate(code, { kind: 'reducer', owner: f.name }) as Reducer,
  )
  if (!reducer) return new LastValue()
  return new BinaryOperatorAggregate(reducer, initialOf(f))
}

function initialOf(f: FieldSpec): (() => unknown) | undefined {
  const initial = f.default
  if (initial === undefined) return undefined
  // An object is copied for each new channel; a number or a string is its own copy (a
  // structured clone of one cost the worker about 12 ms over a 1,000-step run).
  return typeof initial === 'object' && initial !== null
    ? () => structuredClone(initial)
    : () => initial
}
