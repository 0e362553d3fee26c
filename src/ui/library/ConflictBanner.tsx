import './library.css'
import { Name } from '../Name'
import { useApp } from '../storeContext'

/**
 * The open graph was saved in another tab too (changing the same things differently), or
 * moved to the bin there: nothing is saved until the user chooses here.
 */
export function ConflictBanner() {
  const conflict = useApp((s) => s.conflict)
  const name = useApp((s) => s.current?.name ?? '')
  const resolve = useApp((s) => s.resolveConflict)
  if (!conflict) return null
  const deleted = conflict.kind === 'deleted'
  return (
    <div className="banner conflict" role="alert" aria-label="Conflict with another tab">
      <span className="message">
        {deleted ? (
          <>
            <Name>{name}</Name> was moved to the bin in another tab. Your edits here are not saved
            until you choose.
          </>
        ) : (
          <>
            <Name>{name}</Name> was also changed in another tab, differently, at{' '}
            {conflict.paths.slice(0, 3).join('; ')}
            {conflict.paths.length > 3 && ` and ${conflict.paths.length - 3} more`}. Nothing is
            saved until you choose.
          </>
        )}
      </span>
      <button type="button" onClick={() => void resolve('mine')}>
        {deleted ? 'Keep it, with my edits' : 'Keep mine'}
      </button>
      <button type="button" onClick={() => void resolve('theirs')}>
        {deleted ? 'Close it' : 'Take theirs'}
      </button>
    </div>
  )
}
