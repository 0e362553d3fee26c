/**
 * The naming plan of an emitted TypeScript module, made before any text is written: what
 * it imports (under which local names), and a unique identifier for every node, router,
 * reducer and export. Names are claimed in one fixed order, so the plan (and the module)
 * is the same for the same document.
 */
import { messagesFieldOf, nodeKind, prebuiltRouter } from '../core/graph/nodeKinds'
import { END, START } from '../core/graph/constants'
import type { FieldSpec, GraphSpec, SubgraphSpec } from '../core/graph/schema'
import { scopeOf, type SubgraphScope } from '../core/graph/subgraphScope'
import { codeCalls, flattenLevels, resolveSubgraph, subgraphLevels } from './subgraphLevels'
import { isHelperReducer, type HelperReducer } from './tsReducers'
import { MESSAGE_TYPE_IMPORTS, typeImportsOf } from './tsTypes'
import { Namer, readCodeNames, toIdentifier, upperFirst, type CodeNames } from './tsNames'

/** The names document code has in scope, imported from LangGraph under these very names. */
const SCOPE = ['Command', 'END', 'START', 'Send', 'interrupt'] as const

/** Everything the sections of the module share: names, imports, what the code mentions. */
export interface Context {
  graph: GraphSpec
  code: Map<string, CodeNames>
  names: Namer
  /** Local name of each import, by module then exported name. */
  imports: Map<string, Map<string, string>>
  /** The imports used only as types (`module name`), written `import type`. */
  typeImports: Set<string>
  /** Local names of State, builder, graph, the function types and the named reducers. */
  local: Map<string, string>
  /** The subgraph names this level's nodes see. */
  scope: SubgraphScope
  /** The local name of each subgraph definition's compiled graph (shared by every level). */
  compiled: Map<SubgraphSpec, string>
  /** On the root: a context per subgraph definition, dependencies first. */
  levels: Context[]
  /** On a subgraph's level: its key in the `subgraphs` that defines it. */
  levelName?: string
  /** The object node code of this level sees as `subgraphs` (when its code calls one). */
  subgraphsObject?: SubgraphsObject
}

/** The compiled subgraphs node code calls, by name, as one object. */
export interface SubgraphsObject {
  /** `subgraphs` itself when one module-level object serves every level. */
  name: string
  entries: [string, SubgraphSpec][]
  moduleLevel: boolean
}

/**
 * Plans a module: reads every piece of document code for its free variables (the names no
 * module binding may take), then claims imports, `State`/`builder`/`graph`, the function
 * types, and the functions' names, the document's own first.
 */
export function createContext(graph: GraphSpec): Context {
  const subgraphs = subgraphLevels(graph)
  const flat = flattenLevels(graph, subgraphs)
  const code = new Map<string, CodeNames>()
  const mentioned = new Set<string>()
  for (const c of userCode(graph)) {
    const read = code.get(c) ?? readCodeNames(c)
    code.set(c, read)
    for (const n of read.names) mentioned.add(n)
  }
  const ctx: Context = {
    graph,
    code,
    names: new Namer(mentioned),
    imports: new Map(),
    typeImports: new Set(),
    local: new Map(),
    scope: scopeOf(graph, undefined),
    compiled: new Map(),
    levels: [],
  }
  claimImports(ctx, mentioned, flat)
  for (const name of ['State', 'builder', 'graph']) ctx.local.set(name, ctx.names.claim(name))
  if ((graph.config ?? []).length > 0)
    ctx.local.set('configurable', ctx.names.claim('configurable'))
  if (flat.nodes.some((n) => nodeKind(n) !== 'graph'))
    ctx.local.set('NodeFn', ctx.names.claim('NodeFn'))
  if (flat.branches?.some((b) => !prebuiltRouter(b)))
    ctx.local.set('RouterFn', ctx.names.claim('RouterFn'))
  if (flat.state.some(isCustom)) ctx.local.set('ReducerFn', ctx.names.claim('ReducerFn'))
  for (const name of kindNeeds(flat).locals) ctx.local.set(name, ctx.names.claim(name))
  claimFunctions(ctx)
  for (const r of usedHelpers(flat)) ctx.local.set(r, ctx.names.claim(r))
  for (const level of subgraphs) {
    const sub: Context = {
      ...ctx,
      graph: level.spec,
      local: new Map(ctx.local),
      scope: level.scope,
      levels: [],
      levelName: level.name,
    }
    const id = toIdentifier(level.name, 'subgraph')
    for (const [key, suffix] of [
      ['State', 'State'],
      ['builder', 'Builder'],
      ['graph', 'Graph'],
    ] as const) {
      sub.local.set(key, ctx.names.claim(`${id}${suffix}`))
    }
    ctx.compiled.set(level.def, local(sub, 'graph'))
    claimFunctions(sub)
    ctx.levels.push(sub)
  }
  planSubgraphsObjects(ctx)
  return ctx
}

/**
 * The `subgraphs` object of every level whose node code calls a subgraph: one module-level
 * `const subgraphs` when every such level resolves each name it calls to the same
 * definition, else one object per level, which its node code receives as `subgraphs`.
 */
function planSubgraphsObjects(root: Context): void {
  const users = [root, ...root.levels].flatMap((ctx) => {
    const entries: [string, SubgraphSpec][] = []
    for (const name of new Set(ctx.graph.nodes.flatMap(codeCalls))) {
      const def = resolveSubgraph(ctx.scope, name)
      if (def) entries.push([name, def])
    }
    return entries.length > 0 ? [{ ctx, entries }] : []
  })
  const union = new Map<string, SubgraphSpec>()
  let consistent = true
  for (const { entries } of users) {
    for (const [name, def] of entries) {
      if (union.has(name) && union.get(name) !== def) consistent = false
      union.set(name, def)
    }
  }
  for (const { ctx, entries } of users) {
    ctx.subgraphsObject = consistent
      ? { name: 'subgraphs', entries: [...union], moduleLevel: true }
      : {
          name: root.names.claim(
            ctx.levelName === undefined
              ? 'rootSubgraphs'
              : `${toIdentifier(ctx.levelName, 'subgraph')}Subgraphs`,
          ),
          entries,
          moduleLevel: false,
        }
  }
}

/** Names for the functions, the document's own first: nodes, routers, custom reducers. */
function claimFunctions(ctx: Context): void {
  const { graph, names } = ctx
  for (const n of graph.nodes) {
    if (nodeKind(n) === 'graph') continue // added as its compiled subgraph
    ctx.local.set(`node:${n.id}`, names.claim(toIdentifier(n.id, 'node')))
  }
  for (const n of graph.nodes) {
    const id = toIdentifier(n.id, 'node')
    n.tools?.forEach((t, j) => {
      ctx.local.set(`tool:${n.id}:${j}`, names.claim(toIdentifier(t.name, 'tool')))
    })
    if (nodeKind(n) === 'tools') ctx.local.set(`tools:${n.id}`, names.claim(`${id}Tools`))
    if (nodeKind(n) === 'model' && n.model) {
      const what = n.model.provider === 'scripted' ? 'Replies' : 'Model'
      ctx.local.set(`model:${n.id}`, names.claim(`${id}${what}`))
    }
  }
  graph.branches?.forEach((b, i) => {
    if (prebuiltRouter(b) === 'tools_condition') {
      ctx.local.set(`router:${i}`, imported(ctx, 'toolsCondition', '@langchain/langgraph/prebuilt'))
      return
    }
    const from = b.from === START ? 'Start' : upperFirst(toIdentifier(b.from, 'node'))
    ctx.local.set(`router:${i}`, names.claim(`route${from}`))
  })
  for (const f of graph.state.filter(isCustom)) {
    ctx.local.set(
      `reducer:${f.name}`,
      names.claim(`reduce${upperFirst(toIdentifier(f.name, 'field'))}`),
    )
  }
}

/** The named reducers the fields use, in order of first use. */
export function usedHelpers(graph: GraphSpec): HelperReducer[] {
  const used: HelperReducer[] = []
  for (const f of graph.state) {
    if (!f.channel && isHelperReducer(f.reducer) && !used.includes(f.reducer)) used.push(f.reducer)
  }
  return used
}

/** The document's own code (at every level): code nodes', tools', code routers', custom reducers'. */
export function userCode(root: GraphSpec): string[] {
  const graph = flattenLevels(root, subgraphLevels(root))
  return [
    ...graph.nodes.flatMap((n) =>
      nodeKind(n) === 'code'
        ? [n.code ?? '']
        : nodeKind(n) === 'tools'
          ? (n.tools ?? []).map((t) => t.code)
          : [],
    ),
    ...(graph.branches ?? []).filter((b) => !prebuiltRouter(b)).map((b) => b.router),
    ...graph.state.filter(isCustom).map((f) => f.code ?? ''),
  ]
}

export const isCustom = (f: FieldSpec) => !f.channel && f.reducer === 'custom'

/** Decides every import up front, so names are claimed in one fixed order. */
function claimImports(ctx: Context, mentioned: ReadonlySet<string>, graph: GraphSpec): void {
  const use = (module: string, name: string, local = ctx.names.claim(name)) => {
    const m = ctx.imports.get(module) ?? new Map<string, string>()
    ctx.imports.set(module, m)
    m.set(name, local)
  }
  use('@langchain/langgraph', 'Annotation')
  use('@langchain/langgraph', 'MemorySaver')
  use('@langchain/langgraph', 'StateGraph')
  if (graph.state.some((f) => !f.channel && f.reducer === 'add_messages')) {
    use('@langchain/langgraph', 'messagesStateReducer')
  }
  const wired = wiredEndpoints(graph)
  for (const name of SCOPE) {
    const wiredByName = (name === 'START' && wired.has(START)) || (name === 'END' && wired.has(END))
    if (mentioned.has(name) || wiredByName) use('@langchain/langgraph', name, name)
  }
  if (graph.state.some((f) => f.channel === 'ephemeral')) {
    use('@langchain/langgraph/channels', 'EphemeralValue')
  }
  if (graph.state.some((f) => f.channel === 'topic')) use('@langchain/langgraph/channels', 'Topic')
  if (graph.nodes.some((n) => nodeKind(n) === 'human') && !mentioned.has('interrupt')) {
    use('@langchain/langgraph', 'interrupt', 'interrupt')
  }
  for (const [module, name] of kindNeeds(graph).imports) use(module, name)
  for (const name of typeImportsOf(graph.state)) {
    const module = MESSAGE_TYPE_IMPORTS[name]
    if (ctx.imports.get(module)?.has(name)) continue
    use(module, name)
    ctx.typeImports.add(`${module} ${name}`)
  }
}

/** Every endpoint the builder names: edges, joins, branches, path maps, `ends`. */
function wiredEndpoints(graph: GraphSpec): Set<string> {
  const out = new Set<string>()
  for (const e of graph.edges) {
    for (const from of Array.isArray(e.from) ? e.from : [e.from]) out.add(from)
    out.add(e.to)
  }
  for (const b of graph.branches ?? []) {
    out.add(b.from)
    const targets = Array.isArray(b.paths) ? b.paths : Object.values(b.paths ?? {})
    for (const t of targets) out.add(t)
  }
  for (const n of graph.nodes) for (const t of n.ends ?? []) out.add(t)
  return out
}

/** The local name of an import the plan made (a bug if it made none). */
export function imported(ctx: Context, name: string, module = '@langchain/langgraph'): string {
  const local = ctx.imports.get(module)?.get(name)
  if (local === undefined) throw new Error(`BUG: ${name} was used but not imported`)
  return local
}

/** The local name of State, builder, graph, a type, a node (`node:<id>`), router, reducer. */
export function local(ctx: Context, name: string): string {
  const n = ctx.local.get(name)
  if (n === undefined) throw new Error(`BUG: no local name for ${name}`)
  return n
}

/** What the kinds of the graph need: imports (module, name) and local names to claim. */
export function kindNeeds(graph: GraphSpec): { imports: [string, string][]; locals: string[] } {
  const imports: [string, string][] = []
  const locals: string[] = []
  const kinds = new Set(graph.nodes.map(nodeKind))
  const models = graph.nodes.flatMap((n) => (n.model ? [n.model] : []))
  if (kinds.has('tools')) {
    imports.push(['@langchain/langgraph/prebuilt', 'ToolNode'], ['@langchain/core/tools', 'tool'])
    locals.push('ToolFn')
    // A tools node on another field than `messages` renames its output, Commands aside.
    const renamed = (n: GraphSpec['nodes'][number]) =>
      nodeKind(n) === 'tools' && messagesFieldOf(n) !== 'messages'
    if (graph.nodes.some(renamed)) imports.push(['@langchain/langgraph', 'isCommand'])
  }
  if (models.some((m) => m.provider === 'scripted')) {
    imports.push(
      ['@langchain/core/messages', 'AIMessage'],
      ['@langchain/core/messages', 'coerceMessageLikeToMessage'],
    )
    locals.push('ScriptedReply', 'playScripted')
  }
  if (models.some((m) => m.provider === 'openai')) imports.push(['@langchain/openai', 'ChatOpenAI'])
  if (graph.branches?.some((b) => b.router.trim() === 'tools_condition')) {
    imports.push(['@langchain/langgraph/prebuilt', 'toolsCondition'])
  }
  return { imports, locals }
}
