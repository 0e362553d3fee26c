import './library.css'
import { useEffect, useRef } from 'react'
import { Name } from '../Name'
import { useApp } from '../storeContext'

/** Asks before the open graph goes to the bin, saying what goes with it and how to get it back. */
export function DeleteGraphDialog({ onClose }: { onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null)
  const name = useApp((s) => s.current?.name ?? '')
  const threads = useApp((s) => s.threads.length)
  const running = useApp((s) => s.runState === 'running' || s.runState === 'paused')
  const deleteGraph = useApp((s) => s.deleteGraph)
  useEffect(() => {
    const d = ref.current
    if (d && !d.open) d.showModal()
  }, [])
  return (
    <dialog ref={ref} className="confirm" aria-label="Delete graph" onClose={onClose}>
      <h2>
        Move <Name>{name}</Name> to the bin?
      </h2>
      <p>
        {threads === 1 ? 'Its thread goes' : `Its ${threads} threads go`} with it.
        {running && ' Its run is stopped first; what it checkpointed is kept.'} You can restore it
        from the bin until you delete it for good.
      </p>
      <div className="dialog-actions">
        <button
          type="button"
          className="danger"
          autoFocus
          onClick={() => {
            ref.current?.close()
            void deleteGraph()
          }}
        >
          Move to bin
        </button>
        <button type="button" onClick={() => ref.current?.close()}>
          Cancel
        </button>
      </div>
    </dialog>
  )
}
