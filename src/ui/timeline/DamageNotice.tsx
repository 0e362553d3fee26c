import './damage.css'
import { selectThreadDamage, type ThreadDamage } from '../../store/threadDamage'
import { useApp } from '../storeContext'
import { BidiText, Name } from '../Name'

const NO_DAMAGE: ThreadDamage = { threadName: '', count: 0, first: undefined, row: undefined }

/**
 * Above the timeline of a thread with damaged stored rows: how many checkpoints, the first
 * one and why, and a "Repair thread" button that cuts the damaged part (the readable
 * checkpoints stay listed meanwhile; Export keeps them before a repair).
 */
export function DamageNotice() {
  // Spread: the picked fields compare shallowly, a fresh damage object would not.
  const { count, first, row, threadName, running, repairThread } = useApp((s) => ({
    ...(selectThreadDamage(s) ?? NO_DAMAGE),
    running: s.runState === 'running',
    repairThread: s.repairThread,
  }))
  if (count === 0 && !row) return null
  return (
    <div className="damage-notice" role="alert" aria-label="Damaged thread">
      <p>
        {count > 0 && first && (
          <>
            {count} damaged checkpoint{count === 1 ? '' : 's'} in thread <Name>{threadName}</Name>{' '}
            (first: <code>{first.checkpointId}</code>, <BidiText>{first.reason}</BidiText>).{' '}
          </>
        )}
        {row && (
          <>
            The stored row of thread <Name>{threadName}</Name> is damaged (
            <BidiText>{row.reason}</BidiText>).{' '}
          </>
        )}
        Nothing runs from a damaged checkpoint. Repair cuts the damaged checkpoints and those after
        them; export the thread first to keep what is readable.
      </p>
      <button type="button" disabled={running} onClick={() => void repairThread()}>
        Repair thread
      </button>
    </div>
  )
}
