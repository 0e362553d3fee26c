import { createContext } from 'react'

/**
 * What a node component may ask of the canvas. The value never changes (it reads the
 * latest props through a ref), so providing it re-renders nothing.
 */
export interface CanvasActions {
  /** Renames a node: an error message to show at the input, or `null` when the edit went out. */
  rename(from: string, to: string): string | null
  /** Turns "pause before" / "pause after" of a node on or off (a setBreakpoint edit). */
  setBreakpoint(node: string, when: 'before' | 'after', on: boolean): void
  /** Opens a subgraph on the canvas (a graph node's double-click, or Enter on it). */
  openSubgraph(name: string): void
}

export const CanvasActionsContext = createContext<CanvasActions>({
  rename: () => null,
  setBreakpoint: () => undefined,
  openSubgraph: () => undefined,
})
