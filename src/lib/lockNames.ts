/**
 * The Web Lock names the app's tabs and workers share (one origin, one namespace): the worker
 * takes them, the page asks whether they are held.
 */

/** Held by a run (or an import, or a delete) of the thread, in whichever tab it is. */
export const threadLockName = (threadId: string) => `superstep:thread:${threadId}`

/** Held by each tab for as long as it lives: its release tells the others it is gone. */
export const tabLockName = (tabId: string) => `superstep:tab:${tabId}`
