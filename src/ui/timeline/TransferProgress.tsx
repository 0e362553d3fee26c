import { useApp } from '../storeContext'

const LABEL = {
  read: 'Reading thread file…',
  export: 'Exporting thread…',
  import: 'Importing thread…',
}

/** How far the thread file going out or coming in is, and its Cancel. */
export function TransferProgress() {
  const t = useApp((s) => s.transfer)
  const cancel = useApp((s) => s.cancelTransfer)
  if (!t) return null
  const counted = t.total > 0
  const count = (n: number) => n.toLocaleString('en')
  return (
    <span className="transfer-progress" role="status" aria-label="Thread transfer">
      <span>
        {LABEL[t.phase]}
        {counted && ` ${count(t.done)} / ${count(t.total)}`}
      </span>
      <progress
        aria-label={`${LABEL[t.phase]} progress`}
        {...(counted && { max: t.total, value: t.done })}
      />
      {t.phase !== 'read' && (
        <button type="button" disabled={!t.threadId} onClick={() => void cancel()}>
          {t.phase === 'import' ? 'Cancel import' : 'Cancel export'}
        </button>
      )}
    </span>
  )
}
