/** A problem found in a graph document: data for the UI and the CLI, never a throw. */
export interface GraphIssue {
  code: GraphIssueCode
  severity: 'error' | 'warning'
  message: string
  /** JSON path into the document, e.g. `["nodes", 2, "code"]`. */
  path: (string | number)[]
  nodeId?: string
  field?: string
  /** For a problem inside a subgraph: the chain of subgraph names down to it (`["team"]`). */
  subgraph?: string[]
  /** 1-based position inside a code string, for code problems. */
  line?: number
  column?: number
}

export type GraphIssueCode =
  | 'SCHEMA'
  | 'UNKNOWN_REDUCER'
  | 'DUPLICATE_FIELD'
  | 'RESERVED_FIELD_NAME'
  | 'CONFLICTING_CHANNEL'
  | 'MISSING_REDUCER_CODE'
  | 'DEFAULT_IGNORED'
  | 'ACCUMULATE_IGNORED'
  | 'UNKNOWN_FIELD_TYPE'
  | 'DEFAULT_TYPE_MISMATCH'
  | 'DUPLICATE_NODE'
  | 'RESERVED_NODE_NAME'
  | 'INVALID_NODE_NAME'
  | 'NODE_NAMED_LIKE_FIELD'
  | 'CODE_SYNTAX'
  | 'UNKNOWN_EDGE_SOURCE'
  | 'UNKNOWN_EDGE_TARGET'
  | 'DUPLICATE_EDGE'
  | 'UNKNOWN_BRANCH_SOURCE'
  | 'UNKNOWN_BRANCH_TARGET'
  | 'UNKNOWN_ENDS_TARGET'
  | 'UNKNOWN_INTERRUPT_NODE'
  | 'UNREACHABLE_NODE'
  | 'NOT_REACHABLE_FROM_START'
  | 'NO_WAY_OUT'
  | 'NO_PATH_TO_END'
  | 'EMPTY_PATH_MAP'
  | 'CONCURRENT_WRITE_RISK'
  | 'UNKNOWN_NODE_KIND'
  | 'MISSING_NODE_SETTING'
  | 'INVALID_NODE_SETTING'
  | 'CODE_IGNORED'
  | 'MESSAGES_FIELD_MISSING'
  | 'MESSAGES_FIELD_NOT_MESSAGES'
  | 'BIND_TOOLS_NOT_TOOLS_NODE'
  | 'DUPLICATE_TOOL'
  | 'TOOL_PARAMETERS_NOT_OBJECT'
  | 'HUMAN_FIELD_MISSING'
  | 'TOOLS_CONDITION_NO_MESSAGES'
  | 'TOOLS_CONDITION_NO_TOOLS_ROUTE'
  | 'TOOLS_CONDITION_NO_END_ROUTE'
  | 'SECRET_IN_DOCUMENT'
  | 'UNKNOWN_SUBGRAPH'
  | 'SUBGRAPH_CYCLE'

export function hasErrors(issues: readonly GraphIssue[]): boolean {
  return issues.some((i) => i.severity === 'error')
}

/** One line per issue: `error UNREACHABLE_NODE nodes[2]: Node `o` is not reachable.` */
export function formatIssue(issue: GraphIssue): string {
  const where = issue.path
    .map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`))
    .join('')
  const pos = issue.line !== undefined ? ` (line ${issue.line}, column ${issue.column ?? 1})` : ''
  return `${issue.severity} ${issue.code} ${where || '(document)'}${pos}: ${issue.message}`
}
