import { z } from '../../lib/zod'
import {
  BranchSpecSchema,
  FieldSpecSchema,
  GraphSpecSchema,
  NodeSpecSchema,
  type GraphSpec,
  type SubgraphSpec,
} from './schema'
import { checkExpressionSyntax } from './code'
import type { GraphIssue } from './issues'
import { hasErrors } from './issues'
import { isReservedFieldName, RESERVED_NODE_NAMES } from './constants'
import { checkWiring } from './wiring'
import { schemaIssues } from './schemaIssues'
import { checkDesign } from './checks'
import { checkNodeKinds, findSecrets, nodeKind, prebuiltRouter } from './nodeKinds'
import { describeValue, fieldTypeOf, matchesType, typeLabel } from './fieldTypes'
import { checkSubgraphs } from './subgraphChecks'
import { reserveCode } from './codeFacts'

/**
 * A document that fails only the semantic checks (it matches the format) still has its
 * `wellFormed` spec: the views show it, with its problems.
 */
export type ParseResult =
  | { ok: true; spec: GraphSpec; issues: GraphIssue[] }
  | { ok: false; issues: GraphIssue[]; wellFormed?: GraphSpec }

/**
 * Validates a graph document (any JSON value). Errors are what LangGraph.js would refuse
 * to compile or what cannot run; warnings are what LangGraph.js accepts but silently
 * ignores. Never throws on bad input.
 */
export function parseGraph(doc: unknown): ParseResult {
  const secrets = findSecrets(doc)
  const parsed = GraphSpecSchema.safeParse(doc)
  if (!parsed.success) {
    return {
      ok: false,
      issues: [...secrets, ...schemaIssues(doc, parsed.error.issues), ...checkWellFormedParts(doc)],
    }
  }
  const spec = parsed.data
  reserveCode(codeCount(spec))
  const issues = [...secrets, ...checkGraph(spec), ...checkSubgraphs(spec, checkGraph)]
  return hasErrors(issues) ? { ok: false, issues, wellFormed: spec } : { ok: true, spec, issues }
}

/** How many pieces of code a graph may hold, its subgraphs' included (an upper bound). */
function codeCount(g: GraphSpec | SubgraphSpec): number {
  let n = g.state.length + (g.branches?.length ?? 0)
  for (const node of g.nodes) n += 1 + (node.tools?.length ?? 0)
  for (const sub of Object.values(g.subgraphs ?? {})) n += codeCount(sub)
  return n
}

/** The checks of one graph (a document, or a subgraph as a document of its own). */
function checkGraph(spec: GraphSpec): GraphIssue[] {
  return [
    ...checkFields(spec),
    ...checkNodes(spec),
    ...checkNodeKinds(spec),
    ...checkWiring(spec),
    ...checkDesign(spec),
  ]
}

/**
 * What can still be said of a document the schema refused: each part whose every item is
 * well-formed (the state, the nodes, the routers) gets its usual checks, so one unknown
 * reducer does not hide a duplicate node or code that does not parse. The wiring checks
 * need the whole document and wait until it is well-formed.
 */
function checkWellFormedParts(doc: unknown): GraphIssue[] {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return []
  const raw = doc as Record<string, unknown>
  const state = z.array(FieldSpecSchema).safeParse(raw.state)
  const nodes = z.array(NodeSpecSchema).safeParse(raw.nodes)
  const branches = z.array(BranchSpecSchema).safeParse(raw.branches ?? [])
  const fieldNames = Array.isArray(raw.state)
    ? raw.state.flatMap((f) => {
        const name = (f as { name?: unknown } | null)?.name
        return typeof name === 'string' ? [name] : []
      })
    : []
  const part: GraphSpec = {
    superstep: 1,
    name: '',
    state: state.success ? state.data : [],
    nodes: nodes.success ? nodes.data : [],
    edges: [],
    branches: branches.success ? branches.data : [],
  }
  return [
    ...(state.success ? checkFields(part) : []),
    ...checkNodes(part, new Set(fieldNames)),
    ...(state.success && nodes.success ? checkNodeKinds(part) : []),
  ]
}

/** All problems of a document, errors and warnings. */
export function validateGraph(doc: unknown): GraphIssue[] {
  return parseGraph(doc).issues
}

function checkFields(spec: GraphSpec): GraphIssue[] {
  const issues: GraphIssue[] = []
  const seen = new Set<string>()
  spec.state.forEach((f, i) => {
    const at = (...p: (string | number)[]) => ['state', i, ...p]
    const base = { field: f.name }
    if (seen.has(f.name)) {
      issues.push({
        ...base,
        code: 'DUPLICATE_FIELD',
        severity: 'error',
        path: at('name'),
        message: `State field \`${f.name}\` is defined twice.`,
      })
    }
    seen.add(f.name)
    if (isReservedFieldName(f.name)) {
      issues.push({
        ...base,
        code: 'RESERVED_FIELD_NAME',
        severity: 'error',
        path: at('name'),
        message: `State field name \`${f.name}\` is reserved for LangGraph's own channels.`,
      })
    }
    if (f.reducer && f.channel) {
      issues.push({
        ...base,
        code: 'CONFLICTING_CHANNEL',
        severity: 'error',
        path: at('channel'),
        message: `State field \`${f.name}\` has both a reducer (${f.reducer}) and a channel (${f.channel}); choose one.`,
      })
    }
    if (f.reducer === 'custom') {
      if (f.code === undefined) {
        issues.push({
          ...base,
          code: 'MISSING_REDUCER_CODE',
          severity: 'error',
          path: at('code'),
          message: `State field \`${f.name}\` has a custom reducer but no \`code\`.`,
        })
      } else {
        issues.push(...codeIssues(f.code, at('code'), `Reducer of \`${f.name}\``, base))
      }
    }
    const isLastValue = !f.channel && (!f.reducer || f.reducer === 'overwrite')
    if (f.default !== undefined && (isLastValue || f.channel)) {
      issues.push({
        ...base,
        code: 'DEFAULT_IGNORED',
        severity: 'warning',
        path: at('default'),
        message: `The default of \`${f.name}\` is ignored: LangGraph.js applies defaults only to reducer fields.`,
      })
    }
    const type = fieldTypeOf(f)
    if (f.default !== undefined && !matchesType(f.default, type)) {
      issues.push({
        ...base,
        code: 'DEFAULT_TYPE_MISMATCH',
        severity: 'warning',
        path: at('default'),
        message: `The default of \`${f.name}\` is ${describeValue(f.default)}, not ${typeLabel(type)} as its type says.`,
      })
    }
    if (f.accumulate !== undefined && f.channel !== 'topic') {
      issues.push({
        ...base,
        code: 'ACCUMULATE_IGNORED',
        severity: 'warning',
        path: at('accumulate'),
        message: `\`accumulate\` applies to topic channels only; \`${f.name}\` is not one.`,
      })
    }
  })
  return issues
}

function checkNodes(
  spec: GraphSpec,
  fields: ReadonlySet<string> = new Set(spec.state.map((f) => f.name)),
): GraphIssue[] {
  const issues: GraphIssue[] = []
  const seen = new Set<string>()
  spec.nodes.forEach((n, i) => {
    const at = (...p: (string | number)[]) => ['nodes', i, ...p]
    const base = { nodeId: n.id }
    const problem = nodeNameProblem(n.id, fields, seen)
    if (problem) issues.push({ ...base, ...problem, severity: 'error', path: at('id') })
    seen.add(n.id)
    if (nodeKind(n) === 'code' && n.code !== undefined)
      issues.push(...codeIssues(n.code, at('code'), `Code of node \`${n.id}\``, base))
    n.tools?.forEach((t, j) =>
      issues.push(
        ...codeIssues(t.code, at('tools', j, 'code'), `Code of tool \`${t.name}\``, base),
      ),
    )
  })
  spec.branches?.forEach((b, i) => {
    if (prebuiltRouter(b)) return
    issues.push(
      ...codeIssues(b.router, ['branches', i, 'router'], `Router of \`${b.from}\``, {
        nodeId: b.from,
      }),
    )
  })
  return issues
}

function nodeNameProblem(
  id: string,
  fields: ReadonlySet<string>,
  seen: ReadonlySet<string>,
): Pick<GraphIssue, 'code' | 'message'> | null {
  if (RESERVED_NODE_NAMES.has(id))
    return { code: 'RESERVED_NODE_NAME', message: `Node \`${id}\` is reserved.` }
  if (id === '') return { code: 'INVALID_NODE_NAME', message: 'A node id cannot be empty.' }
  for (const ch of ['|', ':']) {
    if (id.includes(ch))
      return {
        code: 'INVALID_NODE_NAME',
        message: `Node \`${id}\`: "${ch}" is a reserved character and is not allowed in node names.`,
      }
  }
  if (seen.has(id)) return { code: 'DUPLICATE_NODE', message: `Node \`${id}\` already present.` }
  if (fields.has(id))
    return {
      code: 'NODE_NAMED_LIKE_FIELD',
      message: `${id} is already being used as a state attribute (a.k.a. a channel), cannot also be used as a node name.`,
    }
  return null
}

function codeIssues(
  code: string,
  path: (string | number)[],
  what: string,
  base: Partial<GraphIssue>,
): GraphIssue[] {
  const problem = checkExpressionSyntax(code)
  if (!problem) return []
  return [
    {
      ...base,
      code: 'CODE_SYNTAX',
      severity: 'error',
      path,
      message: `${what} does not parse: ${problem.message}`,
      line: problem.line,
      column: problem.column,
    },
  ]
}
