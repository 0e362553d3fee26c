import { useApp } from '../storeContext'
import { showBidiControls } from '../bidi'
import { Name } from '../Name'

/** The Logs tab: what node code wrote with `console`, each line linked to its node's code. */
export function LogsView() {
  const { logs, openCode } = useApp((s) => ({ logs: s.logs, openCode: s.openCode }))
  if (logs.length === 0) return <p className="muted">Nothing logged.</p>
  return (
    <ol className="logs" aria-label="Logs">
      {logs.map((l, i) => (
        <li key={i}>
          <button
            type="button"
            className="link"
            title={`Open the code of ${showBidiControls(l.node)}`}
            onClick={() => openCode(l.node)}
          >
            <code>
              <Name>{l.node}</Name>
            </code>
          </button>{' '}
          {l.text}
        </li>
      ))}
    </ol>
  )
}
