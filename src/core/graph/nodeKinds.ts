import { END, START } from './constants'
import { isPositiveFinite } from '../../lib/numbers'
import type { GraphIssue } from './issues'
import { PREBUILT_ROUTERS } from './schemaNames'
import type { BranchSpec, GraphSpec, AnyNodeKind, NodeSpec } from './schema'

/** The field a model or tools node reads and appends to when it names none. */
export const DEFAULT_MESSAGES_FIELD = 'messages'

/** A node's kind; a node without `kind` is a code node. */
export function nodeKind(node: NodeSpec): AnyNodeKind {
  return node.kind ?? 'code'
}

export function messagesFieldOf(node: NodeSpec): string {
  return node.messagesField ?? DEFAULT_MESSAGES_FIELD
}

export type PrebuiltRouter = (typeof PREBUILT_ROUTERS)[number]

/** The prebuilt router a branch names (`"router": "tools_condition"`), or null for code. */
export function prebuiltRouter(branch: Pick<BranchSpec, 'router'>): PrebuiltRouter | null {
  const r = branch.router.trim()
  return (PREBUILT_ROUTERS as readonly string[]).includes(r) ? (r as PrebuiltRouter) : null
}

/**
 * LangGraph's `toolsCondition` as document code: what the design checks parse for a
 * `tools_condition` branch, and the body of its export until the export maps it.
 */
export const TOOLS_CONDITION_CODE =
  "(state) => { const message = state.messages[state.messages.length - 1]; return message !== undefined && 'tool_calls' in message && (message.tool_calls?.length ?? 0) > 0 ? 'tools' : END }"

/** A branch's router as code: its own, or the code equivalent of the prebuilt one. */
export function routerCode(branch: Pick<BranchSpec, 'router'>): string {
  return prebuiltRouter(branch) === 'tools_condition' ? TOOLS_CONDITION_CODE : branch.router
}

/**
 * A node as code: a code node's own; for the other kinds, code that writes what the node
 * writes (what the design checks parse). Never run. A graph node writes every field its
 * subgraph (in `graph`'s own `subgraphs`) shares with the graph: a subgraph returns them all.
 */
export function standInCode(
  node: NodeSpec,
  graph?: Pick<GraphSpec, 'state' | 'subgraphs'>,
): string {
  switch (nodeKind(node)) {
    case 'code':
      return node.code ?? ''
    case 'model':
    case 'tools':
      return `(state) => ({ ${JSON.stringify(messagesFieldOf(node))}: [] })`
    case 'human':
      return `(state) => ({ ${JSON.stringify(node.writeTo ?? '')}: interrupt(null) })`
    case 'graph': {
      const sub = node.graph === undefined ? undefined : graph?.subgraphs?.[node.graph]
      const theirs = new Set(sub?.state.map((f) => f.name) ?? [])
      const shared = (graph?.state ?? []).filter((f) => theirs.has(f.name))
      return `(state) => ({ ${shared.map((f) => `${JSON.stringify(f.name)}: state[${JSON.stringify(f.name)}]`).join(', ')} })`
    }
  }
}

const SECRET_KEY =
  /^(api[-_]?key|openai[-_]?api[-_]?key|secret|client[-_]?secret|access[-_]?token|authorization|bearer|password)$/i

/**
 * Keys that look like credentials anywhere in a document: API keys live in the browser's
 * local settings, never in a graph document, an export or a thread file.
 */
export function findSecrets(doc: unknown): GraphIssue[] {
  const issues: GraphIssue[] = []
  const walk = (v: unknown, path: (string | number)[]) => {
    if (Array.isArray(v)) v.forEach((item, i) => walk(item, [...path, i]))
    else if (typeof v === 'object' && v !== null) {
      for (const [k, item] of Object.entries(v)) {
        if (SECRET_KEY.test(k)) {
          issues.push({
            code: 'SECRET_IN_DOCUMENT',
            severity: 'error',
            path: [...path, k],
            message: `\`${k}\` looks like a credential: keys never go in a graph document. Put the API key in the app's local settings and remove it from the file.`,
          })
        } else walk(item, [...path, k])
      }
    }
  }
  walk(doc, [])
  return issues
}

type At = (...p: (string | number)[]) => (string | number)[]

/** The settings of model, tools and human nodes, and the prebuilt routers. */
export function checkNodeKinds(spec: GraphSpec): GraphIssue[] {
  const issues: GraphIssue[] = []
  const fields = new Map(spec.state.map((f) => [f.name, f]))
  const byId = new Map(spec.nodes.map((n) => [n.id, n]))
  spec.nodes.forEach((n, i) => {
    const at: At = (...p) => ['nodes', i, ...p]
    const push = (issue: Omit<GraphIssue, 'nodeId' | 'severity'>, severity = 'error' as const) =>
      issues.push({ ...issue, severity, nodeId: n.id })
    const kind = nodeKind(n)
    const missing = (key: string, what: string) =>
      push({
        code: 'MISSING_NODE_SETTING',
        path: at(key),
        message: `${what} \`${n.id}\` has no \`${key}\`.`,
      })
    if (kind === 'code') {
      if (n.code === undefined) missing('code', 'Code node')
      return
    }
    if (n.code !== undefined) {
      issues.push({
        code: 'CODE_IGNORED',
        severity: 'warning',
        nodeId: n.id,
        path: at('code'),
        message: `Node \`${n.id}\` is a ${kind} node: its \`code\` is not run.`,
      })
    }
    if (kind === 'model' || kind === 'tools') {
      const name = messagesFieldOf(n)
      const field = fields.get(name)
      const path = at(n.messagesField === undefined ? 'kind' : 'messagesField')
      if (!field) {
        push({
          code: 'MESSAGES_FIELD_MISSING',
          path,
          message: `The ${kind} node \`${n.id}\` reads the messages field \`${name}\`, which is not a state field.`,
        })
      } else if (field.reducer !== 'add_messages' || field.channel) {
        issues.push({
          code: 'MESSAGES_FIELD_NOT_MESSAGES',
          severity: 'warning',
          nodeId: n.id,
          path,
          message:
            kind === 'tools'
              ? `The messages field \`${name}\` of the tools node \`${n.id}\` does not use add_messages, so its messages are plain objects, not LangChain messages: the node fails as LangGraph's ToolNode does ("ToolNode only accepts BaseMessage[] or { messages: BaseMessage[] } as input.") unless a Send gives it its call as \`lg_tool_call\`.`
              : `The messages field \`${name}\` of \`${n.id}\` does not use add_messages: each reply replaces the conversation instead of joining it.`,
        })
      }
    }
    if (kind === 'model') checkModel(n, byId, at, push, missing)
    if (kind === 'tools') checkTools(n, at, push, missing)
    if (kind === 'human') {
      for (const key of ['show', 'writeTo'] as const) {
        const name = n[key]
        if (name === undefined) missing(key, 'Human node')
        else if (!fields.has(name)) {
          push({
            code: 'HUMAN_FIELD_MISSING',
            path: at(key),
            message: `Human node \`${n.id}\`: \`${key}\` names \`${name}\`, which is not a state field.`,
          })
        }
      }
    }
  })
  spec.branches?.forEach((b, i) => issues.push(...checkPrebuiltRouter(spec, b, i)))
  return issues
}

function checkModel(
  n: NodeSpec,
  byId: ReadonlyMap<string, NodeSpec>,
  at: At,
  push: (issue: Omit<GraphIssue, 'nodeId' | 'severity'>) => void,
  missing: (key: string, what: string) => void,
): void {
  if (!n.model) missing('model', 'Model node')
  const timeoutMs = n.model?.provider === 'openai' ? n.model.timeoutMs : undefined
  if (timeoutMs !== undefined && !isPositiveFinite(timeoutMs)) {
    push({
      code: 'INVALID_NODE_SETTING',
      path: at('model', 'timeoutMs'),
      message: `Model node \`${n.id}\`: \`timeoutMs\` is ${String(timeoutMs)}; it is how long one call may take, a positive number of milliseconds.`,
    })
  }
  if (n.bindTools !== undefined) {
    const target = byId.get(n.bindTools)
    if (!target || nodeKind(target) !== 'tools') {
      push({
        code: 'BIND_TOOLS_NOT_TOOLS_NODE',
        path: at('bindTools'),
        message: `Model node \`${n.id}\` binds the tools of \`${n.bindTools}\`, which is ${target ? `a ${nodeKind(target)} node, not a tools node` : 'not a node'}.`,
      })
    }
  }
}

function checkTools(
  n: NodeSpec,
  at: At,
  push: (issue: Omit<GraphIssue, 'nodeId' | 'severity'>) => void,
  missing: (key: string, what: string) => void,
): void {
  if (!n.tools) return missing('tools', 'Tools node')
  const seen = new Set<string>()
  n.tools.forEach((t, j) => {
    if (seen.has(t.name)) {
      push({
        code: 'DUPLICATE_TOOL',
        path: at('tools', j, 'name'),
        message: `Tools node \`${n.id}\` has two tools named \`${t.name}\`.`,
      })
    }
    seen.add(t.name)
    const p = t.parameters
    if (p !== undefined && p.type !== 'object') {
      push({
        code: 'TOOL_PARAMETERS_NOT_OBJECT',
        path: at('tools', j, 'parameters'),
        message: `The parameters of tool \`${t.name}\` must be an object schema (\`"type": "object"\`): a tool call's arguments are an object.`,
      })
    }
  })
}

function checkPrebuiltRouter(spec: GraphSpec, b: BranchSpec, i: number): GraphIssue[] {
  if (prebuiltRouter(b) !== 'tools_condition') return []
  const issues: GraphIssue[] = []
  const base = { severity: 'error' as const, nodeId: b.from, path: ['branches', i, 'router'] }
  const from = `Conditional edge from ${b.from === START ? 'START' : `\`${b.from}\``}`
  if (!spec.state.some((f) => f.name === DEFAULT_MESSAGES_FIELD)) {
    issues.push({
      ...base,
      code: 'TOOLS_CONDITION_NO_MESSAGES',
      message: `${from}: tools_condition reads the field \`messages\`, which the state does not have.`,
    })
  }
  const routesTools = Array.isArray(b.paths)
    ? b.paths.includes('tools')
    : b.paths
      ? 'tools' in b.paths
      : spec.nodes.some((n) => n.id === 'tools')
  if (!routesTools) {
    issues.push({
      ...base,
      path: ['branches', i, b.paths ? 'paths' : 'router'],
      code: 'TOOLS_CONDITION_NO_TOOLS_ROUTE',
      message: `${from}: tools_condition returns "tools" when the last message has tool calls; add a node \`tools\`, or a path map \`{ "tools": "<your tools node>", "__end__": "__end__" }\`.`,
    })
  }
  const routesEnd = Array.isArray(b.paths) ? b.paths.includes(END) : !b.paths || END in b.paths
  if (!routesEnd) {
    issues.push({
      ...base,
      path: ['branches', i, 'paths'],
      code: 'TOOLS_CONDITION_NO_END_ROUTE',
      message: `${from}: tools_condition returns END when the last message has no tool calls; add \`__end__\` to the paths.`,
    })
  }
  return issues
}
