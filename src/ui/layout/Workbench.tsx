import './layout.css'
import { useMemo, useState, type KeyboardEvent, type ReactNode } from 'react'
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
  const [collapsed, setCollapsed] = useState<Record<PanelName, boolean>>({
    sidebar: false,
    inspector: false,
    drawer: false,
  })
  const api = useMemo<WorkbenchApi>(() => {
    const refs = { sidebar, inspector, drawer }
    const handle = (name: PanelName): PanelImperativeHandle | null => refs[name].current
    return {
      collapsed,
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
  }, [collapsed, sidebar, inspector, drawer])
  const track = (name: PanelName) => (size: PanelSize) => {
    const now = size.inPixels < 1
    setCollapsed((c) => (c[name] === now ? c : { ...c, [name]: now }))
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
  const collapsible = (
    name: PanelName,
    size: { defaultSize: number | string; minSize: number; maxSize: string },
    children: ReactNode,
  ) => (
    <Panel
      id={panelId(name)}
      panelRef={refs[name]}
      data-collapsed={collapsed[name] || undefined}
      className="workbench-panel"
      style={CLIP}
      collapsible
      {...size}
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
          <Panel id="ss-work" minSize={180}>
            <Group
              id="superstep-columns"
              orientation="horizontal"
              className="workbench-columns"
              defaultLayout={columns.defaultLayout}
              onLayoutChanged={columns.onLayoutChanged}
            >
              {collapsible(
                'sidebar',
                { defaultSize: 220, minSize: 170, maxSize: '35%' },
                props.sidebar,
              )}
              {separator('sidebar')}
              <Panel id="ss-canvas" className="workbench-panel" style={CLIP} minSize={320}>
                {props.canvas}
              </Panel>
              {separator('inspector')}
              {collapsible(
                'inspector',
                { defaultSize: '24%', minSize: 260, maxSize: '55%' },
                props.inspector,
              )}
            </Group>
          </Panel>
          {separator('drawer')}
          {collapsible(
            'drawer',
            { defaultSize: '36%', minSize: 150, maxSize: '80%' },
            props.drawer,
          )}
        </Group>
      </div>
    </WorkbenchContext.Provider>
  )
}
