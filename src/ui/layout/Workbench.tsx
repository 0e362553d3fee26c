import './layout.css'
import { useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react'
import {
  Group,
  Panel,
  Separator,
  useDefaultLayout,
  usePanelRef,
  type PanelImperativeHandle,
  type PanelSize,
} from 'react-resizable-panels'
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
const SIZES: Record<PanelName, { defaultSize: number | string; minSize: number; maxSize: string }> =
  {
    sidebar: { defaultSize: 220, minSize: 170, maxSize: '35%' },
    inspector: { defaultSize: '24%', minSize: 260, maxSize: '55%' },
    drawer: { defaultSize: '36%', minSize: 150, maxSize: '80%' },
  }
/** The least the canvas keeps (px): across for the side panels, up for the drawer. */
const WORK_MIN = { columns: 320, rows: 180 }
/**
 * Whether a panel is at the largest size it can have: its maximum, or less where the canvas's
 * minimum stops it first (the drawer on a short window).
 */
const isLargest = (name: PanelName, size: PanelSize) => {
  if (size.inPixels < 1 || size.asPercentage <= 0) return false
  const group = (size.inPixels * 100) / size.asPercentage
  const others = name === 'drawer' ? WORK_MIN.rows : WORK_MIN.columns
  const largest = Math.min((group * parseFloat(SIZES[name].maxSize)) / 100, group - others)
  return size.inPixels >= largest - 4
}
const NONE: Record<PanelName, boolean> = { sidebar: false, inspector: false, drawer: false }

/**
 * The frame: the top bar over three columns (sidebar, canvas, inspector) over the run drawer.
 * Every border is a separator (react-resizable-panels): drag it, or focus it and use the
 * arrow keys, Home/End to move it to an end, Enter to collapse or restore its panel. Sizes
 * and collapsed panels are kept across reloads; the canvas keeps a usable minimum.
 */
export function Workbench(props: WorkbenchProps) {
  const rows = useDefaultLayout({ id: 'superstep-rows', storage: layoutStorage })
  const columns = useDefaultLayout({ id: 'superstep-columns', storage: layoutStorage })
  const sidebar = usePanelRef()
  const inspector = usePanelRef()
  const drawer = usePanelRef()
  const [collapsed, setCollapsed] = useState<Record<PanelName, boolean>>(NONE)
  const [enlarged, setEnlarged] = useState<Record<PanelName, boolean>>(NONE)
  // The size (percent) a panel had before it was enlarged, to put it back.
  const before = useRef<Partial<Record<PanelName, number>>>({})
  const api = useMemo<WorkbenchApi>(() => {
    const refs = { sidebar, inspector, drawer }
    const handle = (name: PanelName): PanelImperativeHandle | null => refs[name].current
    return {
      collapsed,
      enlarged,
      toggleEnlarged(name) {
        const panel = handle(name)
        if (!panel) return
        const size = panel.getSize()
        if (!panel.isCollapsed() && isLargest(name, size)) {
          panel.resize(`${before.current[name] ?? parseFloat(String(SIZES[name].defaultSize))}%`)
        } else {
          before.current[name] = panel.isCollapsed() ? undefined : size.asPercentage
          if (panel.isCollapsed()) panel.expand()
          panel.resize(SIZES[name].maxSize)
        }
      },
      toggle(name) {
        const panel = handle(name)
        if (!panel) return
        if (panel.isCollapsed()) panel.expand()
        else panel.collapse()
      },
      expand(name) {
        const panel = handle(name)
        if (panel?.isCollapsed()) panel.expand()
      },
      element: (name) => document.getElementById(panelId(name)),
    }
  }, [collapsed, enlarged, sidebar, inspector, drawer])
  const track = (name: PanelName) => (size: PanelSize) => {
    const now = size.inPixels < 1
    setCollapsed((c) => (c[name] === now ? c : { ...c, [name]: now }))
    const large = isLargest(name, size)
    setEnlarged((c) => (c[name] === large ? c : { ...c, [name]: large }))
  }
  // Enter collapses or restores the separator's own panel (the library's Enter acts on the
  // panel before the separator, which for the inspector and the drawer is the canvas).
  const onSeparatorKey = (name: PanelName) => (e: KeyboardEvent) => {
    if (e.key !== 'Enter') return
    e.preventDefault()
    api.toggle(name)
  }
  const separator = (name: PanelName) => (
    <Separator
      id={`${panelId(name)}-separator`}
      className="ss-separator"
      aria-label={LABEL[name]}
      title={`Drag to resize the ${LABEL[name].toLowerCase()}; Enter collapses or restores it`}
      onKeyDownCapture={onSeparatorKey(name)}
    />
  )
  const refs = { sidebar, inspector, drawer }
  /** A collapsible panel: its size limits, the region inside, its state tracked. */
  const collapsible = (name: PanelName, children: ReactNode) => (
    <Panel
      id={panelId(name)}
      panelRef={refs[name]}
      data-collapsed={collapsed[name] || undefined}
      className="workbench-panel"
      style={CLIP}
      collapsible
      {...SIZES[name]}
      groupResizeBehavior="preserve-pixel-size"
      onResize={track(name)}
    >
      {children}
    </Panel>
  )
  return (
    <WorkbenchContext.Provider value={api}>
      <div className="app">
        {props.top}
        <Group
          id="superstep-rows"
          orientation="vertical"
          className="workbench"
          defaultLayout={rows.defaultLayout}
          onLayoutChanged={rows.onLayoutChanged}
        >
          <Panel id="ss-work" minSize={WORK_MIN.rows}>
            <Group
              id="superstep-columns"
              orientation="horizontal"
              className="workbench-columns"
              defaultLayout={columns.defaultLayout}
              onLayoutChanged={columns.onLayoutChanged}
            >
              {collapsible('sidebar', props.sidebar)}
              {separator('sidebar')}
              <Panel
                id="ss-canvas"
                className="workbench-panel"
                style={CLIP}
                minSize={WORK_MIN.columns}
              >
                {props.canvas}
              </Panel>
              {separator('inspector')}
              {collapsible('inspector', props.inspector)}
            </Group>
          </Panel>
          {separator('drawer')}
          {collapsible('drawer', props.drawer)}
        </Group>
      </div>
    </WorkbenchContext.Provider>
  )
}
