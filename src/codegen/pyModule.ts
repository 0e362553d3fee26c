/** What the sections of an emitted Python module share while it is written. */
import type { GraphSpec, NodeSpec, ToolSpec } from '../core/graph/schema'
import type { CodeKind, Translation } from './jsToPython'
import type { PyHelper } from './pyPrelude'

/** One function of the module: a node's, a router's or a custom reducer's. */
export interface PyFunction {
  kind: CodeKind
  /** Node id (nodes, routers: the source node) or field name (reducers). */
  owner: string
  name: string
  code: string
  translation: Translation
  /** Why the function raises whatever the code says (a router with an empty path map). */
  forced?: string
  notes: string[]
}

export interface PyModule {
  graph: GraphSpec
  helpers: Set<PyHelper>
  /** `from module import name`, by module; `import module` under the key ''. */
  imports: Map<string, Set<string>>
  reducers: Map<string, PyFunction>
  /** The functions of the code nodes and the code routers. */
  nodes: PyFunction[]
  routers: PyFunction[]
  /** The model, tools and human nodes. */
  kinds: PyKindNode[]
  /** What `add_node` and `add_conditional_edges` name, by node and by branch. */
  nodeNames: string[]
  routerNames: string[]
  /** The names of its `State`, builder and compiled graph (`State`, `builder`, `graph` at the root). */
  stateName: string
  builderName: string
  graphName: string
  /** On a subgraph's module: its key in the `subgraphs` that defines it. */
  levelName?: string
}

/** Records that the module imports `name` from `module` (or `import name` for ''). */
export function use(m: PyModule, module: string, name: string): void {
  const names = m.imports.get(module) ?? new Set<string>()
  names.add(name)
  m.imports.set(module, names)
}

/** One tool of a tools node, its code translated as a function of the call's arguments. */
export interface PyTool {
  node: string
  spec: ToolSpec
  name: string
  translation: Translation
}

/** A node that is not a code node: the module-level names its block defines. */
export interface PyKindNode {
  node: NodeSpec
  /** The node function's (or ToolNode's) name. */
  name: string
  /** A tools node's list, a model's replies or client. */
  value: string
  tools: PyTool[]
}
