import { useApp } from '../storeContext'
import { NoCheckpoint } from './ChannelTable'
import { BidiText, Name } from '../Name'

/**
 * `versions_seen` for each node: the version it last saw of each channel it listens to,
 * against the channel's version now, and why it will or will not run next.
 */
export function ScheduleView() {
  const inspection = useApp((s) => s.inspection)
  if (!inspection) return <NoCheckpoint />
  return (
    <table className="schedule-table" aria-label="versions_seen">
      <thead>
        <tr>
          <th scope="col">Node</th>
          <th scope="col">Triggers: seen / now</th>
          <th scope="col">Next super-step</th>
        </tr>
      </thead>
      <tbody>
        {inspection.schedule.map((n) => (
          <tr
            key={n.node}
            data-node={n.node}
            className={n.willRun || n.sends > 0 ? 'will-run' : undefined}
          >
            <th scope="row">
              <code>
                <Name>{n.node}</Name>
              </code>
            </th>
            <td>
              <ul className="plain-list">
                {n.triggers.map((t) => (
                  <li key={t.channel} className={t.newer ? 'newer' : undefined}>
                    <code>
                      <Name>{t.channel}</Name>
                    </code>{' '}
                    {t.seen ?? '—'} / {t.current ?? '—'}
                    {t.newer && !t.available && <span className="muted"> (not available)</span>}
                  </li>
                ))}
              </ul>
            </td>
            <td className="reason" aria-label={`Why ${n.node}`}>
              <Sentence text={n.reason} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/** A reason with its `channel` names set as code. */
function Sentence({ text }: { text: string }) {
  return (
    <>
      {text.split('`').map((part, i) =>
        i % 2 === 1 ? (
          <code key={i}>
            <Name>{part}</Name>
          </code>
        ) : (
          <BidiText key={i}>{part}</BidiText>
        ),
      )}
    </>
  )
}
