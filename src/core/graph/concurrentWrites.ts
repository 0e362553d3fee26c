import type { CodeFacts } from './codeFacts'
import { START } from './constants'
import type { GraphIssue } from './issues'
import type { FieldSpec, GraphSpec, NodeSpec } from './schema'
import { branchTargets } from './wiring'

/** The code facts of a document: per node id, and per branch index. */
export interface DocFacts {
  nodes: ReadonlyMap<string, CodeFacts>
  routers: readonly CodeFacts[]
}

/** Nodes one source starts together: its edges, one of its branches, or its `ends`. */
interface Launch {
  kind: 'edges' | 'router' | 'goto'
  targets: string[]
  /** Whether several of `targets` may start at once. */
  together: boolean
  /** Targets that Send may start several times at once. */
  repeated: string[]
}

/** Two nodes (possibly the same one twice) that may run in one super-step, and why. */
interface Pair {
  a: string
  b: string
  source: string
  why: 'edges' | 'router' | 'goto' | 'mixed' | 'send'
}

const where = (source: string) => (source === START ? 'START' : `\`${source}\``)

/** What `launchesFrom` looks up for every source, found once per document (not per source). */
interface DocIndex {
  nodes: ReadonlySet<string>
  /** Per source: the targets of its plain edges that are nodes, in edge order. */
  edgeTargets: ReadonlyMap<string, string[]>
  /** Per source: the indexes of its branches, in order. */
  branches: ReadonlyMap<string, number[]>
  /** The first node of each id. */
  byId: ReadonlyMap<string, NodeSpec>
}

function indexDoc(spec: GraphSpec): DocIndex {
  const nodes = new Set(spec.nodes.map((n) => n.id))
  const edgeTargets = new Map<string, string[]>()
  for (const e of spec.edges) {
    if (typeof e.from !== 'string' || !nodes.has(e.to)) continue
    const list = edgeTargets.get(e.from)
    if (list) list.push(e.to)
    else edgeTargets.set(e.from, [e.to])
  }
  const branches = new Map<string, number[]>()
  spec.branches?.forEach((b, i) => {
    const list = branches.get(b.from)
    if (list) list.push(i)
    else branches.set(b.from, [i])
  })
  const byId = new Map<string, NodeSpec>()
  for (const n of spec.nodes) if (!byId.has(n.id)) byId.set(n.id, n)
  return { nodes, edgeTargets, branches, byId }
}

function launchesFrom(spec: GraphSpec, source: string, facts: DocFacts, doc: DocIndex): Launch[] {
  const isNode = (id: string) => doc.nodes.has(id)
  const launches: Launch[] = []
  const edgeTargets = doc.edgeTargets.get(source) ?? []
  launches.push({ kind: 'edges', targets: [...new Set(edgeTargets)], together: true, repeated: [] })
  for (const i of doc.branches.get(source) ?? []) {
    const b = spec.branches?.[i]
    const router = facts.routers[i]
    if (!b || !router) continue
    const named = b.paths ? branchTargets(b.paths).map(([, t]) => t) : [...router.strings]
    const sent = [...router.sends.keys()]
    const targets = [...new Set([...named, ...sent])].filter(isNode)
    const repeated = [...router.sends].filter(([t, n]) => n === 'many' && isNode(t))
    launches.push({
      kind: 'router',
      targets,
      together: router.mayReturnList,
      repeated: repeated.map(([t]) => t),
    })
  }
  const node = doc.byId.get(source)
  const code = facts.nodes.get(source)
  if (node && code) {
    const sent = [...code.sends.keys()]
    const targets = [...new Set([...(node.ends ?? []), ...sent])].filter(isNode)
    const repeated = [...code.sends].filter(([t, n]) => n === 'many' && isNode(t))
    launches.push({
      kind: 'goto',
      targets,
      together: code.gotoMayBeList,
      repeated: repeated.map(([t]) => t),
    })
  }
  return launches.filter((l) => l.targets.length > 0)
}

/** Every pair of nodes that may run in the same super-step because one source starts both. */
function concurrentPairs(spec: GraphSpec, facts: DocFacts): Pair[] {
  const pairs: Pair[] = []
  const seen = new Set<string>()
  const add = (a: string, b: string, source: string, why: Pair['why']) => {
    const [x, y] = a <= b ? [a, b] : [b, a]
    const key = JSON.stringify([x, y])
    if (seen.has(key)) return
    seen.add(key)
    pairs.push({ a: x, b: y, source, why })
  }
  const doc = indexDoc(spec)
  for (const source of [START, ...spec.nodes.map((n) => n.id)]) {
    const launches = launchesFrom(spec, source, facts, doc)
    launches.forEach((l, i) => {
      for (const t of l.repeated) add(t, t, source, 'send')
      l.targets.forEach((a, j) => {
        if (l.together) for (const b of l.targets.slice(j + 1)) add(a, b, source, l.kind)
        for (const other of launches.slice(i + 1)) {
          for (const b of other.targets) if (a !== b) add(a, b, source, 'mixed')
        }
      })
    })
  }
  return pairs
}

/** LastValue and ephemeral fields keep one write per step; two in one step are an error. */
function isSingleWrite(f: FieldSpec): boolean {
  if (f.channel === 'ephemeral') return f.reducer === undefined
  return f.channel === undefined && (f.reducer === undefined || f.reducer === 'overwrite')
}

const REASONS: Record<Pair['why'], string> = {
  edges: '',
  router: ' (its conditional edge may return a list of nodes)',
  goto: ' (its `Command` may go to several nodes)',
  mixed: ' (more than one edge or route leaves it)',
  send: '',
}

function message(p: Pair, field: FieldSpec): string {
  const f = `\`${field.name}\``
  const kind =
    field.channel === 'ephemeral'
      ? 'an ephemeral channel (one write per step)'
      : 'which has no reducer'
  const tail = `${f}, ${kind}: LangGraph raises INVALID_CONCURRENT_GRAPH_UPDATE. Give ${f} a reducer, or let the writes happen in different steps.`
  if (p.why === 'send')
    return `Several copies of \`${p.a}\` can run in the step after ${where(p.source)} (Send may start it more than once) and each writes ${tail}`
  return `\`${p.a}\` and \`${p.b}\` can both run in the step after ${where(p.source)}${REASONS[p.why]} and both write ${tail}`
}

/**
 * CONCURRENT_WRITE_RISK: a LastValue or ephemeral field that two nodes may write in the
 * same super-step. "May write" is read from the code (the keys of returned object literals);
 * "same super-step" means one source starts both: two of its edges, a conditional edge whose
 * router may return a list, edges and routes together, or Send starting a node repeatedly.
 * Nodes that meet in the same step by longer separate paths are not detected.
 */
export function checkConcurrentWrites(spec: GraphSpec, facts: DocFacts): GraphIssue[] {
  const fields = spec.state.filter(isSingleWrite)
  if (fields.length === 0) return []
  const issues: GraphIssue[] = []
  for (const p of concurrentPairs(spec, facts)) {
    const wa = facts.nodes.get(p.a)?.writes
    const wb = facts.nodes.get(p.b)?.writes
    if (!wa || !wb) continue
    for (const f of fields) {
      if (!wa.has(f.name) || !wb.has(f.name)) continue
      issues.push({
        code: 'CONCURRENT_WRITE_RISK',
        severity: 'warning',
        path: ['nodes', spec.nodes.findIndex((n) => n.id === p.a)],
        nodeId: p.a,
        field: f.name,
        message: message(p, f),
      })
    }
  }
  return issues
}
