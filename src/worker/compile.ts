import type { CodeHost } from '../core/compile/host'
import { errorToJson } from '../core/errorJson'
import type { GraphSpec } from '../core/graph/schema'
import { parseGraph } from '../core/graph/validate'
import { nodeKind, prebuiltRouter } from '../core/graph/nodeKinds'
import type { KnownChecks } from './codeChecks'
import { WorkerRequestError } from './errors'
import type { CompileIssue } from './protocol'

export type CheckDocumentResult =
  { ok: true; spec: GraphSpec; issues: CompileIssue[] } | { ok: false; issues: CompileIssue[] }

/**
 * Validates a graph document (`parseGraph`) and asks `host` to `check` every piece of code
 * `known` has no answer for (a failure is a `CODE_NOT_A_FUNCTION` issue at that node or
 * field): the spec, when it may be compiled (the worker binds it to a sandbox per use).
 */
export async function checkDocument(
  doc: unknown,
  host: CodeHost,
  known?: KnownChecks,
): Promise<CheckDocumentResult> {
  const parsed = parseGraph(doc)
  if (!parsed.ok) return { ok: false, issues: parsed.issues }
  const issues: CompileIssue[] = [...parsed.issues, ...(await checkCode(parsed.spec, host, known))]
  if (issues.some((i) => i.severity === 'error')) return { ok: false, issues }
  return { ok: true, spec: parsed.spec, issues }
}

interface CodeSite {
  owner: string
  kind: 'node' | 'router' | 'reducer'
  code: string
  what: string
  issue: Pick<CompileIssue, 'path' | 'nodeId' | 'field'>
}

function codeSites(spec: GraphSpec): CodeSite[] {
  const sites: CodeSite[] = []
  spec.nodes.forEach((n, i) => {
    if (nodeKind(n) === 'code' && n.code !== undefined) {
      sites.push({
        owner: n.id,
        kind: 'node',
        code: n.code,
        what: `Node \`${n.id}\``,
        issue: { path: ['nodes', i, 'code'], nodeId: n.id },
      })
    }
    if (nodeKind(n) !== 'tools') return
    n.tools?.forEach((t, j) =>
      sites.push({
        owner: n.id,
        kind: 'node',
        code: t.code,
        what: `Tool \`${t.name}\` of \`${n.id}\``,
        issue: { path: ['nodes', i, 'tools', j, 'code'], nodeId: n.id },
      }),
    )
  })
  ;(spec.branches ?? []).forEach((b, i) =>
    prebuiltRouter(b)
      ? undefined
      : sites.push({
          owner: b.from,
          kind: 'router',
          code: b.router,
          what: `The router of \`${b.from}\``,
          issue: { path: ['branches', i, 'router'], nodeId: b.from },
        }),
  )
  spec.state.forEach((f, i) => {
    if (f.reducer !== 'custom' || f.channel || f.code === undefined) return
    sites.push({
      owner: f.name,
      kind: 'reducer',
      code: f.code,
      what: `The reducer of \`${f.name}\``,
      issue: { path: ['state', i, 'code'], field: f.name },
    })
  })
  return sites
}

async function checkCode(
  spec: GraphSpec,
  host: CodeHost,
  known?: KnownChecks,
): Promise<CompileIssue[]> {
  const answered: [CodeSite, string | null][] = []
  const found = await Promise.all(
    codeSites(spec).map(async (site): Promise<CompileIssue | null> => {
      let problem: string | null | undefined = known?.get(site)
      let at: { line?: number; column?: number } = {}
      try {
        if (problem === undefined) {
          problem = await host.check(site.owner, site.kind, site.code)
          answered.push([site, problem])
        }
      } catch (e) {
        // No sandbox at all is not the graph's fault; anything else its code did is.
        const { name, message, line, column } = errorToJson(e)
        if (name === 'SandboxUnavailableError')
          throw new WorkerRequestError('SANDBOX_UNAVAILABLE', message, 'SandboxUnavailableError')
        problem = message
        at = { ...(line !== undefined && { line }), ...(column !== undefined && { column }) }
      }
      if (problem === null) return null
      return {
        ...site.issue,
        ...at,
        code: 'CODE_NOT_A_FUNCTION',
        severity: 'error',
        message: `${site.what}: ${problem}`,
      }
    }),
  )
  known?.remember(answered)
  return found.filter((i): i is CompileIssue => i !== null)
}
