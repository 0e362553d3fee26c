import { useReactFlow, type FitViewOptions } from '@xyflow/react'
import { useCallback, useEffect, useLayoutEffect, useRef, type RefObject } from 'react'
import type { FlowEdge, FlowNode } from '../canvas/flowTypes'

/**
 * The view stays fitted to the graph while the user has not moved it: a resized window or
 * panel fits it again. `refit` fits now (Fit view, Auto layout) and makes it fitted again.
 */
export function useFittedView(
  root: RefObject<HTMLDivElement | null>,
  fit: FitViewOptions<FlowNode>,
) {
  const { fitView } = useReactFlow<FlowNode, FlowEdge>()
  const fitted = useRef(true)
  const latestFit = useRef(fit)
  const refit = useCallback(() => {
    fitted.current = true
    // After the edit that asked for it is drawn: the fit reads the nodes' new positions.
    requestAnimationFrame(() => void fitView(latestFit.current))
  }, [fitView])
  useLayoutEffect(() => {
    latestFit.current = fit
  }, [fit])
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
      frame = requestAnimationFrame(() => void fitView(latestFit.current))
    })
    observer.observe(el)
    return () => {
      observer.disconnect()
      cancelAnimationFrame(frame)
    }
  }, [root, fitView])
  const markMoved = useCallback(() => {
    fitted.current = false
  }, [])
  const isFitted = useCallback(() => fitted.current, [])
  return { markMoved, isFitted, refit }
}
