import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { systemEnv } from './lib/env'
import { broadcastBus, localJournal, threadLockHeld } from './store/tabs'
import { createAppStore } from './store/appStore'
import { loadGraphTools } from './store/graphTools'
import type { RuntimeRequests } from './worker/client'
import { DeferredRuntimeClient } from './worker/deferredClient'
import { App } from './ui/App'
import { StartupError } from './ui/StartupError'
import { draftsPending } from './ui/inspector/pendingDrafts'
import { StoreContext } from './ui/storeContext'
import './ui/app.css'

/**
 * The page's storage (Dexie and the graph documents) and the runtime's starter (the worker
 * and the sandbox frames): not part of the page's own script (React, React Flow, the shell),
 * but fetched, all at once, as soon as it runs. The first render waits for the storage: the
 * database is opened (or refused) before anything else, as before. It does not wait for the
 * runtime: the worker starts (loads, opens its database) while the page draws its first
 * frame and reads the open graph, and the store's requests wait for it meanwhile.
 */
const persistence = Promise.all([
  import('./persistence/db'),
  import('./persistence/graphRepository'),
  import('./persistence/openCheck'),
]).then(([db, repository, check]) => ({ ...db, ...repository, ...check }))
const runtimeStarter = import('./worker/createRuntime')
// The document's validation and edits (zod, acorn), likewise: every view uses them at once.
const graphToolsReady = loadGraphTools()
// The bundled graphs (the templates, the first start's example), likewise: the store starts
// with them.
const bundledGraphs = import('./templates')

// The composition root: the database, the runtime worker and its sandbox, the store.
async function main() {
  const root = document.getElementById('root')
  if (!root) throw new Error('index.html has no #root element')
  const { SuperstepDb, GraphRepository, openProblem } = await persistence
  await graphToolsReady
  const { TEMPLATES, FIRST_EXAMPLE } = await bundledGraphs
  const db = new SuperstepDb()
  // A database this version cannot read (a newer version's, or blocked) is said once, whole
  // page, before anything (the worker included) opens it.
  const problem = await openProblem(db)
  if (problem) {
    createRoot(root).render(<StartupError {...problem} />)
    return
  }
  const repo = new GraphRepository(db)
  // The runtime (its worker, then a sandbox frame: each a thread, the frame a process) starts
  // once the first graph is drawn, not beside it: on two cores its start took the CPU that
  // drawing needed. Nothing it answers is on those frames (the store's requests wait for it),
  // and on a return visit the timeline shows as soon as before.
  let startRuntime = () => {}
  const graphDrawn = new Promise<void>((resolve) => (startRuntime = resolve))
  const started: Promise<RuntimeRequests> = graphDrawn.then(async () => {
    const runtime = await (await runtimeStarter).createRuntime()
    return runtime.client
  })
  // A runtime that cannot start is said as before: the page's error, and each request fails.
  started.catch((e: unknown) => reportError(e))
  // The code editor (Monaco: its chunk takes a quarter of a second to run on two cores) is
  // fetched and run once the page has settled (the runtime started, the open thread read, a
  // couple of seconds on) and is idle, not on the first node selected: that click shows the
  // editor at once, and a drag that starts it is not held up.
  void started.then(
    () =>
      setTimeout(
        () =>
          whenIdle(() =>
            import('./ui/editor/CodeEditor')
              .then((m) => m.preloadCodeEditor())
              .catch(() => undefined),
          ),
        EDITOR_AFTER_MS,
      ),
    () => undefined, // said above; the editor loads when first shown
  )
  const store = createAppStore({
    client: new DeferredRuntimeClient(started),
    graphs: {
      list: () => repo.list(),
      listBin: () => repo.listBin(),
      library: () => repo.library(),
      get: (id) => repo.get(id),
      save: async (e) => void (await repo.save(e, systemEnv.now())),
      saveOver: async (e, baseRev) => {
        const r = await repo.saveOver(e, baseRev, systemEnv.now())
        return r.ok ? { ok: true, rev: r.row.rev ?? 0, updatedAt: r.row.updatedAt } : r
      },
      trust: (id) => repo.trust(id),
      setAllowNetwork: (id, allowed) => repo.setAllowNetwork(id, allowed),
      saveInput: (id, input) => repo.saveInput(id, input),
      bin: (id) => repo.bin(id, systemEnv.now()),
      restore: (id) => repo.restore(id),
      delete: (id) => repo.delete(id),
    },
    bus: broadcastBus(),
    journal: localJournal(systemEnv.newId()),
    threadLockHeld,
    localEditsPending: draftsPending,
    storageUse: async () => {
      const e = await navigator.storage.estimate()
      return { usage: e.usage ?? 0, quota: e.quota ?? 0 }
    },
    examples: [
      {
        id: 'example-counter',
        name: FIRST_EXAMPLE.name,
        doc: FIRST_EXAMPLE.doc,
        trusted: true,
        allowNetwork: false,
      },
    ],
    templates: TEMPLATES,
    newId: systemEnv.newId,
  })
  const page = createRoot(root)
  page.render(
    <StrictMode>
      <StoreContext.Provider value={store}>
        <App />
      </StoreContext.Provider>
    </StrictMode>,
  )
  // Another tab opened a newer Superstep, which upgrades the database: this tab's connections
  // (the page's and the worker's) close so that the upgrade can go on, and nothing here could
  // read or save from then on. Said at once, whole page; a reload runs the newer version, and
  // edits not saved yet come back from the tab's journal.
  db.on('versionchange', (event: IDBVersionChangeEvent) => {
    const deleted = !event.newVersion
    const title = deleted
      ? "Superstep's data in this browser was deleted"
      : 'Superstep was updated in another tab'
    page.render(
      <StartupError
        label={title}
        title={title}
        detail={
          deleted
            ? 'Another tab, or the browser, deleted the data this browser kept for Superstep, so this tab can no ' +
              'longer read or save it. Reload to start again.'
            : 'A newer version of Superstep opened in another tab and upgraded the data this browser keeps for it, ' +
              'so this tab can no longer read or save it. Reload to go on with the newer version: your saved graphs ' +
              'and threads are kept, and edits this tab had not saved yet come back.'
        }
        reload
      />,
    )
  })
  // The frame that draws the graph, then the one that shows its measured nodes, then a task;
  // or a second, in a tab opened in the background (it draws no frames).
  const drawn = () => {
    requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(startRuntime)))
    setTimeout(startRuntime, 1000)
  }
  const unsubscribe = store.subscribe((s) => {
    if (!s.current) return
    unsubscribe()
    drawn()
  })
  try {
    await store.getState().init()
  } finally {
    // No graph to open (or the start failed): the runtime starts all the same.
    unsubscribe()
    drawn()
  }
}

/** How long after the runtime's start the code editor is fetched (see `main`). */
const EDITOR_AFTER_MS = 2000

/** `f` when the page is next idle (at the latest in 10 s); in a second where that is not known. */
function whenIdle(f: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(f, { timeout: 10_000 })
  else setTimeout(f, 1000)
}

void main()
