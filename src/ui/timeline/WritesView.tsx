import { useMemo } from 'react'
import { conversationsOf } from '../messages/conversations'
import { useApp } from '../storeContext'
import { NoCheckpoint } from './ChannelTable'
import { JsonValue } from './JsonValue'
import { LogArgs } from './LogArgs'
import { formatMs } from './Timeline'
import { BidiText, Name } from '../Name'

/**
 * The tasks that made the shown checkpoint, in the order their writes were applied, each
 * write with its channel; then the folds where several writes met in one channel.
 */
export function WritesView() {
  const { inspection, openCode } = useApp((s) => ({
    inspection: s.inspection,
    openCode: s.openCode,
  }))
  const conversations = useMemo(() => conversationsOf(inspection), [inspection])
  if (!inspection) return <NoCheckpoint />
  /** A value written to `channel`: messages when the channel is an add_messages field. */
  const value = (channel: string, v: unknown) => {
    const around = conversations.get(channel)
    return around === undefined ? (
      <JsonValue value={v} />
    ) : (
      <JsonValue value={v} messages context={around} />
    )
  }
  if (inspection.ran.length === 0) {
    const why =
      inspection.source === 'input'
        ? 'This is the input checkpoint: the input waits in __start__ for the first super-step.'
        : inspection.source === 'loop'
          ? 'No task wrote anything in this super-step.'
          : `This checkpoint was written by updateState (source ${inspection.source}); see Diff for what changed.`
    return <p className="muted">{why}</p>
  }
  return (
    <div className="writes">
      <ol className="plain-list" aria-label="Task writes">
        {inspection.ran.map((t) => (
          <li key={t.id} data-task={t.name}>
            <p>
              <button type="button" className="link" onClick={() => openCode(t.name)}>
                <code>
                  <Name>{t.name}</Name>
                </code>
              </button>{' '}
              <span className="muted">
                {t.kind === 'push' ? 'Send' : 'pull'}
                {t.durationMs !== undefined && ` · ${formatMs(t.durationMs)}`}
              </span>
              {t.error && (
                <span className="error-text">
                  {' '}
                  {t.error.name}: <BidiText>{t.error.message}</BidiText>
                </span>
              )}
              {t.interrupts.length > 0 && <span className="muted"> · interrupted</span>}
            </p>
            <ol className="plain-list write-list">
              {t.writes.map((w, i) => (
                <li key={i}>
                  <code>
                    <Name>{w.channel}</Name>
                  </code>{' '}
                  ← {value(w.channel, w.value)}
                </li>
              ))}
            </ol>
            {t.logs && t.logs.length > 0 && (
              <ol className="plain-list task-logs" aria-label={`Logs of ${t.name}`}>
                {t.logs.map((l, i) => (
                  <li key={i} className={`log-line ${l.level}`}>
                    {l.level !== 'log' && <span className="log-level">{l.level}</span>}
                    <LogArgs args={l.args} />
                  </li>
                ))}
              </ol>
            )}
          </li>
        ))}
      </ol>
      {inspection.folds.length > 0 && (
        <>
          <h3>Folds</h3>
          <ul className="plain-list" aria-label="Folds">
            {inspection.folds.map((f) => (
              <li key={f.channel}>
                <code>
                  <Name>{f.channel}</Name>
                </code>{' '}
                {f.reducer && <span className="muted">({f.reducer})</span>}:{' '}
                {f.hadBefore ? value(f.channel, f.before) : <span className="muted">empty</span>}
                {f.writes.map((w, i) => (
                  <span key={i}>
                    {' ⊕ '}
                    {value(f.channel, w.value)}{' '}
                    <span className="muted">
                      (<Name>{w.task}</Name>)
                    </span>
                  </span>
                ))}
                {' → '}
                {f.hasAfter ? value(f.channel, f.after) : <span className="muted">empty</span>}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  )
}
