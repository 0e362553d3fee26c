import { createContext, useContext } from 'react'
import type { LayoutStorage } from './useSplit'

/** Panel sizes are UI layout (never the user's work): the browser's localStorage is enough. */
export const layoutStorage: LayoutStorage = {
  getItem: (key) => {
    try {
      return localStorage.getItem(key)
    } catch {
      return null
    }
  },
  setItem: (key, value) => {
    try {
      localStorage.setItem(key, value)
    } catch {
      // Storage full or refused: the layout is simply not remembered.
    }
  },
}

/** The panels around the canvas that the user can resize and collapse. */
export type PanelName = 'sidebar' | 'inspector' | 'drawer'

/** What the frame (`Workbench`) tells the views inside it. */
export interface WorkbenchApi {
  /** Which panels are collapsed now. */
  collapsed: Readonly<Record<PanelName, boolean>>
  /** Collapses an open panel, restores a collapsed one to its last size. */
  toggle(name: PanelName): void
  /** Restores a collapsed panel (no change when it is open). */
  expand(name: PanelName): void
  /** Which panels are at their largest size now (e.g. a drawer enlarged for the chat). */
  enlarged: Readonly<Record<PanelName, boolean>>
  /** Grows a panel to its largest size, or puts an enlarged one back to the size it had. */
  toggleEnlarged(name: PanelName): void
  /** The panel's element, e.g. for a code editor that fills the run drawer. */
  element(name: PanelName): HTMLElement | null
}

export const WorkbenchContext = createContext<WorkbenchApi | null>(null)

/** The frame's panels, or null outside it (the test pages). */
export function useWorkbench(): WorkbenchApi | null {
  return useContext(WorkbenchContext)
}

/** The DOM id of a panel (also its key in the saved layout). */
export const panelId = (name: PanelName): string => `ss-${name}`

/** Shows the problems list: opens the sidebar and focuses its first problem (or its heading). */
export function revealProblems(workbench: WorkbenchApi | null): void {
  workbench?.expand('sidebar')
  // A panel that was collapsed shows its content a frame or two later; until then its
  // content cannot take focus.
  let frames = 0
  const tryFocus = () => {
    const target =
      document.querySelector<HTMLElement>('#problems-list button') ??
      document.getElementById('problems-heading')
    if (target && target.offsetParent !== null) {
      target.scrollIntoView({ block: 'nearest' })
      target.focus()
    } else if (++frames < 30) requestAnimationFrame(tryFocus)
  }
  tryFocus()
}
