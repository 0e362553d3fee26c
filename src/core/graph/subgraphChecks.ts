/**
 * Problems of a document's subgraphs: every check of a graph applied inside each subgraph
 * (to any depth), located there (`subgraphs › team › nodes › 1`, `subgraph: ["team"]`), and
 * the problems of using them: a name that does not resolve, a graph node without one, a
 * subgraph that uses itself through any chain of uses.
 */
import {
  lookupSubgraph,
  scopeOf,
  subgraphDocument,
  subgraphsCalledBy,
  type SubgraphScope,
} from './subgraphScope'
import type { GraphIssue } from './issues'
import { nodeKind } from './nodeKinds'
import type { GraphSpec, SubgraphSpec } from './schema'

/** The checks of one graph, as parseGraph runs them on a document. */
export type GraphChecks = (spec: GraphSpec) => GraphIssue[]

/** One subgraph definition: where it is, what it is called, the scope its nodes see. */
interface Definition {
  spec: SubgraphSpec
  names: string[]
  path: (string | number)[]
  scope: SubgraphScope
}

/** The root's problems of use, and every subgraph's own problems. */
export function checkSubgraphs(spec: GraphSpec, check: GraphChecks): GraphIssue[] {
  const rootScope = scopeOf(spec, undefined)
  const issues = checkUses(spec, rootScope, [])
  const defs = definitions(spec, rootScope, [], [])
  for (const d of defs) {
    const doc = subgraphDocument(d.names.at(-1) as string, d.spec)
    const inner = [...check(doc), ...checkUses(doc, d.scope, d.names)]
    issues.push(...inner.map((i) => locate(i, d.names, d.path)))
  }
  issues.push(...checkCycles(defs))
  return issues
}

/** Every subgraph defined in a document, depth first. */
function definitions(
  graph: Pick<GraphSpec, 'subgraphs'>,
  scope: SubgraphScope,
  names: string[],
  path: (string | number)[],
): Definition[] {
  const out: Definition[] = []
  for (const [name, spec] of Object.entries(graph.subgraphs ?? {})) {
    const at = [...path, 'subgraphs', name]
    const own = scopeOf(spec, scope)
    out.push({ spec, names: [...names, name], path: at, scope: own })
    out.push(...definitions(spec, own, [...names, name], at))
  }
  return out
}

/** A subgraph's issue, placed in it: path from the document's root, the subgraph chain, the message. */
function locate(issue: GraphIssue, names: string[], path: (string | number)[]): GraphIssue {
  if (issue.subgraph) return issue
  return {
    ...issue,
    path: [...path, ...issue.path],
    subgraph: names,
    message: `In subgraph \`${names.join(' › ')}\`: ${issue.message}`,
  }
}

/** The subgraph names a graph's nodes use and whether each resolves (not yet located). */
function checkUses(
  graph: Pick<GraphSpec, 'nodes'>,
  scope: SubgraphScope,
  names: string[],
): GraphIssue[] {
  const issues: GraphIssue[] = []
  const where = names.length ? `subgraph \`${names.join(' › ')}\`` : 'the document'
  graph.nodes.forEach((n, i) => {
    if (nodeKind(n) === 'graph') {
      if (n.graph === undefined) {
        issues.push({
          code: 'MISSING_NODE_SETTING',
          severity: 'error',
          nodeId: n.id,
          path: ['nodes', i, 'graph'],
          message: `Graph node \`${n.id}\` has no \`graph\`: name one of the \`subgraphs\`.`,
        })
      } else if (!lookupSubgraph(scope, n.graph)) {
        issues.push({
          code: 'UNKNOWN_SUBGRAPH',
          severity: 'error',
          nodeId: n.id,
          path: ['nodes', i, 'graph'],
          message: `Graph node \`${n.id}\` runs subgraph \`${n.graph}\`, which ${where} does not define; add it to \`subgraphs\` or use one of: ${known(scope)}.`,
        })
      }
    } else if (n.code !== undefined) {
      for (const name of subgraphsCalledBy(n.code)) {
        if (lookupSubgraph(scope, name)) continue
        issues.push({
          code: 'UNKNOWN_SUBGRAPH',
          severity: 'warning',
          nodeId: n.id,
          path: ['nodes', i, 'code'],
          message: `The code of \`${n.id}\` calls \`subgraphs.${name}\`, which ${where} does not define; the call would fail. Subgraphs: ${known(scope)}.`,
        })
      }
    }
  })
  return issues
}

function known(scope: SubgraphScope): string {
  const names: string[] = []
  for (let s: SubgraphScope | undefined = scope; s; s = s.parent)
    names.push(...Object.keys(s.specs))
  return names.length ? names.map((n) => `\`${n}\``).join(', ') : '(none)'
}

/**
 * A subgraph that uses itself through a chain of graph nodes and `subgraphs.<name>` calls
 * would run forever: one problem per cycle, at the use that closes it.
 */
function checkCycles(defs: Definition[]): GraphIssue[] {
  const bySpec = new Map<SubgraphSpec, Definition>(defs.map((d) => [d.spec, d]))
  const uses = (d: { spec: Pick<GraphSpec, 'nodes'>; scope: SubgraphScope }) =>
    d.spec.nodes.flatMap((n, i) => {
      const called = nodeKind(n) === 'graph' ? [n.graph ?? ''] : subgraphsCalledBy(n.code ?? '')
      return called.flatMap((name) => {
        const hit = lookupSubgraph(d.scope, name)
        const def = hit && bySpec.get(hit.spec)
        return def ? [{ def, node: n.id, index: i }] : []
      })
    })
  const issues: GraphIssue[] = []
  const reported = new Set<Definition>()
  const state = new Map<Definition, 'open' | 'done'>()
  const visit = (d: Definition, chain: Definition[]): void => {
    state.set(d, 'open')
    for (const u of uses(d)) {
      if (state.get(u.def) === 'open' && !reported.has(u.def)) {
        reported.add(u.def)
        const from = chain.indexOf(u.def)
        const loop = [...chain.slice(from), d].map((x) => x.names.join(' › '))
        issues.push({
          code: 'SUBGRAPH_CYCLE',
          severity: 'error',
          nodeId: u.node,
          path: [...d.path, 'nodes', u.index],
          subgraph: d.names,
          message: `Subgraph \`${u.def.names.join(' › ')}\` uses itself: ${[...loop, u.def.names.join(' › ')].join(' → ')} (node \`${u.node}\`). A subgraph cannot contain itself.`,
        })
      } else if (!state.has(u.def)) visit(u.def, [...chain, d])
    }
    state.set(d, 'done')
  }
  for (const d of defs) if (!state.has(d)) visit(d, [])
  return issues
}
