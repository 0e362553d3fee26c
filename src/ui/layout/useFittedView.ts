import {
  getViewportForBounds,
  useReactFlow,
  useStoreApi,
  type FitViewOptions,
  type ReactFlowInstance,
} from '@xyflow/react'
import { useCallback, useEffect, useLayoutEffect, useRef, type RefObject } from 'react'
import { START_ID, type FlowEdge, type FlowNode } from '../canvas/flowTypes'

/**
 * The view stays fitted to the graph while the user has not moved it: a resized window or
 * panel fits it again. `refit` fits now (Fit view), `refitAfterEdit` once the edit just made
 * has reached React Flow (Auto layout); both make the view fitted again.
 * A graph too big to fit at the fit's least zoom (a laid-out 5,000-node chain is hundreds of
 * thousands of pixels long) is shown from `anchor` (START) at that zoom, not from its middle,
 * where there may be nothing but long edges to see.
 */
export function useFittedView(
  root: RefObject<HTMLDivElement | null>,
  fit: FitViewOptions<FlowNode>,
  o: {
    anchor?: string
    /** False when the canvas opens where the user left it (not fitted). */
    fitted?: boolean
    /** The view is made fitted again (Fit view, Auto layout). */
    onFit?: () => void
  } = {},
) {
  const { anchor = START_ID, onFit } = o
  const flow = useReactFlow<FlowNode, FlowEdge>()
  const store = useStoreApi<FlowNode, FlowEdge>()
  const fitted = useRef(o.fitted ?? true)
  const latestFit = useRef(fit)
  const latestOnFit = useRef(onFit)
  const fitSoon = useCallback(() => {
    fitted.current = true
    latestOnFit.current?.()
    requestAnimationFrame(() => void fitFrom(flow, store, latestFit.current, anchor))
  }, [flow, store, anchor])
  const refit = useCallback(() => fitSoon(), [fitSoon])
  const refitAfterEdit = useCallback(() => {
    // Once the edit that asked for it reaches React Flow: the fit reads the nodes' new
    // positions (a big graph's take more than a frame to get there). An edit that changed
    // nothing React Flow shows still gets its fit.
    const before = store.getState().nodes
    const stop = store.subscribe((state) => {
      if (state.nodes === before) return
      stop()
      clearTimeout(fallback)
      fitSoon()
    })
    const fallback = setTimeout(() => {
      stop()
      fitSoon()
    }, 1000)
  }, [store, fitSoon])
  useLayoutEffect(() => {
    latestFit.current = fit
    latestOnFit.current = onFit
  }, [fit, onFit])
  useEffect(() => {
    const el = root.current
    if (!el) return
    let frame = 0
    let last = { width: el.clientWidth, height: el.clientHeight }
    const observer = new ResizeObserver(() => {
      const size = { width: el.clientWidth, height: el.clientHeight }
      if (size.width === last.width && size.height === last.height) return
      last = size
      if (!fitted.current || size.width === 0 || size.height === 0) return
      cancelAnimationFrame(frame)
      frame = requestAnimationFrame(() => void fitFrom(flow, store, latestFit.current, anchor))
    })
    observer.observe(el)
    return () => {
      observer.disconnect()
      cancelAnimationFrame(frame)
    }
  }, [root, flow, store, anchor])
  const markMoved = useCallback(() => {
    fitted.current = false
  }, [])
  const isFitted = useCallback(() => fitted.current, [])
  return { markMoved, isFitted, refit, refitAfterEdit }
}

/**
 * Fits the view to the graph, or shows it from `anchor` at the least zoom if it cannot fit.
 * The viewport is computed here and set, not asked of React Flow's `fitView`: that one waits
 * until every node is measured, and with only the visible nodes rendered (a big graph) the
 * others never are, so a Fit view or an Auto layout of a big graph left the view where it was.
 * Unmeasured nodes count with their declared size (`initialWidth`, `initialHeight`).
 */
async function fitFrom(
  flow: ReactFlowInstance<FlowNode, FlowEdge>,
  store: ReturnType<typeof useStoreApi<FlowNode, FlowEdge>>,
  options: FitViewOptions<FlowNode>,
  anchor: string,
): Promise<void> {
  const { width, height, minZoom, maxZoom } = store.getState()
  const nodes = flow.getNodes()
  if (width === 0 || height === 0 || nodes.length === 0) return
  const least = options.minZoom ?? minZoom
  const most = options.maxZoom ?? maxZoom
  const padding = options.padding ?? 0.1
  const bounds = flow.getNodesBounds(nodes)
  const fitted = getViewportForBounds(bounds, width, height, least, most, padding)
  const start = flow.getNode(anchor)
  const fits = bounds.width * least <= width && bounds.height * least <= height
  let viewport = fitted
  if (!fits && start) {
    // At the least zoom, START as near the view's centre as the graph allows: along an axis
    // the graph overflows, its near end stays no further in than a margin (a chain laid out
    // left to right starts at the left); along an axis it fits in, it is centred.
    const box = flow.getNodesBounds([start])
    const along = (
      lo: number,
      size: number,
      at: number,
      own: number,
      room: number,
      margin: number,
    ) => {
      if (size * least <= room) return room / 2 - (lo + size / 2) * least
      const centred = room / 2 - (at + own / 2) * least
      const first = margin - lo * least
      const last = room - margin - (lo + size) * least
      return Math.min(first, Math.max(last, centred))
    }
    viewport = {
      zoom: least,
      x: along(bounds.x, bounds.width, box.x, box.width, width, 56),
      y: along(bounds.y, bounds.height, box.y, box.height, height, 64),
    }
  }
  await flow.setViewport(viewport, { duration: options.duration })
}
