/**
 * The plan of an emitted Python module: every graph of the document (its subgraphs first, the
 * root last) with the module-level names its definitions take, and its node, router and
 * reducer code translated (`jsToPython.ts`) against the names the whole module binds.
 */
import { nodeKind, prebuiltRouter } from '../core/graph/nodeKinds'
import { START } from '../core/graph/constants'
import type { BranchSpec, FieldSpec, GraphSpec } from '../core/graph/schema'
import { scopeOf, type SubgraphScope } from '../core/graph/subgraphScope'
import { findSendTargets, translateFunction } from './jsToPython'
import { planKindNode } from './pyKinds'
import { use, type PyFunction, type PyModule } from './pyModule'
import { PY_MODULE_NAMES, PyNamer } from './pyNames'
import type { PyHelper } from './pyPrelude'
import { codeCalls, resolveSubgraph, subgraphLevels, type SubgraphLevel } from './subgraphLevels'

/** The names one graph's module-level definitions take. */
interface LevelNames {
  graph: GraphSpec
  levelName?: string
  reducerNames: (readonly [FieldSpec, string])[]
  nodeNames: string[]
  routerNames: string[]
  stateName: string
  builderName: string
  graphName: string
  /** What its node code's `subgraphs.<name>` is: the compiled subgraph's Python name. */
  calls: Map<string, string>
}

function nameLevel(graph: GraphSpec, names: PyNamer, level?: SubgraphLevel): LevelNames {
  const reducerNames = graph.state
    .filter((f) => f.reducer === 'custom' && !f.channel)
    .map((f) => [f, names.take(f.name, 'reduce', true)] as const)
  // A graph node is its compiled subgraph, named with the subgraph (below).
  const nodeNames = graph.nodes.map((n) =>
    nodeKind(n) === 'graph' ? '' : names.take(n.id, 'node'),
  )
  const routerNames = (graph.branches ?? []).map((b) =>
    prebuiltRouter(b)
      ? 'tools_condition'
      : names.take(b.from === START ? 'start' : b.from, 'route', true),
  )
  if (!level) {
    const root = { stateName: 'State', builderName: 'builder', graphName: 'graph' }
    return { graph, reducerNames, nodeNames, routerNames, ...root, calls: new Map() }
  }
  const pascal = level.name
    .split(/[^A-Za-z0-9]+/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('')
  return {
    graph,
    levelName: level.name,
    reducerNames,
    nodeNames,
    routerNames,
    stateName: names.take(`${pascal}State`, 'Subgraph'),
    builderName: names.take(`${level.name}_builder`, 'subgraph'),
    graphName: names.take(`${level.name}_graph`, 'subgraph'),
    calls: new Map(),
  }
}

/**
 * The module of every graph of the document, subgraphs first (dependencies before their
 * users), the root last. One namer: every module-level name is unique across them.
 */
export function createModules(root: GraphSpec): PyModule[] {
  const names = new PyNamer()
  const levels = subgraphLevels(root)
  const rootNames = nameLevel(root, names)
  const levelNames = levels.map((l) => nameLevel(l.spec, names, l))
  const compiled = new Map(levels.map((l, i) => [l.def, (levelNames[i] as LevelNames).graphName]))
  const scopes = [...levels.map((l) => l.scope), scopeOf(root, undefined)]
  const planned = [...levelNames, rootNames]
  planned.forEach((p, i) => {
    p.graph.nodes.forEach((n, j) => {
      if (nodeKind(n) !== 'graph') return
      const def = resolveSubgraph(scopes[i] as SubgraphScope, n.graph ?? '')
      p.nodeNames[j] = (def && compiled.get(def)) ?? names.take(n.id, 'node')
    })
  })
  planned.forEach((p, i) => {
    for (const name of new Set(p.graph.nodes.flatMap(codeCalls))) {
      const def = resolveSubgraph(scopes[i] as SubgraphScope, name)
      const py = def && compiled.get(def)
      if (py) p.calls.set(name, py)
    }
  })
  const reserved = [
    ...PY_MODULE_NAMES,
    ...planned.flatMap((p) => [
      ...p.reducerNames.map(([, n]) => n),
      ...p.nodeNames,
      ...p.routerNames,
      ...(p.levelName === undefined ? [] : [p.stateName, p.builderName, p.graphName]),
    ]),
  ]
  const helpers = new Set<PyHelper>()
  const imports = new Map<string, Set<string>>()
  return planned.map((p) => createModule(p, names, reserved, helpers, imports))
}

function createModule(
  plan: LevelNames,
  names: PyNamer,
  reserved: string[],
  helpers: Set<PyHelper>,
  imports: Map<string, Set<string>>,
): PyModule {
  const { graph, reducerNames, nodeNames, routerNames } = plan
  const m: PyModule = {
    graph,
    helpers,
    imports,
    reducers: new Map(),
    nodes: [],
    routers: [],
    kinds: [],
    nodeNames,
    routerNames,
    stateName: plan.stateName,
    builderName: plan.builderName,
    graphName: plan.graphName,
    ...(plan.levelName === undefined ? {} : { levelName: plan.levelName }),
  }
  const fields = graph.state
  const branches = graph.branches ?? []
  const of = plan.levelName === undefined ? '' : ` of subgraph ${plan.levelName}`
  const sends = findSendTargets([
    ...graph.nodes.flatMap((n) => (nodeKind(n) === 'code' ? [n.code ?? ''] : [])),
    ...branches.flatMap((b) => (prebuiltRouter(b) ? [] : [b.router])),
  ])

  for (const [f, name] of reducerNames) {
    const code = f.code ?? ''
    const where = `reducer of ${f.name}${of}`
    const translation = translateFunction(code, { kind: 'reducer', fields, reserved, where })
    m.reducers.set(f.name, { kind: 'reducer', owner: f.name, name, code, translation, notes: [] })
  }
  graph.nodes.forEach((n, i) => {
    if (nodeKind(n) === 'graph') return
    if (nodeKind(n) !== 'code') {
      m.kinds.push(planKindNode(n, nodeNames[i] as string, names, reserved))
      return
    }
    const code = n.code ?? ''
    const sendTarget = sends.computed || sends.targets.has(n.id)
    const translation = translateFunction(code, {
      kind: 'node',
      fields,
      sendTarget,
      reserved,
      where: `node ${n.id}${of}`,
      subgraphs: plan.calls,
    })
    const notes = sendTarget ? ["A Send may start it: `state` is then the Send's argument."] : []
    m.nodes.push({
      kind: 'node',
      owner: n.id,
      name: nodeNames[i] as string,
      code,
      translation,
      notes,
    })
  })
  branches.forEach((b, i) => {
    if (prebuiltRouter(b)) use(m, 'langgraph.prebuilt', 'tools_condition')
    else m.routers.push(routerFunction(b, routerNames[i] as string, fields, reserved, of))
  })
  return m
}

function isEmptyPathMap(paths: BranchSpec['paths']): boolean {
  return (
    paths !== undefined &&
    (Array.isArray(paths) ? paths.length === 0 : Object.keys(paths).length === 0)
  )
}

function routerFunction(
  b: BranchSpec,
  name: string,
  fields: FieldSpec[],
  reserved: string[],
  of: string,
): PyFunction {
  const hasPaths = b.paths !== undefined
  const translation = translateFunction(b.router, {
    kind: 'router',
    fields,
    hasPaths,
    reserved,
    where: `router of ${b.from}${of}`,
  })
  const f: PyFunction = {
    kind: 'router',
    owner: b.from,
    name,
    code: b.router,
    translation,
    notes: [],
  }
  if (isEmptyPathMap(b.paths))
    f.forced =
      'its path map is empty, so every route fails (LangGraph Python would read an empty path map as none)'
  return f
}
