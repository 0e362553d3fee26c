import { formatIssue } from '../../core/graph/issues'
import { useApp } from '../storeContext'
import { BidiText, Name } from '../Name'

/** A refused import: its problems, and the reassurance that nothing changed. */
export function ImportProblems() {
  const { problems, dismiss } = useApp((s) => ({
    problems: s.importProblems,
    dismiss: s.dismissImportProblems,
  }))
  if (!problems) return null
  const errors = problems.issues.filter((i) => i.severity === 'error')
  return (
    <div className="import-problems" role="alertdialog" aria-label="Import problems">
      <h2>
        <Name>{problems.fileName}</Name> was not imported: {errors.length} problem
        {errors.length === 1 ? '' : 's'}
      </h2>
      <p className="muted">Nothing was changed.</p>
      <ul className="plain-list problems">
        {problems.issues.map((issue, i) => (
          <li key={i} className={issue.severity}>
            <code className="issue-detail">
              <BidiText>{formatIssue(issue)}</BidiText>
            </code>
          </li>
        ))}
      </ul>
      <button type="button" onClick={dismiss}>
        Dismiss
      </button>
    </div>
  )
}
