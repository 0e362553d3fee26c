/** What the sections of an emitted Python module share while it is written. */
import type { GraphSpec } from '../core/graph/schema'
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
  nodes: PyFunction[]
  routers: PyFunction[]
}

/** Records that the module imports `name` from `module` (or `import name` for ''). */
export function use(m: PyModule, module: string, name: string): void {
  const names = m.imports.get(module) ?? new Set<string>()
  names.add(name)
  m.imports.set(module, names)
}
