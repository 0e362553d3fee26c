import type { GraphEntry, LibraryActions, LibraryState, SliceContext } from './appTypes'
import { exportFileName, exportText, issuesOf } from './documents'
import { uniqueName } from './uniqueName'

export const INITIAL_LIBRARY: LibraryState = {
  graphs: [],
  templates: [],
  lastDeleted: null,
  importProblems: null,
}

type ThreadFile = { graph?: unknown; name?: unknown; threadId?: unknown }

/** The library's actions: new, import, rename, duplicate, delete and restore graphs. */
export function createLibrarySlice(ctx: SliceContext): LibraryActions {
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
      await get().select(entry.id)
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
      const { current, doc } = get()
      if (!current) return
      await graphs.delete(current.id)
      const list = await graphs.list()
      set({
        graphs: list,
        message: `Deleted ${current.name}.`,
        lastDeleted: { ...current, doc },
      })
      const next = list[0]
      if (next) await get().select(next.id)
      else await get().newGraph()
    },

    async restoreDeleted() {
      const g = get().lastDeleted
      if (!g) return
      await graphs.save(g)
      set({ graphs: await graphs.list(), lastDeleted: null, message: `Restored ${g.name}.` })
      await get().select(g.id)
    },

    exportCurrent() {
      const { current, doc } = get()
      if (!current) return null
      const name = (doc as { name?: string })?.name ?? current.name
      return { fileName: exportFileName(name), text: exportText(doc) }
    },

    dismissImportProblems() {
      set({ importProblems: null })
    },
  }
}
