import { lazy, Suspense, useState } from 'react'
import { useApp } from '../storeContext'

// Loaded when first opened.
const BinDialog = lazy(() => import('./BinDialog').then((m) => ({ default: m.BinDialog })))

/** Under the library's graphs: the bin, when it holds any. */
export function BinLink() {
  const count = useApp((s) => s.bin.length)
  const [open, setOpen] = useState(false)
  // Emptied while open (the last graph restored or deleted): the dialog says so until closed.
  if (count === 0 && !open) return null
  return (
    <>
      <button
        type="button"
        className="link bin-link"
        title="Deleted graphs: restore one, or delete it for good"
        onClick={() => setOpen(true)}
      >
        Bin ({count})
      </button>
      {open && (
        <Suspense fallback={null}>
          <BinDialog onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  )
}
