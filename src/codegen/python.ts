/**
 * The LangGraph Python export: a graph document as one module that builds the same
 * StateGraph (`State` as a TypedDict with reducers and channels, one function per node,
 * router and custom reducer, the edges, `graph = builder.compile(…)`). Node code is
 * JavaScript; `jsToPython.ts` translates what Python does exactly alike, the rest becomes a
 * function that raises NotImplementedError beside the original code. Pure and deterministic:
 * the same document gives the same bytes.
 */
import { nodeKind } from '../core/graph/nodeKinds'
import { END, START } from '../core/graph/constants'
import type { BranchSpec, GraphSpec } from '../core/graph/schema'
import type { CodeKind } from './jsToPython'
import { createModules } from './pyLevels'
import { kindBlocks, scriptedHelper, toolHelpers } from './pyKinds'
import { use, type PyFunction, type PyModule, type PyTool } from './pyModule'
import { preludeFor } from './pyPrelude'
import { emitState } from './pyState'
import { pyCall, pyDisplay, pyValue } from './pyText'
import { pyComment, pyCommentText, pyProse, pyString } from './text'
import { configDefaults } from '../core/graph/configDefaults'

/**
 * Writes a graph document as a LangGraph Python module: imports (only what is used), the
 * helpers for Superstep's reducers, `State`, the node, router and reducer functions, the
 * builder calls, `graph = builder.compile(…)` for LangGraph's server (no checkpointer, which
 * the server refuses) and `local_graph()` with an in-memory one, which `python graph.py` runs.
 * The header lists every function whose JavaScript must be translated by hand.
 */
export function emitPython(graph: GraphSpec): string {
  const modules = createModules(graph)
  const m = modules[modules.length - 1] as PyModule // the root, after its subgraphs
  const levels = modules.slice(0, -1)
  const all: PyModule = { ...m, kinds: modules.flatMap((l) => l.kinds) }
  const functions = modules.flatMap((l) => [...l.reducers.values(), ...l.nodes, ...l.routers])
  const states = new Map(modules.map((l) => [l, emitState(l)])) // first: the fields decide the helpers
  const tools = all.kinds.flatMap((k) => k.tools)
  for (const f of [...functions, ...tools])
    if (f.translation.ok) for (const h of f.translation.helpers) m.helpers.add(h)
  const prelude = preludeFor(m.helpers)
  for (const i of prelude.imports) use(m, '', i)
  if (prelude.blocks.length > 0) use(m, 'typing', 'Any')
  for (const f of [...functions, ...tools])
    if (f.translation.ok) for (const i of f.translation.imports) useLangGraph(m, i)
  const shared = [...scriptedHelper(all), ...toolHelpers(all)]
  const body = [
    ...prelude.blocks,
    ...(levels.length > 0 ? shared : []),
    ...levels.flatMap((l) => [subgraphComment(l), ...levelBlocks(l, states.get(l) ?? '', [])]),
    ...(levels.length > 0 ? ['# The graph itself.'] : []),
    ...levelBlocks(m, states.get(m) ?? '', levels.length > 0 ? [] : shared),
  ]
  // The import section last: the builder's START and END are imports too.
  return `${header(m, functions, tools)}\n\n${[importSection(m), ...body].join('\n\n\n')}\n`
}

/** One graph's blocks: reducers, state, kind nodes, node and router functions, builder. */
function levelBlocks(m: PyModule, state: string, afterState: string[]): string[] {
  // Tools first: a model binds the tools of its tools node.
  const kinds = [...m.kinds].sort(
    (a, b) => Number(nodeKind(b.node) === 'tools') - Number(nodeKind(a.node) === 'tools'),
  )
  return [
    ...[...m.reducers.values()].map((f) => functionBlock(m, f)),
    state,
    ...afterState,
    ...kinds.flatMap((k) => kindBlocks(m, k)),
    ...m.nodes.map((f) => functionBlock(m, f)),
    ...m.routers.map((f) => functionBlock(m, f)),
    builderSection(m),
  ]
}

function subgraphComment(m: PyModule): string {
  return [
    `# Subgraph ${pyString(m.levelName ?? '')}: a StateGraph of its own, with its own state, compiled`,
    "# without a checkpointer: run inside its parent, it keeps its checkpoints in the parent's.",
    ...(m.graph.description ? pyProse(m.graph.description) : []),
  ].join('\n')
}

const IMPORT_FROM: Record<string, string> = {
  Send: 'langgraph.types',
  Command: 'langgraph.types',
  interrupt: 'langgraph.types',
  END: 'langgraph.graph',
  START: 'langgraph.graph',
  RemoveMessage: 'langchain_core.messages',
  sleep: 'time',
  reduce: 'functools',
}

function useLangGraph(m: PyModule, name: string): void {
  use(m, IMPORT_FROM[name] ?? 'langgraph.types', name)
}

const KIND_LABEL: Record<CodeKind, string> = {
  node: 'Node',
  router: 'Router of',
  reducer: 'Reducer of',
  tool: 'Tool',
}

function functionBlock(m: PyModule, f: PyFunction): string {
  const t = f.translation
  const params = t.ok ? t.params : f.kind === 'reducer' ? ['a', 'b'] : ['state']
  const lines: string[] = []
  const label = `${KIND_LABEL[f.kind]} ${pyString(f.owner)}`
  if (f.forced) lines.push(...pyProse(`${label}: ${pyCommentText(f.forced)}.`))
  else if (!t.ok)
    lines.push(...pyProse(`${label}, to translate by hand: ${pyCommentText(t.reason)}.`))
  else lines.push(`# ${label}.`)
  const description =
    f.kind === 'node' ? m.graph.nodes.find((n) => n.id === f.owner)?.description : undefined
  if (description) lines.push(...pyProse(description))
  for (const note of f.notes) lines.push(`# ${note}`)
  lines.push(
    '# JavaScript:',
    ...pyComment(f.code).map((l) => (l === '#' ? l : `#     ${l.slice(2)}`)),
  )
  lines.push(`def ${f.name}(${params.join(', ')}):`)
  if (f.forced) {
    const message = `conditional edge from ${f.owner}: the path map is empty, every route fails`
    lines.push(`    raise ValueError(${pyString(message)})`)
  } else if (t.ok) lines.push(...t.body.map((l) => `    ${l}`))
  else {
    const what =
      f.kind === 'node' ? 'node' : f.kind === 'router' ? 'router of node' : 'reducer of field'
    lines.push(
      `    raise NotImplementedError(${pyString(`${what} ${f.owner}: translate this JavaScript by hand`)})`,
    )
  }
  return lines.join('\n')
}

/** The names of what is to be translated by hand, as comment lines. */
function toTranslate(label: string, owners: string[]): string[] {
  if (owners.length === 0) return []
  const lines = [`# ${label}:`]
  for (const o of owners) {
    const item = ` ${pyString(o)},`
    const last = lines.length - 1
    if ((lines[last] as string).length + item.length > 99) lines.push(`#  ${item.trimStart()}`)
    else lines[last] += item
  }
  lines[lines.length - 1] = (lines[lines.length - 1] as string).replace(/,$/, '')
  return lines
}

function header(m: PyModule, functions: PyFunction[], tools: PyTool[]): string {
  const byHand = (kind: CodeKind) =>
    functions.filter((f) => f.kind === kind && !f.translation.ok && !f.forced).map((f) => f.owner)
  const toolsByHand = tools.filter((t) => !t.translation.ok).map((t) => t.spec.name)
  const todo = [
    ...toTranslate('Nodes to translate by hand', byHand('node')),
    ...toTranslate('Tools to translate by hand', toolsByHand),
    ...toTranslate('Routers to translate by hand (by source node)', byHand('router')),
    ...toTranslate('Reducers to translate by hand (by field)', byHand('reducer')),
  ]
  return [
    // The first two lines hold no document text: Python reads an encoding declaration there.
    '# LangGraph (Python) module generated by Superstep from a graph document (format v1).',
    '# Edit it freely: Superstep does not read it back.',
    '#',
    `# Graph: ${pyCommentText(m.graph.name)}`.trimEnd(),
    ...(m.graph.description ? pyProse(m.graph.description) : []),
    '#',
    '# Node, router and reducer code is JavaScript in Superstep. It is translated where Python',
    '# does what JavaScript does: exactly, or under a guard (`_js_number`, `_js_len`, …) that',
    '# raises TypeError where JavaScript would do something else with the value it gets.',
    '# Anything else raises NotImplementedError, with the JavaScript in a comment above it.',
    ...(todo.length > 0 ? todo : ['# All of it is translated.']),
  ].join('\n')
}

/** Constants, then classes, then functions, each alphabetical (isort's order). */
function importOrder(a: string, b: string): number {
  const rank = (s: string) => (s === s.toUpperCase() ? 0 : /^[A-Z]/.test(s) ? 1 : 2)
  return rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0)
}

function importSection(m: PyModule): string {
  const plain = [...(m.imports.get('') ?? [])].sort().map((i) => `import ${i}`)
  const from = (module: string) => {
    const names = [...(m.imports.get(module) ?? [])].sort(importOrder)
    return names.length > 0 ? [`from ${module} import ${names.join(', ')}`] : []
  }
  const third = [
    'langchain_core.messages',
    'langchain_core.tools',
    'langchain_openai',
    'langgraph.channels',
    'langgraph.checkpoint.memory',
    'langgraph.graph',
    'langgraph.graph.message',
    'langgraph.prebuilt',
    'langgraph.types',
    'typing_extensions',
  ]
  const standard = [...plain, ...from('functools'), ...from('time'), ...from('typing')]
  return [standard.join('\n'), third.flatMap(from).join('\n')].join('\n\n')
}

/** A node name as Python: START and END by their constants. */
function nodeRef(m: PyModule, name: string): string {
  if (name === START || name === END) {
    use(m, 'langgraph.graph', name === START ? 'START' : 'END')
    return name === START ? 'START' : 'END'
  }
  return pyString(name)
}

/** A list of node names, `[START, "a"]`. */
function nodeList(m: PyModule, names: string[]): string {
  return pyDisplay(
    '[',
    names.map((n) => nodeRef(m, n)),
    ']',
  )
}

function interruptArg(m: PyModule, nodes: string[] | undefined): string | null {
  if (!nodes || nodes.length === 0) return null
  return nodes.includes('*') ? '"*"' : nodeList(m, nodes)
}

function pathMap(m: PyModule, paths: BranchSpec['paths']): string[] {
  if (paths === undefined) return []
  if (Array.isArray(paths)) return [nodeList(m, paths)]
  const items = Object.entries(paths).map(([k, v]) => `${pyString(k)}: ${nodeRef(m, v)}`)
  return [pyDisplay('{', items, '}')]
}

function leavesStart(g: GraphSpec): boolean {
  const fromStart = (from: string | string[]) =>
    Array.isArray(from) ? from.includes(START) : from === START
  return g.edges.some((e) => fromStart(e.from)) || (g.branches ?? []).some((b) => b.from === START)
}

function builderSection(m: PyModule): string {
  const g = m.graph
  use(m, 'langgraph.graph', 'StateGraph')
  const builder = m.builderName
  const lines = [`${builder} = StateGraph(${m.stateName})`]
  g.nodes.forEach((n, i) => {
    const args = [pyString(n.id), m.nodeNames[i] as string]
    if (n.defer) args.push('defer=True')
    if (n.ends && n.ends.length > 0) {
      // Only for drawing the graph, as `ends` in LangGraph.js: a Command goes anywhere.
      const ends = n.ends.map((e) => nodeRef(m, e))
      args.push(`destinations=${ends.length === 1 ? `(${ends[0]},)` : pyDisplay('(', ends, ')')}`)
    }
    lines.push(pyCall(`${builder}.add_node`, args))
  })
  for (const e of g.edges) {
    const from = Array.isArray(e.from) ? nodeList(m, e.from) : nodeRef(m, e.from)
    lines.push(pyCall(`${builder}.add_edge`, [from, nodeRef(m, e.to)]))
  }
  ;(g.branches ?? []).forEach((b, i) => {
    const args = [nodeRef(m, b.from), m.routerNames[i] as string, ...pathMap(m, b.paths)]
    lines.push(pyCall(`${builder}.add_conditional_edges`, args))
  })
  if (!leavesStart(g)) {
    // LangGraph.js runs nothing when nothing leaves START; LangGraph Python refuses to
    // compile such a graph ("must have an entrypoint"), so give it an edge to nowhere.
    use(m, 'langgraph.graph', 'START')
    lines.push(
      '# Nothing leaves START, so a run does nothing; LangGraph Python needs an entry point.',
      `${builder}.add_conditional_edges(START, lambda state: [])`,
    )
  }
  const breakpoints: string[] = []
  const before = interruptArg(m, g.interruptBefore)
  const after = interruptArg(m, g.interruptAfter)
  if (before) breakpoints.push(`interrupt_before=${before}`)
  if (after) breakpoints.push(`interrupt_after=${after}`)
  if (m.levelName !== undefined) {
    const compile = pyCall(`${m.graphName} = ${builder}.compile`, breakpoints)
    return `${lines.join('\n')}\n${compile}`
  }
  const server = [
    "# The graph LangGraph's server runs (langgraph.json): the server keeps the checkpoints",
    '# and refuses a graph compiled with a checkpointer of its own.',
    pyCall('graph = builder.compile', breakpoints),
  ].join('\n')
  return [`${lines.join('\n')}\n\n${server}`, ...localRunner(m, breakpoints)].join('\n\n\n')
}

/**
 * `local_graph()`, the graph with an in-memory checkpointer (threads, interrupts, resume and
 * history outside the server), and `python graph.py '<json>'`, which runs it once.
 */
function localRunner(m: PyModule, breakpoints: string[]): string[] {
  const settings = m.graph.config ?? []
  use(m, 'langgraph.checkpoint.memory', 'InMemorySaver')
  use(m, '', 'json')
  use(m, '', 'sys')
  const compile = pyCall(
    'builder.compile',
    ['checkpointer=InMemorySaver()', ...breakpoints],
    '    ',
    92, // indented under `return `: 4 + 7 columns before the call
  )
  const defaults = configDefaults(settings)
  const declared =
    settings.length === 0
      ? []
      : [
          [
            '# The run settings the code reads from `config["configurable"]`, with their declared',
            '# defaults: pass them with each run, your own over them',
            '# (`local_graph().invoke(input, {"configurable": {**CONFIGURABLE, "thread_id": "1"}})`).',
            ...settings.map((c) =>
              pyComment(
                `${c.name} (${c.type})${c.default === undefined ? ', no default' : ''}${c.description ? `: ${c.description}` : ''}`,
              ).join('\n'),
            ),
            `CONFIGURABLE = ${pyValue(defaults)}`,
          ].join('\n'),
        ]
  const config =
    settings.length === 0
      ? ['    config = {"configurable": {"thread_id": "local-1"}}']
      : [
          '    # The declared defaults, and your own over them (a second argument, JSON).',
          '    own = json.loads(argv[2] if len(argv) > 2 else "{}")',
          '    config = {"configurable": {**CONFIGURABLE, **own, "thread_id": "local-1"}}',
        ]
  return [
    ...declared,
    [
      'def local_graph():',
      `    """\`graph\` with an in-memory checkpointer, for runs outside LangGraph's server."""`,
      `    return ${compile.trimStart()}`,
      '',
      '',
      'def _run_once(argv):',
      '    """Runs the graph once on a fresh thread and prints its checkpoints, oldest first."""',
      '    local = local_graph()',
      ...config,
      '    result = local.invoke(json.loads(argv[1] if len(argv) > 1 else "{}"), config)',
      '    for s in reversed(list(local.get_state_history(config))):',
      '        step, source = s.metadata.get("step"), s.metadata.get("source")',
      `        print(f"step {step} ({source}) next: [{', '.join(s.next)}]")`,
      '    print(json.dumps(result, indent=2, ensure_ascii=False, default=str))',
    ].join('\n'),
    ['if __name__ == "__main__":', '    _run_once(sys.argv)'].join('\n'),
  ]
}
