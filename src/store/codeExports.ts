import { emitProject, projectSlug } from '../codegen/project'
import { emitPython } from '../codegen/python'
import { emitTypeScript } from '../codegen/typescript'
import { zipProject } from '../codegen/zip'
import { formatIssue } from '../core/graph/issues'
import { parseGraph } from '../core/graph/validate'
import { exportText } from './documents'

/** The open document as code: what the Export dialog shows and downloads. */
export type CodeExports =
  | {
      ok: true
      /** The base of every file name (`my-graph`). */
      slug: string
      typescript: string
      python: string
      graphFile: string
      /** The deployable project as a zip (built on demand: it is the slow part). */
      project(): Uint8Array
    }
  | { ok: false; problems: string[] }

/** Emits a document as LangGraph.js, LangGraph Python, the graph file and the project. */
export function codeExports(doc: unknown): CodeExports {
  const parsed = parseGraph(doc)
  if (!parsed.ok) {
    const errors = parsed.issues.filter((i) => i.severity === 'error')
    return { ok: false, problems: errors.map(formatIssue) }
  }
  const spec = parsed.spec
  const slug = projectSlug(spec.name)
  return {
    ok: true,
    slug,
    typescript: emitTypeScript(spec),
    python: emitPython(spec),
    graphFile: exportText(doc),
    project: () => zipProject(slug, emitProject(spec, exportText(doc))),
  }
}
