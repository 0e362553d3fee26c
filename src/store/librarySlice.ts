import type { LibraryActions, LibraryState, SliceContext } from './appTypes'
import { exportFileName, exportText } from './documents'
import type { LoadedLibraryActions } from './libraryActions'
import { loadOnce } from '../lib/loadOnce'

export const INITIAL_LIBRARY: LibraryState = {
  graphs: [],
  templates: [],
  lastDeleted: null,
  importProblems: null,
  bin: [],
  conflict: null,
  runningElsewhere: false,
}

/**
 * The library's actions: new, import, rename, duplicate, delete and restore graphs. Their code
 * (libraryActions.ts) loads when one is first called (the page opens its first graph without
 * them); calls made meanwhile run in their order.
 */
export function createLibrarySlice(ctx: SliceContext): LibraryActions {
  const { set, get } = ctx
  const load = loadOnce(
    async (): Promise<LoadedLibraryActions> =>
      (await import('./libraryActions')).libraryActions(ctx),
    (e) => {
      set({ message: `The library's actions could not load: ${(e as Error).message}` })
      return null
    },
  )
  return {
    importDocument: async (text, fileName) => await (await load())?.importDocument(text, fileName),
    importThread: async (text, fileName) => await (await load())?.importThread(text, fileName),
    // A move of its own, asked for at once (its code and its save come inside it): a graph
    // picked while the new one is being made opens after it, and stays open.
    newGraph: (templateDoc, name, input) =>
      ctx.navigation.go(async () => await (await load())?.newGraph(templateDoc, name, input)),
    renameGraph: async (name) => await (await load())?.renameGraph(name),
    duplicateGraph: async () => await (await load())?.duplicateGraph(),
    deleteGraph: async () => await (await load())?.deleteGraph(),
    restoreDeleted: async () => await (await load())?.restoreDeleted(),
    restoreFromBin: async (id) => await (await load())?.restoreFromBin(id),
    deleteForever: async (id) => await (await load())?.deleteForever(id),
    refreshBin: async () => await (await load())?.refreshBin(),

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
