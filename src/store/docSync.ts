import type { StoreApi } from 'zustand/vanilla'
import type {
  AppActions,
  AppDeps,
  AppState,
  GraphEntry,
  JournalEntry,
  TabMessage,
} from './appTypes'
import { isQuotaError } from '../lib/quota'

/**
 * What the saving needs only now and then, a chunk of its own: the three-way merge (another
 * tab's save, a journal left behind), a conflict's resolution, a full disk's explanation.
 * Fetched as the saving starts (not with the page's script), and awaited where used.
 */
const loadRare = () => import('./docSyncRare')

type Store = StoreApi<AppState & AppActions>

/** How long a failed save waits before it tries again (a full disk may be freed meanwhile). */
export const SAVE_RETRY_MS = 5000

/** What the store asks of the document's saving. */
export interface DocSync {
  /** Applies the user's choice for the open graph's conflict. */
  resolve(choice: 'mine' | 'theirs'): Promise<void>
  /** Resolves once every save asked for so far has been tried. */
  settled(): Promise<void>
  /** Forgets a graph's base (it was deleted for good). */
  forget(graphId: string): void
}

/** What the saving asks of the store's undo history. */
export interface DocSyncHost {
  /**
   * Shows `doc`, another tab's change taken in, as no undo step of this tab's; `rebase` adds
   * the same change to a document the undo history holds.
   */
  adopt(doc: unknown, rebase: (held: unknown) => unknown): void
}

/**
 * Saves the open document as it changes, and keeps it in step with other tabs.
 * - Each save writes over the revision this tab last read (`saveOver`); a newer revision is
 *   another tab's save: the two are merged (mergeDocs) when they touch different things, and
 *   otherwise the user is shown both and chooses. Nothing is overwritten silently.
 * - What is being saved is journaled synchronously first (localStorage): a reload or a closed
 *   tab during the write loses nothing; the next load takes the journal back.
 * - "Saved" is shown only when IndexedDB has the document on screen; a failed save says why
 *   and is tried again every SAVE_RETRY_MS until it succeeds.
 * - A save in another tab reaches this one: the document is replaced when this tab has no
 *   unsaved edit of its own, and merged (by the next save) when it has.
 */
export function attachDocSync(store: Store, deps: AppDeps, host: DocSyncHost): DocSync {
  const { graphs, journal, bus } = deps
  /** Per graph: the revision this tab last read or wrote, and its document. */
  const bases = new Map<string, { rev: number; doc: unknown }>()
  /** Per graph: the document last journaled (the journal is cleared once it is saved). */
  const journaled = new Map<string, unknown>()
  let running: Promise<void> | null = null
  /** The save being written now: its graph, the revision it writes over, and its document. */
  let writing: { graphId: string; baseRev: number; doc: unknown } | null = null
  let dirty = false
  let retry: ReturnType<typeof setTimeout> | undefined
  /** A save failed since the last one that went through (the next success says so). */
  let hadFailed = false
  let rare: ReturnType<typeof loadRare> | null = null
  /** The rare parts; a failed fetch (offline) is tried again at the next use. */
  const rareParts = () =>
    (rare ??= loadRare().catch((e: unknown) => {
      rare = null
      throw e
    }))
  void rareParts().catch(() => undefined)

  const set = (p: Partial<AppState>) => store.setState(p)
  const baseOf = (g: GraphEntry) => bases.get(g.id) ?? { rev: g.rev ?? 0, doc: g.doc }
  const nameOf = (doc: unknown, g: GraphEntry) => {
    const n = (doc as { name?: unknown } | null)?.name
    return typeof n === 'string' ? n : g.name
  }

  const request = () => {
    const s = store.getState()
    const g = s.current
    if (!g) return
    if (s.doc === baseOf(g).doc) return
    if (journal && journaled.get(g.id) !== s.doc) {
      const base = baseOf(g)
      // A save under way may land before the page goes: the journal says what it wrote.
      const landing =
        writing?.graphId === g.id && writing.baseRev === base.rev ? writing.doc : undefined
      journal.write(g.id, {
        baseRev: base.rev,
        doc: s.doc,
        ...(landing !== undefined && { landing }),
      })
      journaled.set(g.id, s.doc)
    }
    if (s.conflict?.graphId === g.id) return // the user chooses first; the journal keeps it
    if (s.saveState !== 'saving') set({ saveState: 'saving' })
    dirty = true
    running ??= loop().finally(() => {
      running = null
    })
  }

  const loop = async () => {
    while (dirty) {
      dirty = false
      await saveOnce()
    }
  }

  const saveOnce = async () => {
    const s = store.getState()
    const g = s.current
    if (!g || s.conflict?.graphId === g.id) return
    const doc = s.doc
    const base = baseOf(g)
    if (doc === base.doc) return settle()
    const name = nameOf(doc, g)
    let r: Awaited<ReturnType<typeof graphs.saveOver>>
    writing = { graphId: g.id, baseRev: base.rev, doc }
    try {
      const writer = journal?.writer
      r = await graphs.saveOver({ ...g, doc, name, ...(writer && { writer }) }, base.rev)
    } catch (e) {
      return failed(e)
    } finally {
      writing = null
    }
    clearTimeout(retry)
    if (r.ok) {
      bases.set(g.id, { rev: r.rev, doc })
      if (journaled.get(g.id) === doc) {
        journal?.clear(g.id)
        journaled.delete(g.id)
      }
      bus?.post({ type: 'graphSaved', id: g.id, rev: r.rev })
      // The library's entry is updated in place and listed first (most recently saved), not
      // read back with every document: a big graph's save ends as soon as it is written.
      const now = store.getState()
      const saved: GraphEntry = {
        ...(now.graphs.find((x) => x.id === g.id) ?? g),
        name,
        doc,
        rev: r.rev,
        updatedAt: r.updatedAt,
      }
      set({
        graphs: [saved, ...now.graphs.filter((x) => x.id !== g.id)],
        ...(now.current?.id === g.id && {
          current: { ...now.current, name, doc, rev: r.rev, updatedAt: r.updatedAt },
        }),
      })
      if (hadFailed) set({ message: `Saved ${name} after all.` })
      hadFailed = false
      return settle()
    }
    const theirs = r.theirs
    if (!theirs || theirs.deletedAt) {
      set({ conflict: { graphId: g.id, kind: 'deleted', paths: [] }, saveState: 'failed' })
      return
    }
    let mergeDocs: Awaited<ReturnType<typeof loadRare>>['mergeDocs']
    try {
      ;({ mergeDocs } = await rareParts())
    } catch (e) {
      return failed(e) // the merge could not load: tried again like any failed save
    }
    const merged = mergeDocs(base.doc, doc, theirs.doc)
    if (merged.conflicts.length) {
      set({
        conflict: {
          graphId: g.id,
          kind: 'changed',
          paths: merged.conflicts,
          theirs: theirs.doc,
          theirsRev: theirs.rev ?? 0,
        },
        saveState: 'failed',
      })
      return
    }
    bases.set(g.id, { rev: theirs.rev ?? 0, doc: theirs.doc })
    const now = store.getState()
    if (now.current?.id !== g.id) return
    // Edits typed while the save was out are kept on top of the merge.
    const next = now.doc === doc ? merged.doc : mergeDocs(doc, now.doc, merged.doc).doc
    host.adopt(next, (held) => mergeDocs(base.doc, held, theirs.doc).doc)
    set({ message: `Merged your changes to ${name} with those saved in another tab.` })
    dirty = true
  }

  const settle = () => {
    if (!dirty) set({ saveState: 'saved' })
  }

  const failed = async (e: unknown) => {
    hadFailed = true
    const why = await describeSaveError(e, deps, store.getState().graphs, rareParts)
    set({ saveState: 'failed', message: `Saving failed: ${why}` })
    clearTimeout(retry)
    retry = setTimeout(request, SAVE_RETRY_MS)
  }

  /** A journal left behind by a closed tab, for the graph just opened: its edit comes back. */
  const recover = async (g: GraphEntry) => {
    bases.set(g.id, { rev: g.rev ?? 0, doc: g.doc })
    const j = await journal?.take(g.id).catch(() => null)
    if (!j) return
    let mergeDocs: Awaited<ReturnType<typeof loadRare>>['mergeDocs']
    let same: Awaited<ReturnType<typeof loadRare>>['same']
    try {
      ;({ mergeDocs, same } = await rareParts())
    } catch (e) {
      // The journal is put back for the next load, and the edit is not lost.
      journal?.write(g.id, j)
      set({
        message: `The last unsaved changes to ${g.name} could not be recovered now: ${(e as Error).message}. Reload to try again.`,
      })
      return
    }
    const s = store.getState()
    if (s.current?.id !== g.id || s.doc !== g.doc || same(j.doc, g.doc)) return
    const rev = g.rev ?? 0
    if (supersedes(g, j)) return
    // Journaled over this revision, or over the one before while the save that made this
    // one was being written (it landed): the edit goes on top of what is stored.
    const onTop =
      j.baseRev === rev ||
      (j.landing !== undefined && j.baseRev + 1 === rev && same(j.landing, g.doc))
    if (onTop) {
      set({
        doc: j.doc,
        message: `Recovered the last changes to ${g.name}, which were still being saved when the page closed.`,
      })
      return
    }
    // Saved over since (another tab, or this one's conflict left open): the edit is shown
    // and the user chooses between it and what is saved; neither is dropped. Until then it
    // is journaled over the revision it was made on, so a reload asks again.
    const paths = mergeDocs(undefined, j.doc, g.doc).conflicts
    bases.set(g.id, { rev: j.baseRev, doc: undefined })
    set({
      doc: j.doc,
      conflict: {
        graphId: g.id,
        kind: 'changed',
        paths: paths.length ? paths : ['the whole graph'],
        theirs: g.doc,
        theirsRev: g.rev ?? 0,
      },
      saveState: 'failed',
      message: `Recovered unsaved changes to ${g.name}; it was saved differently since. Choose which to keep.`,
    })
  }

  /** Another tab saved a graph or changed the library. */
  const onMessage = async (m: TabMessage) => {
    if (m.type !== 'graphSaved' && m.type !== 'libraryChanged') return
    const { graphs: list, bin } = await graphs.library()
    set({ graphs: list, bin })
    const s = store.getState()
    const g = s.current
    if (!g) return
    if (bin.some((b) => b.id === g.id)) {
      if (s.conflict?.graphId !== g.id)
        set({ conflict: { graphId: g.id, kind: 'deleted', paths: [] } })
      return
    }
    if (m.type !== 'graphSaved' || m.id !== g.id) return
    const base = baseOf(g)
    if (m.rev <= base.rev) return
    // Typed text on its way to the document: taken in first, then merged by its save.
    if (deps.localEditsPending?.()) {
      setTimeout(() => void onMessage(m).catch(() => undefined), 250)
      return
    }
    if (s.doc !== base.doc) return request() // the save merges
    const row = await graphs.get(g.id)
    const { mergeDocs } = await rareParts()
    const now = store.getState()
    if (!row || now.current?.id !== g.id || now.doc !== base.doc) return
    bases.set(g.id, { rev: row.rev ?? 0, doc: row.doc })
    host.adopt(row.doc, (held) => mergeDocs(base.doc, held, row.doc).doc)
    set({
      current: { ...now.current, name: row.name, doc: row.doc, rev: row.rev ?? 0 },
      message: `${row.name} was changed in another tab; this tab shows the change.`,
    })
  }

  store.subscribe((s, prev) => {
    if (s.current?.id !== prev.current?.id) {
      clearTimeout(retry)
      if (s.current) void recover(s.current)
      return
    }
    if (s.doc !== prev.doc && s.current) request()
  })
  bus?.on((m) => void onMessage(m).catch(() => undefined))

  return {
    async resolve(choice) {
      let parts: Awaited<ReturnType<typeof loadRare>>
      try {
        parts = await rareParts()
      } catch (e) {
        // Offline: the conflict stays open (nothing is lost), and the next click tries again.
        return set({ message: `The choice could not be applied: ${(e as Error).message}` })
      }
      await parts.resolveConflict({ store, deps, bases, journaled, request, nameOf }, choice)
    },
    settled: async () => {
      while (running) await running
    },
    forget(graphId) {
      bases.delete(graphId)
      journal?.clear(graphId)
      journaled.delete(graphId)
    },
  }
}

/** A save's failure in words: a full disk says how full and what to do. */
async function describeSaveError(
  e: unknown,
  deps: AppDeps,
  library: GraphEntry[],
  rareParts: () => ReturnType<typeof loadRare>,
): Promise<string> {
  const retrying = `Retrying every ${SAVE_RETRY_MS / 1000} s.`
  if (!isQuotaError(e)) return `${(e as Error)?.message ?? String(e)}. ${retrying}`
  return await rareParts().then(
    (m) => m.describeFullDisk(deps, library, SAVE_RETRY_MS / 1000),
    () => `the browser's storage for this site is full. ${retrying}`,
  )
}

/**
 * Whether the stored revision already holds a journal's edit: saved after the journal was
 * written, by the tab that wrote it (its edits only grow) or by a tab opened after it (which
 * took that journal when it opened the graph). localStorage reaches the disk later than
 * IndexedDB, so after a crash a journal can be older than saves that landed; without this
 * it would come back as a conflict with nothing to choose.
 */
export function supersedes(
  g: Pick<GraphEntry, 'rev' | 'writer' | 'updatedAt'>,
  j: Pick<JournalEntry, 'baseRev' | 'writer' | 'at'>,
): boolean {
  if (!g.writer || !j.writer || j.at === undefined || (g.rev ?? 0) <= j.baseRev) return false
  const savedAt = Date.parse(g.updatedAt ?? '')
  if (!(savedAt >= j.at)) return false
  const opened = (w: string) => Number(w.slice(w.lastIndexOf('@') + 1))
  return g.writer === j.writer || opened(g.writer) > j.at
}
