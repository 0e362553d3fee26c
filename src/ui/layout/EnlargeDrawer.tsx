import { useWorkbench } from './workbench'

/**
 * Grows the run drawer to its largest size (for a long conversation, a wide diff) or puts it
 * back to the size it had; the drawer's separator still resizes it either way.
 */
export function EnlargeDrawer() {
  const workbench = useWorkbench()
  if (!workbench) return null
  const large = workbench.enlarged.drawer
  return (
    <button
      type="button"
      className="icon-button drawer-enlarge"
      aria-label="Enlarge the run drawer"
      aria-pressed={large}
      title={large ? 'Put the run drawer back to its size' : 'Enlarge the run drawer'}
      onClick={() => workbench.toggleEnlarged('drawer')}
    >
      <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
        {large ? (
          <path d="M4 6.5 8 10.5 12 6.5" fill="none" stroke="currentColor" strokeWidth="1.5" />
        ) : (
          <path d="M4 9.5 8 5.5 12 9.5" fill="none" stroke="currentColor" strokeWidth="1.5" />
        )}
      </svg>
    </button>
  )
}
