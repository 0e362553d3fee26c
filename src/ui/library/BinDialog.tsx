import './library.css'
import { useEffect, useRef, useState } from 'react'
import { Name } from '../Name'
import { useApp } from '../storeContext'

/** The graphs in the bin: restore one, or delete it (and its threads) for good. */
export function BinDialog({ onClose }: { onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null)
  const bin = useApp((s) => s.bin)
  const restore = useApp((s) => s.restoreFromBin)
  const deleteForever = useApp((s) => s.deleteForever)
  // The graph whose "Delete for good" was pressed once: the second press deletes.
  const [arming, setArming] = useState<string | null>(null)
  useEffect(() => {
    const d = ref.current
    if (d && !d.open) d.showModal()
  }, [])
  return (
    <dialog ref={ref} className="bin" aria-label="Bin" onClose={onClose}>
      <h2>Bin</h2>
      {bin.length === 0 ? (
        <p className="muted">The bin is empty.</p>
      ) : (
        <ul className="bin-list">
          {bin.map((g) => (
            <li key={g.id}>
              <span className="bin-name">
                <Name>{g.name}</Name>
                <span className="muted">
                  {g.deletedAt && `deleted ${new Date(g.deletedAt).toLocaleString()}`}
                </span>
              </span>
              <button
                type="button"
                onClick={() => {
                  ref.current?.close()
                  onClose() // now: the bin may empty (and this dialog go) before 'close' fires
                  void restore(g.id)
                }}
              >
                Restore
              </button>
              <button
                type="button"
                className="danger"
                aria-label={
                  arming === g.id ? `Really delete ${g.name}` : `Delete ${g.name} for good`
                }
                onClick={() => {
                  if (arming !== g.id) return setArming(g.id)
                  setArming(null)
                  void deleteForever(g.id)
                }}
              >
                {arming === g.id ? 'Really delete, with its threads?' : 'Delete for good'}
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="dialog-actions">
        <button type="button" onClick={() => ref.current?.close()}>
          Close
        </button>
      </div>
    </dialog>
  )
}
