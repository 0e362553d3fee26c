import type { StoreApi } from 'zustand/vanilla'
import type { AppActions, AppDeps, AppState, GraphEntry } from './appTypes'

export { mergeDocs, same } from './mergeDocs'

/**
 * The parts of the document's saving (docSync.ts) that only now and then run, a chunk of
 * their own: the merge with another tab's save, a conflict's resolution, a full disk's
 * explanation.
 */

/** What a conflict's resolution reads and changes of the saving. */
export interface ResolveContext {
  store: StoreApi<AppState & AppActions>
  deps: AppDeps
  /** Per graph: the revision this tab last read or wrote, and its document. */
  bases: Map<string, { rev: number; doc: unknown }>
  /** Per graph: the document last journaled. */
  journaled: Map<string, unknown>
  /** Asks for a save of the open document. */
  request(): void
  nameOf(doc: unknown, g: GraphEntry): string
}

/** Applies the user's choice for the open graph's conflict. */
export async function resolveConflict(
  ctx: ResolveContext,
  choice: 'mine' | 'theirs',
): Promise<void> {
  const { store, bases, journaled, request, nameOf } = ctx
  const { graphs, journal, bus } = ctx.deps
  const set = (p: Partial<AppState>) => store.setState(p)
  const s = store.getState()
  const c = s.conflict
  const g = s.current
  if (!c || !g || c.graphId !== g.id) return
  if (c.kind === 'deleted') {
    if (choice === 'mine') {
      await graphs.restore(g.id)
      const row = await graphs.get(g.id)
      if (!row) {
        // Deleted for good meanwhile: saved anew, from what is on screen.
        await graphs.save({ ...g, doc: s.doc, name: nameOf(s.doc, g) })
      }
      const fresh = await graphs.get(g.id)
      bases.set(g.id, { rev: fresh?.rev ?? 0, doc: fresh?.doc })
      const { graphs: list, bin } = await graphs.library()
      set({ conflict: null, graphs: list, bin, message: `Kept ${g.name}.` })
      bus?.post({ type: 'libraryChanged' })
      request()
      if (s.doc === fresh?.doc) set({ saveState: 'saved' })
    } else {
      journal?.clear(g.id)
      journaled.delete(g.id)
      set({ conflict: null, saveState: 'saved' })
      const next = store.getState().graphs[0]
      if (next) await store.getState().select(next.id)
      else await store.getState().newGraph()
    }
    return
  }
  const theirsRev = c.theirsRev ?? 0
  bases.set(g.id, { rev: theirsRev, doc: c.theirs })
  set({ conflict: null })
  if (choice === 'theirs') {
    journal?.clear(g.id)
    journaled.delete(g.id)
    set({ doc: c.theirs, saveState: 'saved', message: `Took the other tab's ${g.name}.` })
  } else {
    request()
  }
}

/** A full disk in words: how full, and what to do (a save retried every `retrySeconds`). */
export async function describeFullDisk(
  deps: AppDeps,
  library: GraphEntry[],
  retrySeconds: number,
): Promise<string> {
  const use = await deps.storageUse?.().catch(() => null)
  const mb = (n: number) => `${(n / 1e6).toFixed(n < 1e7 ? 1 : 0)} MB`
  // Far below its quota, the site is not what filled the disk.
  const what =
    use && use.usage < use.quota * 0.8
      ? `the disk this browser stores to is full (this site uses ${mb(use.usage)})`
      : `the browser's storage for this site is full${use ? ` (${mb(use.usage)} of ${mb(use.quota)} used)` : ''}`
  const biggest = await biggestThreads(deps, library)
  return (
    `${what}. ` +
    `Delete threads or graphs you no longer need (and empty the bin)${biggest ? `; the biggest threads: ${biggest}` : ''}; ` +
    `your edit is kept here and saved as soon as there is room (retrying every ${retrySeconds} s).`
  )
}

/** The three threads with the most checkpoints, named with their graphs ("main of counter (2,002)"). */
async function biggestThreads(deps: AppDeps, library: GraphEntry[]): Promise<string> {
  const threads = await deps.client.request('listThreads', {}).catch(() => [])
  const named = new Map(library.map((g) => [g.id, g.name]))
  return threads
    .filter((t) => t.count > 0)
    .sort((a, b) => b.count - a.count)
    .slice(0, 3)
    .map((t) => {
      const graph = t.graph !== undefined ? named.get(t.graph) : undefined
      return `${t.name}${graph ? ` of ${graph}` : ''} (${t.count.toLocaleString('en')} checkpoints)`
    })
    .join(', ')
}
