import '@xyflow/react/dist/style.css'
import './canvas.css'
import {
  Background,
  ControlButton,
  Controls,
  MiniMap,
  Panel,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
  useStore,
  type Connection,
  type EdgeChange,
  type FitViewOptions,
  type IsValidConnection,
  type NodeChange,
  type NodeMouseHandler,
  type OnNodeDrag,
  type Viewport,
} from '@xyflow/react'
import {
  lazy,
  Suspense,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type MouseEvent,
  type PointerEvent,
} from 'react'
import { flushSync } from 'react-dom'
import type { GraphEdit, XY } from '../../core/graph/edits'
import type { GraphIssue } from '../../core/graph/issues'
import { graphTools } from '../../store/graphTools'
import { addSubgraphEdit } from './subgraphEdits'
import type { GraphSpec } from '../../core/graph/schema'
import { CanvasActionsContext, type CanvasActions } from './canvasActions'
import { edgeTypes } from './CanvasEdge'
import { nodeTypes } from './CanvasNodes'
import { createDecorator, createFlowCache, type Size } from './decorate'
import { LowDetailContext, selectZoomedOut } from './detail'
import { LowDetailEdges } from './LowDetailEdges'
import { nodePress } from './nodePress'
import { EdgeLayerContext, createRouteStore, type EdgeLayer } from './edgeContext'
import type { EdgeRoute } from './edgeGeometry'
import { loadEdgeRouter, newFlowRouter } from './edgeRouterLoad'
import {
  GRID,
  type CanvasSelection,
  type Direction,
  type FlowEdge,
  type FlowNode,
} from './flowTypes'
import {
  addNodeEdit,
  deletionEdit,
  applySelectChanges,
  canConnect,
  connectEdit,
  joinSources,
  joinTargets,
  moveEdit,
  nodeNameError,
} from './interactions'
import { LAYOUT_OUTDATED, autoLayoutEdit } from './layout'
import type { NodeMenuAt } from './NodeMenu'
import { breaksOn } from './toFlow'
import { OverlayContext, createOverlayStore, type RunOverlay } from './overlay'
import { useCanvasKeys, type CanvasKeyState } from './useCanvasKeys'
import { useFittedView } from '../layout/useFittedView'

// Not needed to paint the canvas: the toolbar (an overlay in the canvas's top-left corner,
// which fit view keeps clear, so its arrival moves nothing) and the node menu come in a
// chunk of their own each, fetched as the canvas first draws.
const loadToolbar = () => import('./CanvasToolbar')
const loadNodeMenu = () => import('./NodeMenu')
const CanvasToolbar = lazy(() => loadToolbar().then((m) => ({ default: m.CanvasToolbar })))
const NodeMenu = lazy(() => loadNodeMenu().then((m) => ({ default: m.NodeMenu })))
// The edge router: fetched as the page's script runs, not when the first canvas is drawn.
void loadEdgeRouter()

/** Props of `GraphCanvas`: the document in, every change out as a `GraphEdit`. */
export interface GraphCanvasProps {
  doc: GraphSpec
  issues: GraphIssue[]
  /** Every change to the document goes out as one edit (a drag: one `moveNodes` at the end). */
  onEdit(edit: GraphEdit): void
  /** Node ids and edge ids as described in `flowTypes.ts` (e.g. `e:3`, `j:3:a`, `b:1:again`). */
  selection: CanvasSelection
  onSelect(selection: CanvasSelection): void
  /** Run state drawn on top (ran: lit, next: outlined, badges: step number), by node id. */
  runOverlay?: RunOverlay
  colorMode?: 'light' | 'dark' | 'system'
  /** Show the canvas's own toolbar (default true); off when the app's top bar has the actions. */
  toolbar?: boolean
  /** Opens the subgraph a graph node runs (absent: graph nodes do not open). */
  onOpenSubgraph?: (name: string) => void
  /** The library's graphs "Add subgraph" may copy. */
  subgraphSources?: { id: string; name: string; doc: unknown }[]
  /** Where the user left this canvas: it opens there, not fitted to the graph. */
  viewport?: Viewport
  /** The user moved the view (pan, zoom) to `viewport`; null when it is fitted again. */
  onViewportChange?: (viewport: Viewport | null) => void
}

/**
 * Above this many nodes only the elements in view are rendered, and zoomed out past
 * `LOW_DETAIL_ZOOM` they are drawn in low detail (`detail.ts`).
 */
export const VISIBLE_ONLY_ABOVE = 500
/** Zoomed out, edges are straight lines (no routes) that the canvas draws itself. */
const NO_ROUTES: ReadonlyMap<string, EdgeRoute> = new Map()
const NO_EDGES: FlowEdge[] = []

const SNAP: [number, number] = [GRID, GRID]
/** The mini map's size; Fit view keeps the nodes clear of it while it is shown. */
const MAP = { width: 168, height: 112 }
/**
 * Fit view's margins in pixels: clear of the toolbar (top), the zoom buttons (bottom left),
 * the first-run hint (bottom) and the mini map (right, when shown), so START and END stay in
 * sight. includeHiddenNodes: fit to every node's declared size, not only to the measured ones
 * (the nodes out of view are not rendered, so not measured, when onlyRenderVisibleElements is on).
 */
function fitOptions(withMap: boolean): FitViewOptions<FlowNode> {
  return {
    padding: {
      top: '64px',
      bottom: '64px',
      left: '56px',
      right: withMap ? `${MAP.width + 32}px` : '40px',
    },
    maxZoom: 1,
    minZoom: 0.3,
    includeHiddenNodes: true,
  }
}
const MAP_KEY = 'superstep:minimap'
const readMapShown = () => {
  try {
    return localStorage.getItem(MAP_KEY) === 'shown'
  } catch {
    return false
  }
}
const saveMapShown = (shown: boolean) => {
  try {
    localStorage.setItem(MAP_KEY, shown ? 'shown' : 'hidden')
  } catch {
    // Not remembered: hidden again next time.
  }
}
const MULTI_SELECT = ['Shift', 'Meta', 'Control']
const nodeColor = (n: FlowNode) =>
  n.type === 'terminal'
    ? 'var(--ss-terminal)'
    : n.type === 'marker'
      ? 'transparent'
      : 'var(--ss-node-border)'

/**
 * The graph canvas: a controlled, presentational view of one document (React Flow 12).
 * Positions during a drag stay local; the document only changes through `onEdit`.
 */
export function GraphCanvas(props: GraphCanvasProps) {
  return (
    <ReactFlowProvider>
      <CanvasView {...props} />
    </ReactFlowProvider>
  )
}

function CanvasView(props: GraphCanvasProps) {
  const { doc, issues, selection, runOverlay, colorMode = 'system', toolbar = true } = props
  const { screenToFlowPosition } = useReactFlow<FlowNode, FlowEdge>()
  const [direction, setDirection] = useState<Direction>('LR')
  const [cache] = useState(createFlowCache)
  const [decorator] = useState(createDecorator)
  const [overlay] = useState(createOverlayStore)
  const [sizes, setSizes] = useState<ReadonlyMap<string, Size>>(() => new Map())
  const [drag, setDrag] = useState<ReadonlyMap<string, XY> | null>(null)
  const root = useRef<HTMLDivElement>(null)
  const [showMap, setShowMap] = useState(readMapShown)
  const fit = useMemo(() => fitOptions(showMap), [showMap])
  // Opened where the user left it, or fitted; where they move it goes out (null: fitted).
  const [opened] = useState(props.viewport)
  const viewportOut = useRef(props.onViewportChange)
  useLayoutEffect(() => {
    viewportOut.current = props.onViewportChange
  })
  const forgetViewport = useCallback(() => viewportOut.current?.(null), [])
  const { markMoved, isFitted, refit, refitAfterEdit } = useFittedView(root, fit, {
    fitted: !opened,
    onFit: forgetViewport,
  })

  const flow = useMemo(() => cache.derive(doc, issues, direction), [cache, doc, issues, direction])
  // A big graph zoomed out is drawn in low detail: plain boxes, straight edges, no routes.
  const zoomedOut = useStore(selectZoomedOut)
  const lowDetail = zoomedOut && flow.nodes.length > VISIBLE_ONLY_ABOVE
  const selectedNodes = useMemo(() => new Set(selection.nodes), [selection.nodes])
  const selectedEdges = useMemo(() => new Set(selection.edges), [selection.edges])
  const nodes = useMemo(
    () => decorator.nodes(flow.nodes, selectedNodes, drag, sizes),
    [decorator, flow.nodes, selectedNodes, drag, sizes],
  )
  const firedKey = runOverlay?.fired?.join('\n') ?? ''
  const fired = useMemo(() => new Set(firedKey ? firedKey.split('\n') : []), [firedKey])
  // Edges spread apart and round the nodes in their way, from the nodes as drawn (so also
  // during a drag). The routes go to the edges through their own store, not the edge objects.
  // The router's code is a chunk of its own (edgeRouterLoad.ts), there before the app draws a
  // canvas; a canvas drawn without it (its load failed) has no routes until it arrives.
  const [router, setRouter] = useState(newFlowRouter)
  useEffect(() => {
    if (router) return
    let live = true
    void loadEdgeRouter().then(() => live && setRouter(newFlowRouter))
    return () => void (live = false)
  }, [router])
  const routes = useMemo(
    () => (lowDetail || !router ? NO_ROUTES : router(nodes, flow.edges, direction)),
    [router, nodes, flow.edges, direction, lowDetail],
  )
  const [routeStore] = useState(createRouteStore)
  const [labels, setLabels] = useState<HTMLElement | null>(null)
  useLayoutEffect(() => routeStore.set(routes), [routeStore, routes])
  useLayoutEffect(() => {
    setLabels(root.current?.querySelector<HTMLElement>('.react-flow__edgelabel-renderer') ?? null)
  }, [])
  const edgeLayer = useMemo<EdgeLayer>(() => ({ routes: routeStore, labels }), [routeStore, labels])
  const edges = useMemo(
    () => decorator.edges(flow.edges, selectedEdges, fired, runOverlay?.live === true),
    [decorator, flow.edges, selectedEdges, fired, runOverlay?.live],
  )
  const [menu, setMenu] = useState<NodeMenuAt | null>(null)

  // Handlers read the latest props through a ref, so they never change identity.
  const latest = useRef<CanvasKeyState>(props)
  const pending = useRef<{ base: CanvasSelection; next: CanvasSelection } | null>(null)
  useLayoutEffect(() => {
    latest.current = props
    pending.current = null
  })
  useLayoutEffect(() => overlay.set(runOverlay), [overlay, runOverlay])
  useCanvasKeys(root, latest)
  // A press on a node (see nodePress.ts) lasts until the pointer is released anywhere.
  const pressNode = useCallback((e: PointerEvent) => {
    if (e.button === 0 && (e.target as Element).closest('.react-flow__node')) nodePress.set(true)
  }, [])
  useEffect(() => {
    const release = () => nodePress.set(false)
    // The window's own blur (the pointer released in another window), not an element's.
    const left = (e: FocusEvent) => e.target === window && release()
    window.addEventListener('pointerup', release, true)
    window.addEventListener('pointercancel', release, true)
    window.addEventListener('blur', left)
    return () => {
      window.removeEventListener('pointerup', release, true)
      window.removeEventListener('pointercancel', release, true)
      window.removeEventListener('blur', left)
      release()
    }
  }, [])
  // The node menu's code is fetched once the canvas is up, before a first right click.
  useEffect(() => void loadNodeMenu().catch(() => undefined), [])

  // React Flow reports node and edge selection in two calls; merge them into one selection.
  const changeSelection = useCallback((f: (s: CanvasSelection) => CanvasSelection) => {
    const { selection: base, onSelect } = latest.current
    const current = pending.current?.base === base ? pending.current.next : base
    const next = f(current)
    if (same(next.nodes, current.nodes) && same(next.edges, current.edges)) return
    pending.current = { base, next }
    onSelect(next)
  }, [])

  const onNodesChange = useCallback(
    (changes: NodeChange<FlowNode>[]) => {
      let measured: Map<string, Size> | null = null
      let moved: Map<string, XY> | null = null
      for (const c of changes) {
        if (c.type === 'dimensions' && c.dimensions) {
          ;(measured ??= new Map()).set(c.id, c.dimensions)
        } else if (c.type === 'position' && c.dragging && c.position) {
          ;(moved ??= new Map()).set(c.id, c.position)
        }
      }
      if (measured) setSizes((prev) => new Map([...prev, ...(measured ?? [])]))
      // A drag frame is rendered at once, in the pointer event: React Flow hears of the new
      // position in the same task (its store update is a passive effect, which React would
      // otherwise run after a paint), so the node moves in the frame the event belongs to.
      if (moved) {
        const next = moved
        flushSync(() => setDrag((prev) => new Map([...(prev ?? []), ...next])))
      }
      if (changes.some((c) => c.type === 'select'))
        changeSelection((s) => ({ ...s, nodes: applySelectChanges(s.nodes, changes) }))
    },
    [changeSelection],
  )
  const onEdgesChange = useCallback(
    (changes: EdgeChange<FlowEdge>[]) => {
      if (changes.some((c) => c.type === 'select'))
        changeSelection((s) => ({ ...s, edges: applySelectChanges(s.edges, changes) }))
    },
    [changeSelection],
  )
  // Zoomed out React Flow has no edges to unselect: a click on the pane drops them here.
  const unselectEdges = useCallback(
    () => changeSelection((s) => (s.edges.length ? { ...s, edges: [] } : s)),
    [changeSelection],
  )
  const onNodeDragStop: OnNodeDrag<FlowNode> = useCallback((_event, _node, dragged) => {
    const edit = moveEdit(latest.current.doc, dragged)
    setDrag(null)
    if (edit) latest.current.onEdit(edit)
  }, [])
  const onConnect = useCallback((c: Connection) => {
    const edit = connectEdit(latest.current.doc, c.source, c.target)
    if (edit) latest.current.onEdit(edit)
  }, [])
  const isValidConnection: IsValidConnection<FlowEdge> = useCallback(
    (c) => canConnect(latest.current.doc, c.source, c.target),
    [],
  )
  const onNodeContextMenu: NodeMouseHandler<FlowNode> = useCallback((e, node) => {
    if (node.type !== 'step') return
    e.preventDefault()
    // From the keyboard (Shift+F10, the menu key) the pointer is elsewhere: open at the node.
    const box = (e.currentTarget as Element).getBoundingClientRect()
    const onNode =
      e.clientX >= box.left &&
      e.clientX <= box.right &&
      e.clientY >= box.top &&
      e.clientY <= box.bottom
    setMenu({
      id: node.data.docId,
      x: onNode ? e.clientX : box.left + 8,
      y: onNode ? e.clientY : box.bottom + 4,
    })
  }, [])
  /** A new node at `at` (flow coordinates), selected: in the inspector, ready to be named. */
  const addNodeAt = useCallback((at: XY) => {
    const { doc: current, onEdit, onSelect } = latest.current
    const edit = addNodeEdit(current, at)
    onEdit(edit)
    onSelect({ nodes: [edit.id], edges: [] })
  }, [])
  const onDoubleClick = useCallback(
    (e: MouseEvent) => {
      if (!(e.target instanceof Element) || !e.target.classList.contains('react-flow__pane')) return
      addNodeAt(screenToFlowPosition({ x: e.clientX, y: e.clientY }))
    },
    [screenToFlowPosition, addNodeAt],
  )
  const actions = useMemo<CanvasActions>(
    () => ({
      rename(from, to) {
        const { doc: current, onEdit } = latest.current
        const error = nodeNameError(current, from, to)
        if (error === null && to !== from) onEdit({ type: 'renameNode', from, to })
        return error
      },
      setBreakpoint(node, when, on) {
        latest.current.onEdit({ type: 'setBreakpoint', node, when, on })
      },
      openSubgraph(name) {
        latest.current.onOpenSubgraph?.(name)
      },
    }),
    [],
  )

  const addNodeInView = () => addNodeAt(freeSpot(doc, screenToFlowPosition(centreOf(root.current))))
  const sources = joinSources(doc, selection)
  const deletion = deletionEdit(doc, selection)
  const deleteSelection = () => {
    if (!deletion) return
    props.onEdit(deletion)
    props.onSelect({ nodes: [], edges: [] })
  }
  const big = flow.nodes.length > VISIBLE_ONLY_ABOVE

  return (
    <div
      ref={root}
      className="ss-canvas"
      onDoubleClick={onDoubleClick}
      onPointerDownCapture={pressNode}
    >
      <LowDetailContext.Provider value={lowDetail}>
        <OverlayContext.Provider value={overlay}>
          <EdgeLayerContext.Provider value={edgeLayer}>
            <CanvasActionsContext.Provider value={actions}>
              <ReactFlow<FlowNode, FlowEdge>
                nodes={nodes}
                edges={lowDetail ? NO_EDGES : edges}
                nodeTypes={nodeTypes}
                edgeTypes={edgeTypes}
                onNodesChange={onNodesChange}
                onEdgesChange={onEdgesChange}
                onNodeDragStop={onNodeDragStop}
                onConnect={onConnect}
                isValidConnection={isValidConnection}
                colorMode={colorMode}
                snapToGrid
                snapGrid={SNAP}
                deleteKeyCode={null}
                multiSelectionKeyCode={MULTI_SELECT}
                zoomOnDoubleClick={false}
                onlyRenderVisibleElements={big}
                defaultMarkerColor={null}
                fitView={!opened}
                {...(opened && { defaultViewport: opened })}
                fitViewOptions={fit}
                onNodeContextMenu={onNodeContextMenu}
                onPaneClick={lowDetail ? unselectEdges : undefined}
                onMoveStart={(event) => {
                  // Only the user's own pans and zooms (an event); fitView's moves have none.
                  if (event) markMoved()
                  // The menu stays in screen space: it would be left behind by the node.
                  setMenu(null)
                }}
                onMoveEnd={(_event, viewport) => {
                  if (!isFitted()) viewportOut.current?.(viewport)
                }}
                minZoom={0.1}
                aria-label="Graph canvas"
              >
                <Background gap={GRID * 2} />
                <Controls
                  showFitView={false}
                  showInteractive={false}
                  aria-label="Zoom"
                  onZoomIn={markMoved}
                  onZoomOut={markMoved}
                >
                  <ControlButton
                    className="ss-map-toggle"
                    aria-label="Mini map"
                    aria-pressed={showMap}
                    title={showMap ? 'Hide the mini map' : 'Show the mini map'}
                    onClick={() => {
                      saveMapShown(!showMap)
                      setShowMap(!showMap)
                      if (isFitted()) refit()
                    }}
                  >
                    <MapIcon />
                  </ControlButton>
                </Controls>
                {lowDetail && (
                  <LowDetailEdges nodes={nodes} edges={edges} direction={direction} fired={fired} />
                )}
                {showMap && (
                  <MiniMap
                    position="top-right"
                    pannable
                    zoomable
                    ariaLabel="Mini map"
                    nodeColor={nodeColor}
                    style={MAP}
                    onClick={markMoved}
                  />
                )}
                {toolbar && (
                  <Panel position="top-left" className="ss-toolbar-panel">
                    <Suspense fallback={null}>
                      <CanvasToolbar
                        onAddNode={addNodeInView}
                        onAutoLayout={async (control) => {
                          const edit = await autoLayoutEdit(doc, direction, undefined, control)
                          if (latest.current.doc !== doc) throw new Error(LAYOUT_OUTDATED)
                          props.onEdit(edit)
                          refitAfterEdit()
                        }}
                        nodeCount={doc.nodes.length}
                        direction={direction}
                        onDirection={setDirection}
                        onFitView={refit}
                        joinSources={sources}
                        joinTargets={sources.length >= 2 ? joinTargets(doc, sources) : []}
                        onJoin={(to) => props.onEdit({ type: 'addJoin', from: sources, to })}
                        onDelete={deletion ? deleteSelection : undefined}
                        subgraphSources={props.subgraphSources}
                        onAddSubgraph={(from) => {
                          const source = from
                            ? props.subgraphSources?.find((g) => g.id === from)
                            : null
                          const edit = addSubgraphEdit(
                            doc,
                            source ?? null,
                            freeSpot(doc, screenToFlowPosition(centreOf(root.current))),
                          )
                          if (edit) props.onEdit(edit)
                        }}
                        groupSources={sources}
                        groupName={graphTools().freeSubgraphName(doc)}
                        onGroup={(name) => {
                          const before = latest.current.doc
                          props.onEdit({ type: 'groupIntoSubgraph', ids: sources, name })
                          // The graph node that took their place is selected.
                          props.onSelect({
                            nodes: [graphTools().groupNodeId(before, sources, name)],
                            edges: [],
                          })
                        }}
                      />
                    </Suspense>
                  </Panel>
                )}
              </ReactFlow>
              {menu && (
                <Suspense fallback={null}>
                  <NodeMenu
                    key={`${menu.id} ${menu.x} ${menu.y}`}
                    at={menu}
                    before={breaksOn(doc.interruptBefore, menu.id)}
                    after={breaksOn(doc.interruptAfter, menu.id)}
                    onBreakpoint={(when, on) => actions.setBreakpoint(menu.id, when, on)}
                    onClose={() => setMenu(null)}
                  />
                </Suspense>
              )}
            </CanvasActionsContext.Provider>
          </EdgeLayerContext.Provider>
        </OverlayContext.Provider>
      </LowDetailContext.Provider>
    </div>
  )
}

function same(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i])
}

/** The first spot at or below `at` that no node occupies, so repeated adds do not stack. */
function freeSpot(doc: GraphSpec, at: { x: number; y: number }): { x: number; y: number } {
  const taken = (p: { x: number; y: number }) =>
    doc.nodes.some(
      (n) => n.position && Math.abs(n.position.x - p.x) < 160 && Math.abs(n.position.y - p.y) < 60,
    )
  let spot = at
  for (let i = 0; i < 50 && taken(spot); i++) spot = { x: at.x, y: at.y + (i + 1) * 75 }
  return spot
}

function MapIcon() {
  return (
    <svg viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <rect x="1.5" y="3" width="13" height="10" rx="1.5" fill="none" stroke="currentColor" />
      <rect x="8" y="8" width="5" height="3.5" fill="currentColor" />
    </svg>
  )
}

/** The middle of an element, in window pixels. */
function centreOf(el: HTMLElement | null): XY {
  const box = el?.getBoundingClientRect()
  return box ? { x: box.left + box.width / 2, y: box.top + box.height / 2 } : { x: 0, y: 0 }
}
