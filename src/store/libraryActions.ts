import type { GraphEntry, LibraryActions, SliceContext } from './appTypes'
import { issuesOf } from './documents'
import { uniqueName } from './uniqueName'

type ThreadFile = { graph?: unknown; name?: unknown; threadId?: unknown }

/** The library's actions that load on first use (see `createLibrarySlice`). */
export type LoadedLibraryActions = Omit<LibraryActions, 'exportCurrent' | 'dismissImportProblems'>

/**
 * The library's actions: new, import, rename, duplicate, delete and restore graphs. A chunk of
 * their own, loaded by `createLibrarySlice` when one is first called.
 */
export function libraryActions(ctx: SliceContext): LoadedLibraryActions {
  const { set, get, deps } = ctx
  const { graphs } = deps

  /** Parses a file's text; a file that is not JSON says so and changes nothing. */
  const parseFile = (text: string, fileName: string): { value: unknown } | null => {
    try {
      return { value: JSON.parse(text) as unknown }
    } catch (e) {
      set({ message: `${fileName} is not JSON: ${(e as Error).message}` })
      return null
    }
  }

  /**
   * The one way someone else's graph comes in (a graph file, a thread file's graph): checked
   * first (a file with errors changes nothing; its problems are shown), given a name unique
   * in the library, saved untrusted (nothing in it runs until the user trusts it) and opened.
   * `before` runs before anything is saved: when it throws, nothing is left behind.
   */
  const openUntrusted = async (
    doc: unknown,
    fileName: string,
    before?: (entry: GraphEntry) => Promise<void>,
  ): Promise<GraphEntry | null> => {
    const issues = issuesOf(doc)
    if (issues.some((i) => i.severity === 'error')) {
      set({ importProblems: { fileName, issues } })
      return null
    }
    const given = (doc as { name?: unknown }).name
    const name = uniqueName(
      typeof given === 'string' ? given : fileName,
      get().graphs.map((g) => g.name),
    )
    const named = name === given ? doc : { ...(doc as object), name }
    const entry: GraphEntry = {
      id: deps.newId(),
      name,
      doc: named,
      trusted: false,
      allowNetwork: false,
    }
    if (before) await before(entry)
    await graphs.save(entry)
    set({ graphs: await graphs.list(), importProblems: null })
    await get().select(entry.id)
    return entry
  }

  const importThreadFile = async (file: ThreadFile, fileName: string) => {
    const threadName = typeof file.name === 'string' ? file.name : 'imported'
    let threadId = ''
    try {
      const entry = await openUntrusted(file.graph, fileName, async (e) => {
        threadId = `${e.id}:${deps.newId()}`
        // The checkpoints first: a refused file leaves no graph behind.
        await deps.client.request('importThread', {
          file,
          threadId,
          graph: e.id,
          name: threadName,
        })
      })
      if (!entry) return
      if (get().threadId !== threadId) await get().switchThread(threadId)
      set({ message: `Imported thread ${threadName} of ${entry.name}.` })
    } catch (e) {
      set({ message: `${fileName}: ${(e as Error).message}` })
    }
  }

  return {
    async importDocument(text, fileName) {
      const parsed = parseFile(text, fileName)
      if (!parsed) return
      const doc = parsed.value
      if (typeof (doc as { superstepThread?: unknown })?.superstepThread === 'number')
        return importThreadFile(doc as ThreadFile, fileName)
      const entry = await openUntrusted(doc, fileName)
      if (entry) set({ message: `Imported ${entry.name}.` })
    },

    async importThread(text, fileName) {
      const parsed = parseFile(text, fileName)
      if (parsed) await importThreadFile((parsed.value ?? {}) as ThreadFile, fileName)
    },

    async newGraph(templateDoc, name, input) {
      const base = templateDoc ?? {
        superstep: 1,
        name: name ?? 'untitled',
        state: [],
        nodes: [],
        edges: [],
      }
      // Names are unique in the library: a second counter is "counter 2".
      const unique = uniqueName(
        name ?? (base as { name?: string }).name ?? 'untitled',
        get().graphs.map((g) => g.name),
      )
      const doc = { ...(base as object), name: unique }
      const entry: GraphEntry = {
        id: deps.newId(),
        name: unique,
        doc,
        trusted: true,
        allowNetwork: false,
        ...(input !== undefined && { input }),
      }
      await graphs.save(entry)
      set({ graphs: await graphs.list() })
      // Inside the move newGraph is (see librarySlice): the opening itself, not another move.
      await ctx.open(entry.id)
    },

    async renameGraph(name) {
      const trimmed = name.trim()
      if (!trimmed) return set({ editError: 'A graph needs a name.' })
      const current = get().current
      if (get().graphs.some((g) => g.name === trimmed && g.id !== current?.id))
        return set({
          editError: `Another graph is named ${trimmed}: pick another name (the library's names are unique).`,
        })
      get().edit({ type: 'setName', name: trimmed })
    },

    async duplicateGraph() {
      const { current, doc } = get()
      if (!current) return
      const name = `${current.name} copy`
      await get().newGraph({ ...(doc as object), name }, name, get().input)
      // A copy of an untrusted graph is still someone else's code.
      if (!current.trusted) {
        const copy = get().current
        if (copy) await graphs.save({ ...copy, trusted: false })
        set({
          graphs: await graphs.list(),
          current: copy && { ...copy, trusted: false },
          graphId: null,
        })
      }
    },

    async deleteGraph() {
      const { current } = get()
      if (!current) return
      // A run of its own stops first, cleanly (what it checkpointed stays, in the bin).
      if (get().runState === 'running' || get().runState === 'paused') await get().stop()
      await ctx.settleSaves()
      await graphs.bin(current.id)
      deps.bus?.post({ type: 'libraryChanged' })
      const { graphs: list, bin } = await graphs.library()
      set({
        graphs: list,
        bin,
        message: `Moved ${current.name} to the bin.`,
        lastDeleted: current,
      })
      const next = list[0]
      if (next) await get().select(next.id)
      else await get().newGraph()
    },

    async restoreDeleted() {
      const g = get().lastDeleted
      if (!g) return
      set({ lastDeleted: null })
      await get().restoreFromBin(g.id)
    },

    async restoreFromBin(id) {
      const g = (await graphs.get(id)) ?? null
      if (!g) return set({ message: 'That graph was deleted for good meanwhile.' })
      // Its name may have been taken while it was away: it comes back as "name 2".
      const name = uniqueName(
        g.name,
        get()
          .graphs.filter((x) => x.id !== id)
          .map((x) => x.name),
      )
      await graphs.restore(id)
      if (name !== g.name)
        await graphs.save({ ...g, deletedAt: undefined, name, doc: { ...(g.doc as object), name } })
      deps.bus?.post({ type: 'libraryChanged' })
      const { graphs: list, bin } = await graphs.library()
      set({ graphs: list, bin, message: `Restored ${name}.` })
      await get().select(id)
    },

    async deleteForever(id) {
      const g = (await graphs.get(id)) ?? get().bin.find((b) => b.id === id)
      if (!g) return
      // Its threads go with it; one running in another tab keeps the graph for now.
      try {
        const threads = await deps.client.request('listThreads', { graph: id })
        for (const t of threads) await deps.client.request('deleteThread', { threadId: t.threadId })
      } catch (e) {
        await get().refreshBin()
        return set({ message: `${g.name} was not deleted: ${(e as Error).message}` })
      }
      await graphs.delete(id)
      ctx.forgetGraph(id)
      deps.bus?.post({ type: 'libraryChanged' })
      await get().refreshBin()
      set({ message: `Deleted ${g.name} and its threads for good.` })
    },

    async refreshBin() {
      set({ bin: await graphs.listBin() })
    },
  }
}
