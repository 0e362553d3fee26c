import { END } from '../../core/graph/constants'
import type { GraphEdit } from '../../core/graph/edits'
import type { GraphIssue } from '../../core/graph/issues'
import type { BranchSpec, GraphSpec } from '../../core/graph/schema'
import { CodeEditor } from '../editor/CodeEditor'
import { CommitInput, IssueList } from './controls'
import { CODE_DELAY_MS } from './NodeInspector'
import { codeMarkers } from './selection'
import { useDraft } from './useDraft'
import { showBidiControls } from '../bidi'
import { Name } from '../Name'

/** Props of the branch (conditional edge) inspector. */
export interface BranchInspectorProps {
  doc: GraphSpec
  index: number
  /** The selected path's key, highlighted. */
  selectedKey?: string | undefined
  issues: readonly GraphIssue[]
  onEdit(edit: GraphEdit): void
  typings?: string | undefined
}

/** The branch's paths as key → target rows; a list of targets maps each name to itself. */
export function pathRows(branch: BranchSpec): { key: string; to: string }[] {
  const paths = branch.paths
  if (paths === undefined) return []
  if (Array.isArray(paths)) return paths.map((to) => ({ key: to, to }))
  return Object.entries(paths).map(([key, to]) => ({ key, to }))
}

/** A path key not used yet: `path1`, `path2`, … */
export function freshPathKey(rows: readonly { key: string }[]): string {
  let n = 1
  while (rows.some((r) => r.key === `path${n}`)) n++
  return `path${n}`
}

/**
 * A selected conditional edge: its router code (setBranchRouter, debounced and on blur)
 * and its path map (setBranchPath, deleteBranchPath, "Add path"). Renaming a key is a
 * setBranchPath under the new key followed by a deleteBranchPath of the old one.
 */
export function BranchInspector(props: BranchInspectorProps) {
  const { doc, index, selectedKey, issues, onEdit, typings } = props
  const branch = doc.branches?.[index]
  const router = useDraft(
    branch?.router ?? '',
    (text) => onEdit({ type: 'setBranchRouter', index, router: text }),
    CODE_DELAY_MS,
  )
  if (!branch) return null
  const rows = pathRows(branch)
  const targets = [...doc.nodes.map((n) => n.id), END]
  const setPath = (key: string, to: string) => onEdit({ type: 'setBranchPath', index, key, to })
  return (
    <section className="branch-inspector" aria-labelledby="branch-heading">
      <h2 id="branch-heading">
        Conditional edge from <Name>{branch.from}</Name>
      </h2>
      <CodeEditor
        label={`Router of ${branch.from}`}
        value={router.text}
        onChange={router.change}
        onBlur={router.flush}
        code={{ kind: 'router' }}
        typings={typings}
        markers={codeMarkers(issues, 'router')}
        height={120}
      />
      <h2>Paths</h2>
      {branch.paths === undefined && (
        <p className="muted">No path map: the router may return any node.</p>
      )}
      <div role="table" aria-label="Paths" className="paths">
        <div role="rowgroup">
          {rows.map((row) => (
            <div
              role="row"
              key={row.key}
              className="path-row"
              aria-current={row.key === selectedKey ? true : undefined}
            >
              <span role="cell">
                <CommitInput
                  key={row.key}
                  label={`Key of path ${row.key}`}
                  value={row.key}
                  validate={(k) =>
                    k === ''
                      ? 'A key is required.'
                      : rows.some((r) => r.key === k)
                        ? 'Key in use.'
                        : null
                  }
                  onCommit={(k) => {
                    setPath(k, row.to)
                    onEdit({ type: 'deleteBranchPath', index, key: row.key })
                  }}
                />
              </span>
              <span role="cell" aria-hidden="true">
                →
              </span>
              <span role="cell">
                <select
                  aria-label={`Target of path ${row.key}`}
                  value={row.to}
                  onChange={(e) => setPath(row.key, e.target.value)}
                >
                  {(targets.includes(row.to) ? targets : [row.to, ...targets]).map((t) => (
                    <option key={t} value={t}>
                      {showBidiControls(t)}
                    </option>
                  ))}
                </select>
              </span>
              <span role="cell">
                <button
                  type="button"
                  aria-label={`Delete path ${row.key}`}
                  onClick={() => onEdit({ type: 'deleteBranchPath', index, key: row.key })}
                >
                  Delete
                </button>
              </span>
            </div>
          ))}
        </div>
      </div>
      <button type="button" onClick={() => setPath(freshPathKey(rows), END)}>
        Add path
      </button>
      <IssueList issues={issues} label={`Problems of the edge from ${branch.from}`} />
    </section>
  )
}
