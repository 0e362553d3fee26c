import { useWorkbench, type PanelName } from './workbench'

const TOGGLES: readonly { name: PanelName; label: string; key: string }[] = [
  { name: 'sidebar', label: 'Sidebar', key: 'graphs, templates and problems' },
  { name: 'inspector', label: 'Inspector', key: 'the selection or the state schema' },
  { name: 'drawer', label: 'Run drawer', key: 'the thread, timeline and checkpoint tabs' },
]

/** The frame: the panel that is shown (filled) or collapsed (outlined). */
function PanelIcon({ name, open }: { name: PanelName; open: boolean }) {
  const bar =
    name === 'sidebar'
      ? { x: 2, y: 3, width: 4, height: 10 }
      : name === 'inspector'
        ? { x: 10, y: 3, width: 4, height: 10 }
        : { x: 2, y: 9, width: 12, height: 4 }
  return (
    <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <rect
        x="1.5"
        y="2.5"
        width="13"
        height="11"
        rx="2"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.2"
      />
      <rect {...bar} rx="0.5" fill={open ? 'currentColor' : 'none'} stroke="currentColor" />
    </svg>
  )
}

/** Show or hide the sidebar, the inspector and the run drawer (the panels keep their sizes). */
export function PanelToggles() {
  const workbench = useWorkbench()
  if (!workbench) return null
  return (
    <div className="topbar-group panel-toggles" role="group" aria-label="Panels">
      {TOGGLES.map(({ name, label, key }) => {
        const open = !workbench.collapsed[name]
        return (
          <button
            key={name}
            type="button"
            className="icon-button"
            aria-label={label}
            aria-pressed={open}
            title={`${open ? 'Hide' : 'Show'} the ${label.toLowerCase()}: ${key}`}
            onClick={() => workbench.toggle(name)}
          >
            <PanelIcon name={name} open={open} />
          </button>
        )
      })}
    </div>
  )
}
