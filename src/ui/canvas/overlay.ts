import { createContext, useContext, useSyncExternalStore } from 'react'

/** The run state drawn over the document: nodes that ran, nodes queued next, step badges. */
export interface RunOverlay {
  ran: string[]
  next: string[]
  badges: Record<string, number>
  /** Canvas edge ids (flowTypes.ts) that fired in the shown super-step: drawn animated. */
  fired?: string[]
  /**
   * A run is going: fired edges are drawn highlighted but still. An endless dash animation
   * repaints the page every frame, which a run stepping 50 times a second cannot afford.
   */
  live?: boolean
  /** The node the run failed in, and why: marked on the node until the next run. */
  failed?: { node: string; message: string }
}

/** One node's part of the overlay. */
export interface NodeOverlay {
  ran: boolean
  next: boolean
  badge: number | undefined
  /** Why the run failed in this node, when it did. */
  failed?: string
}

const NONE: NodeOverlay = { ran: false, next: false, badge: undefined }

/**
 * The overlay outside `node.data`: a tiny store each node subscribes to by id, so a new
 * super-step re-renders only the nodes whose overlay changed, and the document-derived
 * nodes keep their identity.
 */
export function createOverlayStore() {
  let byId = new Map<string, NodeOverlay>()
  const listeners = new Set<() => void>()
  return {
    set(overlay: RunOverlay | undefined) {
      const next = new Map<string, NodeOverlay>()
      const get = (id: string) => next.get(id) ?? { ...NONE }
      for (const id of overlay?.ran ?? []) next.set(id, { ...get(id), ran: true })
      for (const id of overlay?.next ?? []) next.set(id, { ...get(id), next: true })
      for (const [id, badge] of Object.entries(overlay?.badges ?? {}))
        next.set(id, { ...get(id), badge })
      if (overlay?.failed)
        next.set(overlay.failed.node, {
          ...get(overlay.failed.node),
          failed: overlay.failed.message,
        })
      // Unchanged nodes keep their object, so useSyncExternalStore sees no change for them.
      for (const [id, o] of next) {
        const old = byId.get(id)
        const same =
          old &&
          old.ran === o.ran &&
          old.next === o.next &&
          old.badge === o.badge &&
          old.failed === o.failed
        if (same) next.set(id, old)
      }
      byId = next
      for (const l of listeners) l()
    },
    get(id: string): NodeOverlay {
      return byId.get(id) ?? NONE
    },
    subscribe(listener: () => void) {
      listeners.add(listener)
      return () => {
        listeners.delete(listener)
      }
    },
  }
}

export type OverlayStore = ReturnType<typeof createOverlayStore>

export const OverlayContext = createContext<OverlayStore>(createOverlayStore())

/** The overlay of one node; re-renders only when that node's overlay changes. */
export function useNodeOverlay(id: string): NodeOverlay {
  const store = useContext(OverlayContext)
  return useSyncExternalStore(
    store.subscribe,
    () => store.get(id),
    () => store.get(id),
  )
}
