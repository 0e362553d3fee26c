import './layout.css'
import { useLayoutEffect, useMemo, useRef, type ReactNode } from 'react'
import { useSplit, type SplitPanel } from './useSplit'
import {
  WorkbenchContext,
  layoutStorage,
  panelId,
  type PanelName,
  type WorkbenchApi,
} from './workbench'

/** The regions of PRODUCT.md's screen, each rendered inside its panel. */
export interface WorkbenchProps {
  top: ReactNode
  sidebar: ReactNode
  canvas: ReactNode
  inspector: ReactNode
  drawer: ReactNode
}

/** The regions scroll inside themselves; the panel only clips. */
const CLIP = { overflow: 'hidden' } as const

/** The panels' accessible names: a separator is named after the panel it resizes. */
const LABEL: Record<PanelName, string> = {
  sidebar: 'Sidebar',
  inspector: 'Inspector',
  drawer: 'Run drawer',
}

/** Each collapsible panel's limits; its largest size is what "enlarge" grows it to. */
const SIZES: Record<PanelName, Omit<SplitPanel, 'id'>> = {
  sidebar: { defaultSize: 220, minSize: 170, maxSize: '35%', collapsible: true },
  inspector: { defaultSize: '24%', minSize: 260, maxSize: '55%', collapsible: true },
  drawer: { defaultSize: '36%', minSize: 150, maxSize: '80%', collapsible: true },
}
/** The least the canvas keeps (px): across for the side panels, up for the drawer. */
const WORK_MIN = { columns: 320, rows: 180 }
const panel = (name: PanelName): SplitPanel => ({ id: panelId(name), ...SIZES[name] })
const ROWS = {
  id: 'superstep-rows',
  orientation: 'vertical',
  panels: [{ id: 'ss-work', minSize: WORK_MIN.rows }, panel('drawer')],
  storage: layoutStorage,
  keepPixels: true,
} as const
const COLUMNS = {
  id: 'superstep-columns',
  orientation: 'horizontal',
  panels: [panel('sidebar'), { id: 'ss-canvas', minSize: WORK_MIN.columns }, panel('inspector')],
  storage: layoutStorage,
  keepPixels: true,
} as const

/**
 * The frame: the top bar over three columns (sidebar, canvas, inspector) over the run drawer.
 * Every border is a separator (useSplit): drag it, or focus it and use the arrow keys,
 * Home/End to move it to an end, Enter to collapse or restore its panel, a double click to
 * put its panel back to its default size. Sizes and collapsed panels are kept across
 * reloads; the canvas keeps a usable minimum.
 */
export function Workbench(props: WorkbenchProps) {
  const rows = useSplit(ROWS)
  const columns = useSplit(COLUMNS)
  const groupOf = (name: PanelName) => (name === 'drawer' ? rows : columns)
  // The api's calls read the groups' latest state (the api itself changes less often).
  const latest = useRef({ rows, columns })
  useLayoutEffect(() => {
    latest.current = { rows, columns }
  })
  const groupNow = (name: PanelName) =>
    name === 'drawer' ? latest.current.rows : latest.current.columns
  // The size (percent) a panel had before it was enlarged, to put it back.
  const before = useRef<Partial<Record<PanelName, number>>>({})
  const state = (test: (name: PanelName) => boolean) => ({
    sidebar: test('sidebar'),
    inspector: test('inspector'),
    drawer: test('drawer'),
  })
  const collapsed = state((name) => groupOf(name).isCollapsed(panelId(name)))
  const enlarged = state((name) => groupOf(name).isLargest(panelId(name)))
  const key = (r: Record<PanelName, boolean>) => `${+r.sidebar}${+r.inspector}${+r.drawer}`
  const collapsedKey = key(collapsed)
  const enlargedKey = key(enlarged)
  // Rebuilt when what it tells changes (not at each drag move): its readers re-render then.
  const api = useMemo<WorkbenchApi>(
    () => ({
      collapsed,
      enlarged,
      toggleEnlarged(name) {
        const group = groupNow(name)
        const id = panelId(name)
        if (!group.isCollapsed(id) && group.isLargest(id)) {
          group.resize(id, before.current[name] ?? 'default')
        } else {
          before.current[name] = group.isCollapsed(id) ? undefined : group.sizeOf(id)
          group.resize(id, 'largest')
        }
      },
      toggle: (name) => groupNow(name).toggle(panelId(name)),
      expand(name) {
        if (groupNow(name).isCollapsed(panelId(name))) groupNow(name).toggle(panelId(name))
      },
      element: (name) => document.getElementById(panelId(name)),
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the keys stand for the records
    [collapsedKey, enlargedKey],
  )
  const separator = (name: PanelName) => (
    <div
      {...groupOf(name).separator(
        panelId(name),
        LABEL[name],
        `Drag to resize the ${LABEL[name].toLowerCase()}; Enter collapses or restores it`,
      )}
    />
  )
  /** A collapsible panel: its size limits, the region inside. */
  const collapsible = (name: PanelName, children: ReactNode) => (
    <div {...groupOf(name).panel(panelId(name))}>
      <div className="workbench-panel" style={CLIP}>
        {children}
      </div>
    </div>
  )
  return (
    <WorkbenchContext.Provider value={api}>
      <div className="app">
        {props.top}
        <div className="workbench" {...rows.group}>
          <div {...rows.panel('ss-work')}>
            <div className="workbench-columns" {...columns.group}>
              {collapsible('sidebar', props.sidebar)}
              {separator('sidebar')}
              <div {...columns.panel('ss-canvas')}>
                <div className="workbench-panel" style={CLIP}>
                  {props.canvas}
                </div>
              </div>
              {separator('inspector')}
              {collapsible('inspector', props.inspector)}
            </div>
          </div>
          {separator('drawer')}
          {collapsible('drawer', props.drawer)}
        </div>
      </div>
    </WorkbenchContext.Provider>
  )
}
