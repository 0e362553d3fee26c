/**
 * The LangGraph.js export: a graph document as one readable TypeScript module that builds
 * the same StateGraph the differential suite's oracle builds (`src/differential/oracle.ts`),
 * written as source. Pure and deterministic: the same document gives the same bytes.
 */
import { nodeKind, prebuiltRouter } from '../core/graph/nodeKinds'
import { END, START } from '../core/graph/constants'
import type { BranchSpec, FieldSpec, GraphSpec, NodeSpec, SubgraphSpec } from '../core/graph/schema'
import { codeCalls, resolveSubgraph } from './subgraphLevels'
import { jsKey, jsLiteral } from './jsLiteral'
import { reducerSource } from './tsReducers'
import {
  escapeLoneSurrogates,
  jsBlockCommentLines,
  jsDocComment,
  jsLineComment,
  jsString,
} from './text'
import {
  createContext,
  imported,
  isCustom,
  local,
  usedHelpers,
  type Context,
  type SubgraphsObject,
} from './tsContext'
import { kindNodeValue, kindSetup, scriptedHelpers } from './tsKinds'
import {
  annotationTypeArgs,
  isTypedInExport,
  MESSAGE_TYPE_IMPORTS,
  tsType,
  writesDefault,
  type TypeImport,
} from './tsTypes'
import { fieldTypeOf, typeLabel } from '../core/graph/fieldTypes'
import { configDefaults } from '../core/graph/configDefaults'

/**
 * Writes a graph document as a LangGraph.js module: `State` (an `Annotation.Root`), one
 * function per node, router and custom reducer holding the document's code verbatim, the
 * `StateGraph` built with `addNode`/`addEdge`/`addConditionalEdges`, and
 * `export const graph = builder.compile({ checkpointer: new MemorySaver(), … })`.
 * Imports only what the graph uses, from `@langchain/langgraph` alone.
 */
export function emitTypeScript(graph: GraphSpec): string {
  const ctx = createContext(graph)
  const levels = [ctx, ...ctx.levels]
  const shared = levels.find((c) => c.subgraphsObject?.moduleLevel)?.subgraphsObject
  // With subgraphs, the scripted model's player comes before every graph that may use it.
  const scriptedFirst = ctx.levels.length > 0
  const body = [
    typeAliases(ctx),
    ...helperReducers(ctx),
    ...(scriptedFirst ? [scriptedHelpers(ctx)] : []),
    ...ctx.levels.flatMap((sub) => [subgraphComment(sub), ...levelSections(sub)]),
    ...(shared ? [subgraphsObjectSection(ctx, shared)] : []),
    ...(ctx.levels.length > 0 ? ['// The graph itself.'] : []),
    ...levelSections(ctx, scriptedFirst ? '' : scriptedHelpers(ctx)),
    configurableSection(ctx),
    compileSection(ctx),
  ]
  return `${[header(ctx), importSection(ctx), ...body].filter((s) => s !== '').join('\n\n')}\n`
}

/** One graph's sections: its reducers, state, kind setup, node and router functions, builder. */
function levelSections(ctx: Context, afterState = ''): string[] {
  const { graph } = ctx
  const own = ctx.subgraphsObject
  return [
    ...graph.state.flatMap((f) => customReducer(ctx, f)),
    stateSection(ctx),
    afterState,
    ...(own && !own.moduleLevel ? [subgraphsObjectSection(ctx, own)] : []),
    // Tools first: a model binds the tools of its tools node.
    ...[...graph.nodes]
      .sort((a, b) => Number(nodeKind(b) === 'tools') - Number(nodeKind(a) === 'tools'))
      .flatMap((n) => kindSetup(ctx, n, (name, type, code) => codeConst(ctx, name, type, code))),
    ...graph.nodes.flatMap((n) => nodeFunction(ctx, n)),
    ...(graph.branches ?? []).flatMap((b, i) => routerFunction(ctx, b, i)),
    builderSection(ctx),
    ...(ctx.levelName === undefined ? [] : [subgraphCompileSection(ctx)]),
  ]
}

function subgraphComment(ctx: Context): string {
  const lines = [
    `// Subgraph ${jsString(ctx.levelName ?? '')}: a StateGraph of its own, with its own state. It is`,
    '// compiled without a checkpointer: run inside its parent, it keeps its checkpoints in the',
    "// parent's, under the node's namespace.",
  ]
  if (typeof ctx.graph.description === 'string') lines.push(jsLineComment(ctx.graph.description))
  return lines.join('\n')
}

/** `const subgraphs = { name: compiledGraph }`: what node code calls as `subgraphs.<name>`. */
function subgraphsObjectSection(ctx: Context, object: SubgraphsObject): string {
  const entries = object.entries.map(([name, def]) => `${jsKey(name)}: ${compiledName(ctx, def)}`)
  return [
    '// The compiled subgraphs node code calls: `subgraphs.<name>.invoke(input)`.',
    `const ${object.name} = { ${entries.join(', ')} }`,
  ].join('\n')
}

function compiledName(ctx: Context, def: SubgraphSpec): string {
  const name = ctx.compiled.get(def)
  if (name === undefined) throw new Error('BUG: a subgraph with no compiled graph')
  return name
}

/** A subgraph compiles with its own breakpoints and no checkpointer (it uses its parent's). */
function subgraphCompileSection(ctx: Context): string {
  const options = breakpointOptions(ctx)
  const args = options.length === 0 ? '' : `{ ${options.join(', ')} }`
  return `const ${local(ctx, 'graph')} = ${local(ctx, 'builder')}.compile(${args})`
}

function header(ctx: Context): string {
  const { graph } = ctx
  const pauses =
    (graph.interruptBefore?.length ?? 0) > 0 ||
    (graph.interruptAfter?.length ?? 0) > 0 ||
    [...ctx.code.values()].some((c) => c.names.has('interrupt')) ||
    [ctx, ...ctx.levels].some((c) => c.graph.nodes.some((n) => nodeKind(n) === 'human'))
  const lines = [
    `Graph ${jsString(graph.name)}: a LangGraph.js graph generated by Superstep from its`,
    'graph document (format v1).',
    ...(graph.description ? ['', ...jsBlockCommentLines(graph.description)] : []),
    '',
    ctx.imports.has('@langchain/openai')
      ? 'Needs `@langchain/langgraph` 1.x, `@langchain/core` and `@langchain/openai` (with'
      : 'Needs `@langchain/langgraph` 1.x and `@langchain/core`. Use it from your code, e.g. (tsx):',
    ...(ctx.imports.has('@langchain/openai')
      ? ['OPENAI_API_KEY in the environment). Use it from your code, e.g. (tsx):']
      : []),
    '',
    ...(ctx.local.has('configurable')
      ? [
          "  import { configurable, graph } from './graph'",
          '  // The declared defaults of the settings the code reads; give your own over them.',
          "  const config = { configurable: { ...configurable, thread_id: 'thread-1' } }",
        ]
      : [
          "  import { graph } from './graph'",
          "  const config = { configurable: { thread_id: 'thread-1' } }",
        ]),
    '  console.log(await graph.invoke({}, config))',
    '',
    ...(pauses
      ? [
          'Where the run pauses (a breakpoint or `interrupt()`), continue it with',
          '`graph.invoke(new Command({ resume: value }), config)` (Command from',
          '`@langchain/langgraph`), or after a breakpoint `graph.invoke(null, config)`.',
          '',
        ]
      : []),
    '`graph` keeps its checkpoints in memory (MemorySaver); compile `builder` for another',
    "checkpointer. Node, router and reducer code is the document's own, verbatim.",
    ...([...ctx.code.values()].some((c) => c.innerParams)
      ? [
          'That code is JavaScript: under `strict`, TypeScript may ask for the types of the',
          'parameters of functions inside it (noImplicitAny). Add them, or turn that check off.',
        ]
      : []),
  ]
  // The name is quoted but may hold `*/`: no line may close the block early.
  return jsDocComment(lines)
}

function importSection(ctx: Context): string {
  return [...ctx.imports]
    .map(([module, names]) => {
      const isType = (name: string) => ctx.typeImports.has(`${module} ${name}`)
      const onlyTypes = [...names.keys()].every(isType)
      const specs = [...names]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([name, as]) => {
          const spec = as === name ? name : `${name} as ${as}`
          return !onlyTypes && isType(name) ? `type ${spec}` : spec
        })
      return `import ${onlyTypes ? 'type ' : ''}{ ${specs.join(', ')} } from ${jsString(module)}`
    })
    .join('\n')
}

function typeAliases(ctx: Context): string {
  const aliases = [
    ['NodeFn', '(state: any, config: any) => any'],
    ['RouterFn', '(state: any, config: any) => any'],
    ['ReducerFn', '(current: any, update: any) => any'],
    ['ToolFn', '(args: any) => any'],
  ].filter(([name]) => ctx.local.has(name ?? ''))
  if (aliases.length === 0) return ''
  return [
    '// The code of the document is untyped JavaScript: its functions take and return `any`.',
    ...aliases.map(([name, type]) => `type ${local(ctx, name ?? '')} = ${type}`),
  ].join('\n')
}

/** The named reducers the fields use, as function declarations. */
function helperReducers(ctx: Context): string[] {
  const used = new Set([ctx, ...ctx.levels].flatMap((c) => usedHelpers(c.graph)))
  return [...used].map((r) => reducerSource(r, local(ctx, r)))
}

function customReducer(ctx: Context, f: FieldSpec): string[] {
  if (!isCustom(f)) return []
  const name = local(ctx, `reducer:${f.name}`)
  const comment = `// The custom reducer of ${jsString(f.name)}.`
  return [`${comment}\n${codeConst(ctx, name, local(ctx, 'ReducerFn'), f.code ?? '')}`]
}

/**
 * `const name: Type = <code>`, the code verbatim: a comma expression is parenthesized, a
 * lone surrogate (only ever in a string or a comment) written as its `\uXXXX` escape.
 */
function codeConst(ctx: Context, name: string, type: string, code: string): string {
  // A trailing line comment in the code ends at the newline that always follows it.
  return `const ${name}: ${type} = ${codeText(ctx, code)}`
}

function codeText(ctx: Context, code: string): string {
  const text = escapeLoneSurrogates(code)
  return ctx.code.get(code)?.sequence ? `(${text}\n)` : text
}

function stateSection(ctx: Context): string {
  const entries = ctx.graph.state.map((f) => {
    const comments = [
      ...(typeof f.description === 'string' ? [jsLineComment(f.description, '  ')] : []),
      ...(ignoresDefault(f)
        ? ['  // Its default is ignored: LangGraph.js applies defaults to reducer fields only.']
        : []),
      ...(fieldTypeOf(f).kind !== 'any' && !isTypedInExport(f, writesDefault(f))
        ? [
            `  // Declared ${typeLabel(fieldTypeOf(f))}, left untyped: its default is not of that type.`,
          ]
        : []),
    ]
    const key = `  ${jsKey(f.name)}: `
    return [...comments, `${key}${channelOf(ctx, f, key.length)},`].join('\n')
  })
  const root = `${imported(ctx, 'Annotation')}.Root`
  const body = entries.length === 0 ? '{}' : `{\n${entries.join('\n')}\n}`
  return `const ${local(ctx, 'State')} = ${root}(${body})`
}

function ignoresDefault(f: FieldSpec): boolean {
  return 'default' in f && (f.channel !== undefined || !f.reducer || f.reducer === 'overwrite')
}

/**
 * The Annotation (or channel) of one field, as the oracle's `channelOf` makes it; its
 * options go on lines of their own when `column` plus the call would pass 90 columns.
 */
function channelOf(ctx: Context, f: FieldSpec, column: number): string {
  const t = fieldTypeOf(f)
  const typed = isTypedInExport(f, writesDefault(f))
  const typeName = (n: TypeImport) => imported(ctx, n, MESSAGE_TYPE_IMPORTS[n])
  if (f.channel === 'topic') {
    const topic = imported(ctx, 'Topic', '@langchain/langgraph/channels')
    const args = typed && t.kind === 'array' ? `<${tsType(t.items, typeName)}>` : ''
    return `new ${topic}${args}({ accumulate: ${f.accumulate === true} })`
  }
  if (f.channel === 'ephemeral') {
    const args = typed ? `<${tsType(t, typeName)}>` : ''
    return `new ${imported(ctx, 'EphemeralValue', '@langchain/langgraph/channels')}${args}()`
  }
  const annotation = `${imported(ctx, 'Annotation')}${typed ? annotationTypeArgs(f, t, typeName) : ''}`
  const reducer = reducerName(ctx, f)
  if (reducer === null) return `${annotation}()`
  const options = [`reducer: ${reducer}`]
  if ('default' in f) options.push(`default: () => ${defaultLiteral(f.default, '  ')}`)
  const flat = `${annotation}({ ${options.join(', ')} })`
  if (column + flat.length + 1 <= 90 && !flat.includes('\n')) return flat
  const long = 'default' in f ? `default: () => ${defaultLiteral(f.default, '    ')}` : null
  const lines = [`reducer: ${reducer}`, ...(long ? [long] : [])]
  return `${annotation}({\n${lines.map((l) => `    ${l},\n`).join('')}  })`
}

function reducerName(ctx: Context, f: FieldSpec): string | null {
  switch (f.reducer) {
    case undefined:
    case 'overwrite':
      return null
    case 'add_messages':
      return imported(ctx, 'messagesStateReducer')
    case 'custom':
      return local(ctx, `reducer:${f.name}`)
    default:
      return local(ctx, f.reducer)
  }
}

/** A fresh copy per call, as the oracle's `structuredClone(default)`. */
function defaultLiteral(value: unknown, indent: string): string {
  const literal = jsLiteral(value, indent)
  return literal.startsWith('{') ? `(${literal})` : literal
}

const KIND_COMMENT = {
  code: '',
  model: ': a chat model',
  tools: ": LangGraph's ToolNode",
  human: ': asks a human (interrupt)',
  graph: ': runs a subgraph',
} as const

function nodeFunction(ctx: Context, node: NodeSpec): string[] {
  const kind = nodeKind(node)
  if (kind === 'graph') return [] // the builder adds the compiled subgraph itself
  const name = local(ctx, `node:${node.id}`)
  const comments = [`// Node ${jsString(node.id)}${KIND_COMMENT[kind]}.`]
  if (typeof node.description === 'string') comments.push(jsLineComment(node.description))
  const nodeFn = local(ctx, 'NodeFn')
  const object = ctx.subgraphsObject
  const value =
    kind === 'code' && object && !object.moduleLevel && codeCalls(node).length > 0
      ? // This level's subgraphs differ from another's: its code gets its own as `subgraphs`.
        `const ${name}: ${nodeFn} = ((subgraphs: typeof ${object.name}): ${nodeFn} =>\n  ${codeText(ctx, node.code ?? '')})(${object.name})`
      : kind === 'code'
        ? codeConst(ctx, name, nodeFn, node.code ?? '')
        : kind === 'tools' && (node.messagesField ?? 'messages') === 'messages'
          ? `const ${name} = ${kindNodeValue(ctx, node)}`
          : `const ${name}: ${nodeFn} = ${kindNodeValue(ctx, node)}`
  return [`${comments.join('\n')}\n${value}`]
}

function routerFunction(ctx: Context, branch: BranchSpec, index: number): string[] {
  if (prebuiltRouter(branch)) return [] // imported: LangGraph's own toolsCondition
  const name = local(ctx, `router:${index}`)
  const source = branch.from === START ? 'START' : jsString(branch.from)
  const comment = `// Router of the conditional edge from ${source}.`
  return [`${comment}\n${codeConst(ctx, name, local(ctx, 'RouterFn'), branch.router)}`]
}

/** A node name as the builder takes it: START and END by their constants. */
function endpoint(ctx: Context, name: string): string {
  if (name === START) return imported(ctx, 'START')
  if (name === END) return imported(ctx, 'END')
  return jsString(name)
}

function builderSection(ctx: Context): string {
  const { graph } = ctx
  const calls: string[] = []
  for (const n of graph.nodes) {
    const sub = nodeKind(n) === 'graph' ? resolveSubgraph(ctx.scope, n.graph ?? '') : undefined
    const args = [jsString(n.id), sub ? compiledName(ctx, sub) : local(ctx, `node:${n.id}`)]
    const options = nodeOptions(ctx, n)
    if (options) args.push(options)
    calls.push(`.addNode(${args.join(', ')})`)
  }
  for (const e of graph.edges) {
    const from = Array.isArray(e.from)
      ? `[${e.from.map((s) => endpoint(ctx, s)).join(', ')}]`
      : endpoint(ctx, e.from)
    calls.push(`.addEdge(${from}, ${endpoint(ctx, e.to)})`)
  }
  ;(graph.branches ?? []).forEach((b, i) => {
    const args = [endpoint(ctx, b.from), local(ctx, `router:${i}`)]
    if (b.paths !== undefined) args.push(pathMap(ctx, b.paths))
    calls.push(`.addConditionalEdges(${args.join(', ')})`)
  })
  const name = local(ctx, 'builder')
  const exported = name === 'builder' && ctx.levelName === undefined
  const head = `${exported ? 'export ' : ''}const ${name} = new ${imported(ctx, 'StateGraph')}(${local(ctx, 'State')})`
  return [head, ...calls.map((c) => `  ${c}`)].join('\n')
}

function nodeOptions(ctx: Context, node: NodeSpec): string | null {
  const options: string[] = []
  if (node.ends) options.push(`ends: [${node.ends.map((t) => endpoint(ctx, t)).join(', ')}]`)
  if (node.defer) options.push('defer: true')
  // The subgraphs its code calls, so that LangGraph finds their state (getState, getSubgraphs).
  const called = codeCalls(node).flatMap((n) => {
    const def = resolveSubgraph(ctx.scope, n)
    return def ? [compiledName(ctx, def)] : []
  })
  if (called.length > 0) options.push(`subgraphs: [${called.join(', ')}]`)
  return options.length > 0 ? `{ ${options.join(', ')} }` : null
}

function pathMap(ctx: Context, paths: NonNullable<BranchSpec['paths']>): string {
  if (Array.isArray(paths)) return `[${paths.map((t) => endpoint(ctx, t)).join(', ')}]`
  const entries = Object.entries(paths).map(([k, t]) => `${jsKey(k)}: ${endpoint(ctx, t)}`)
  return entries.length === 0 ? '{}' : `{ ${entries.join(', ')} }`
}

function breakpointOptions(ctx: Context): string[] {
  const options: string[] = []
  for (const key of ['interruptBefore', 'interruptAfter'] as const) {
    const list = ctx.graph[key]
    if (!list || list.length === 0) continue
    // A document writes "every node" as ["*"]; LangGraph takes the string "*".
    const value = list.includes('*') ? "'*'" : `[${list.map(jsString).join(', ')}]`
    options.push(`${key}: ${value}`)
  }
  return options
}

/**
 * `const configurable = { … }`: the declared defaults of the run settings the graph's code
 * reads from `config.configurable` (LangGraph.js fills none itself), each setting listed.
 */
function configurableSection(ctx: Context): string {
  const settings = ctx.graph.config ?? []
  const name = ctx.local.get('configurable')
  if (name === undefined || settings.length === 0) return ''
  const lines = [
    '// The run settings the code reads from `config.configurable`, with their declared',
    '// defaults: pass them with each run, your own over them',
    "// (`graph.invoke(input, { configurable: { ...configurable, thread_id: 'thread-1' } })`).",
    ...settings.map((c) =>
      jsLineComment(
        `${c.name} (${c.type})${c.default === undefined ? ', no default' : ''}${c.description ? `: ${c.description}` : ''}`,
      ),
    ),
  ]
  const defaults = configDefaults(settings)
  return `${lines.join('\n')}\nconst ${name} = ${jsLiteral(defaults, '')}`
}

function compileSection(ctx: Context): string {
  const options = [`checkpointer: new ${imported(ctx, 'MemorySaver')}()`, ...breakpointOptions(ctx)]
  const builder = local(ctx, 'builder')
  const graphName = local(ctx, 'graph')
  const flat = `{ ${options.join(', ')} }`
  const arg = flat.length <= 60 ? flat : `{\n${options.map((o) => `  ${o},\n`).join('')}}`
  const lines = [
    `${graphName === 'graph' ? 'export ' : ''}const ${graphName} = ${builder}.compile(${arg})`,
  ]
  const settings = ctx.local.get('configurable')
  const renamed = [
    [local(ctx, 'State'), 'State'],
    ...(settings === undefined ? [] : [[settings, 'configurable']]),
    ...(builder === 'builder' ? [] : [[builder, 'builder']]),
    ...(graphName === 'graph' ? [] : [[graphName, 'graph']]),
  ]
  lines.push(`export { ${renamed.map(([n, as]) => (n === as ? n : `${n} as ${as}`)).join(', ')} }`)
  return lines.join('\n')
}
