import './problems.css'
import { useMemo } from 'react'
import type { GraphIssue } from '../../core/graph/issues'
import { issuesAt, levelOf, levelOfIssue } from '../../core/graph/levels'
import type { GraphSpec } from '../../core/graph/schema'
import type { RunWarning } from '../../store/appStore'
import { docNodeFlowIds, issueCulprit, type IssueCulprit } from '../canvas/issueTargets'
import { showBidiControls } from '../bidi'
import { useWorkbench } from '../layout/workbench'
import { BidiText, Name } from '../Name'
import { useApp } from '../storeContext'

/**
 * The Problems list: the document's problems (the validator's, each printed once; a click
 * shows its culprit) and what the runtime warned about in this thread's runs (kept with the
 * checkpoints; a click shows the step's writes and the node).
 */
export function ProblemsList({ graph }: { graph: GraphSpec | null }) {
  const s = useApp((s) => ({
    issues: s.issues,
    runWarnings: s.runWarnings,
    timeline: s.timeline,
    setSelection: s.setSelection,
    focusField: s.focusField,
    openLevel: s.openLevel,
    selectCheckpoint: s.selectCheckpoint,
    setDrawerTab: s.setDrawerTab,
  }))
  const { issues, runWarnings } = s
  const count = issues.length + runWarnings.length
  const flowIds = useMemo(() => (graph ? docNodeFlowIds(graph) : []), [graph])
  /** Where a problem is: its level (a subgraph's problems are on their own canvas) and culprit. */
  const locate = (issue: GraphIssue): Located => {
    const path = levelOfIssue(issue)
    if (!graph || path.length === 0)
      return { path, spec: graph, culprit: graph ? issueCulprit(graph, issue, flowIds) : undefined }
    const level = levelOf(graph, path)
    const relative = level && issuesAt([issue], level.at)[0]
    return {
      path,
      spec: level?.spec ?? null,
      culprit:
        level && relative
          ? issueCulprit(level.spec, relative, docNodeFlowIds(level.spec))
          : undefined,
    }
  }
  const workbench = useWorkbench()
  // A problem shows its culprit: its level opened, the node or edge selected on the canvas, a
  // field's row focused.
  const show = ({ path, culprit }: Located) => {
    s.openLevel(path)
    if (culprit) workbench?.expand('inspector')
    if (culprit?.kind === 'field') s.focusField(culprit.index)
    else if (culprit?.kind === 'node') s.setSelection({ nodes: [culprit.id], edges: [] })
    else if (culprit?.kind === 'edge') s.setSelection({ nodes: [], edges: [culprit.id] })
  }
  // A runtime warning shows the step's writes (where it happened) and its node.
  const showWarning = (w: RunWarning) => {
    s.openLevel([])
    const entry = s.timeline.find((t) => t.step === w.step && t.source === 'loop')
    workbench?.expand('drawer')
    s.setDrawerTab('Writes')
    if (entry) void s.selectCheckpoint(entry.checkpointId)
    if (w.node && graph?.nodes.some((n) => n.id === w.node))
      s.setSelection({ nodes: [w.node], edges: [] })
  }
  return (
    <>
      <h2 id="problems-heading" tabIndex={-1}>
        Problems <span className="badge">{count}</span>
      </h2>
      <div id="problems-list" aria-labelledby="problems-heading" aria-live="polite">
        {count === 0 && <p className="muted">No problems.</p>}
        {issues.length > 0 && (
          <ul className="plain-list problems">
            {issues.map((issue, i) => {
              const located = locate(issue)
              const { culprit } = located
              return (
                <li key={i} className={issue.severity}>
                  <button
                    type="button"
                    className="link problem"
                    onClick={() => show(located)}
                    title={showBidiControls(
                      [issue.message, culprit && culpritTitle(located.spec, culprit)]
                        .filter(Boolean)
                        .join('\n'),
                    )}
                  >
                    <span className="severity">{issue.severity}</span>{' '}
                    <BidiText>{issue.message}</BidiText>
                  </button>
                  {/* Where and which check: the message is the button's, printed once. */}
                  <code className="issue-detail" title={showBidiControls(issueWhere(issue))}>
                    <BidiText>{issueWhere(issue)}</BidiText>
                  </code>
                </li>
              )
            })}
          </ul>
        )}
        {runWarnings.length > 0 && (
          <>
            <h3 className="problems-sub">In this thread’s runs</h3>
            <ul className="plain-list problems" aria-label="Runtime warnings of this thread">
              {runWarnings.map((w, i) => (
                <li key={i} className="warning">
                  <button
                    type="button"
                    className="link problem"
                    onClick={() => showWarning(w)}
                    title={showBidiControls(`${w.message}\nShow the writes of step ${w.step}`)}
                  >
                    <span className="severity">warning</span> step {w.step}
                    {w.node && (
                      <>
                        {' · '}
                        <code>
                          <Name>{w.node}</Name>
                        </code>
                      </>
                    )}
                    : <BidiText>{w.message}</BidiText>
                  </button>
                  <code className="issue-detail">{w.code} at run time</code>
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
    </>
  )
}

interface Located {
  /** The level the problem is on (subgraph names; `[]`: the root). */
  path: string[]
  spec: GraphSpec | null
  culprit: IssueCulprit | undefined
}

/** A problem's code and where it stands (`formatIssue` without the severity and message). */
function issueWhere(issue: GraphIssue): string {
  const where = issue.path
    .map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`))
    .join('')
  const pos = issue.line !== undefined ? `, line ${issue.line}, column ${issue.column ?? 1}` : ''
  return `${issue.code} at ${where || 'the document'}${pos}`
}

/** The tooltip of a problem: what a click on it shows. */
function culpritTitle(graph: GraphSpec | null, culprit: IssueCulprit): string {
  if (culprit.kind === 'field') return `Show state field ${graph?.state[culprit.index]?.name ?? ''}`
  return culprit.kind === 'node' ? `Select node ${culprit.id}` : 'Select the edge on the canvas'
}
