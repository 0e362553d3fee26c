import { useApp } from '../storeContext'
import { showBidiControls } from '../bidi'
import { BidiText, Name } from '../Name'
import { LogArgs } from './LogArgs'

/** A Logs entry: its arguments as logged when the store keeps them, else the line's text. */
interface LogEntry {
  node: string
  text?: string
  level?: string
  args?: unknown[]
}

/** The Logs tab: what node code wrote with `console`, each line linked to its node's code. */
export function LogsView() {
  const { logs, openCode } = useApp((s) => ({
    logs: s.logs as readonly LogEntry[],
    openCode: s.openCode,
  }))
  if (logs.length === 0) return <p className="muted">Nothing logged.</p>
  return (
    <ol className="logs" aria-label="Logs">
      {logs.map((l, i) => (
        <li key={i} className={`log-line ${l.level ?? 'log'}`}>
          <button
            type="button"
            className="link"
            title={`Open the code of ${showBidiControls(l.node)}`}
            onClick={() => openCode(l.node)}
          >
            <code>
              <Name>{l.node}</Name>
            </code>
          </button>
          {l.level && l.level !== 'log' && <span className="log-level">{l.level}</span>}
          {Array.isArray(l.args) ? (
            <LogArgs args={l.args} />
          ) : (
            <span className="log-text">
              <BidiText>{l.text ?? ''}</BidiText>
            </span>
          )}
        </li>
      ))}
    </ol>
  )
}
