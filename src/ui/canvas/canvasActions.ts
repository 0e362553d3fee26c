import { createContext } from 'react'

/**
 * What a node component may ask of the canvas. The value never changes (it reads the
 * latest props through a ref), so providing it re-renders nothing.
 */
export interface CanvasActions {
  /** Renames a node: an error message to show at the input, or `null` when the edit went out. */
  rename(from: string, to: string): string | null
}

export const CanvasActionsContext = createContext<CanvasActions>({ rename: () => null })
