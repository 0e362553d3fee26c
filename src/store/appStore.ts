import { temporal } from 'zundo'
import { createStore, type StoreApi } from 'zustand/vanilla'
import type { GraphIssue } from '../core/graph/issues'
import { levelOf } from '../core/graph/levels'
import type { WorkerEvent } from '../worker/protocol'
import type {
  AppActions,
  AppDeps,
  AppState,
  ShellActions,
  ShellState,
  SliceContext,
} from './appTypes'
import {
  createDebugSlice,
  INITIAL_DEBUG_STATE,
  RESET_VIEW,
  TIMELINE_PAGE,
  type DebugHost,
} from './debugSlice'
import { createDocumentSlice, deriveDocument, INITIAL_DOCUMENT } from './documentSlice'
import { attachDocSync, type DocSync } from './docSync'
import { EMPTY_SELECTION } from './documents'
import { attachRunPresence } from './runPresence'
import { createLibrarySlice, INITIAL_LIBRARY } from './librarySlice'
import { loadModelKeys } from './modelKeys'
import { createRunSlice, INITIAL_RUN, liveInnerOf, onRunEvent, threadWarnings } from './runSlice'
import { createStreamSlice, INITIAL_STREAM, withStreamChunks } from './streamSlice'
import { createSettingsSlice, followRunSettings, initialSettings } from './settingsSlice'
import { loadView, withGraphView, saveView, type GraphView } from './viewMemory'
import { createNavigation } from './navigation'

export type {
  AppActions,
  AppDeps,
  AppState,
  GraphEntry,
  GraphsPort,
  RunState,
  RunWarning,
  Template,
} from './appTypes'
export { selectCanRun, selectReadOnly } from './runSlice'

/** While a run goes, the timeline shows only its newest checkpoints (cheap to read often). */
const LIVE_HISTORY = 20
/** The shortest wait between two of the timeline's reads while a run goes. */
const LIVE_REFRESH_MS = 500

const INITIAL_SHELL: ShellState = {
  current: null,
  graphId: null,
  graphReadOnly: false,
  threadId: '',
  message: null,
}

export type AppStore = ReturnType<typeof createAppStore>

/**
 * The app's state and the actions the UI calls, made of slices (library, document, run,
 * settings, debug) around the shell: the open graph, its compile in the worker and its
 * thread. Each slice has one initial value, which opening a graph puts back. The store talks
 * to the worker only through the client.
 */
export function createAppStore(deps: AppDeps) {
  const { client, graphs } = deps
  // The compiled graph belongs to one version of the document; an edit makes it stale.
  let compiledDoc: unknown = undefined
  // Timeline reads overlap (a live refresh and a run's end): only the newest one is shown.
  let historyReads = 0

  /** A thread found waiting: its pending interrupt()s, so the Interrupt tab can answer them. */
  const showPendingInterrupts = async (graphId: string, threadId: string, next: string[]) => {
    const pending = await client.request('pendingInterrupts', { graphId, threadId }).catch(() => [])
    const s = store.getState()
    if (s.threadId !== threadId || s.runState !== 'interrupted' || s.interrupts.length > 0) return
    if (pending.length)
      store.setState({ interrupts: pending, pausedBy: { reason: 'interrupt', next } })
  }
  // The document's saving (bound once the store exists).
  let sync: DocSync | null = null
  const history = (): HistoryState => (store as unknown as HistoryApi).temporal.getState()
  const store = createStore<AppState & AppActions>()(
    temporal(
      (set, get) => {
        const threadOf = (id: string) => `${id}:main`
        const navigation = createNavigation()

        const compile = async () => {
          const { current: g, doc } = get()
          if (!g) return set({ graphId: null, graphReadOnly: false })
          if (compiledDoc === doc && get().graphId) return
          const previous = get().graphId
          // An untrusted graph's code is never checked; a graph that fails its compile is
          // compiled for reading only: its threads' history still shows, and nothing runs.
          const r = g.trusted
            ? await client.request('compile', {
                graph: doc,
                options: { allowNetwork: g.allowNetwork },
              })
            : null
          const graphId = r?.ok
            ? r.graphId
            : ((await client.request('compileForReading', { graph: doc }).catch(() => null))
                ?.graphId ?? null)
          const compiled = { graphId, graphReadOnly: graphId !== null && !r?.ok }
          // Another graph opened meanwhile: the compile is not its, so it is let go. An edit
          // meanwhile keeps it: a run compiles the newer doc first.
          if (get().current?.id !== g.id) {
            if (graphId) void client.request('releaseGraph', { graphId }).catch(() => undefined)
            return
          }
          if (previous)
            void client.request('releaseGraph', { graphId: previous }).catch(() => undefined)
          compiledDoc = doc
          // Edited meanwhile (a compile answered late, say while the worker was starting): the
          // problems shown are the newer document's, worked out as it changed.
          if (get().doc !== doc || !r) return set(compiled)
          set({ ...compiled, issues: r.issues as GraphIssue[] })
        }

        const ctx: SliceContext = {
          set: (p) => set(p),
          get,
          deps,
          compile,
          compiled: () => compiledDoc === get().doc,
          settleSaves: async () => await sync?.settled(),
          forgetGraph: (id) => sync?.forget(id),
          navigation,
          open: (id) => openGraph(id),
        }

        const debug = createDebugSlice(
          (p) => set(p as Partial<AppState>),
          () => get() as unknown as DebugHost,
          client,
          deps.newId,
          (graph) => deps.bus?.post({ type: 'threadsChanged', graph }),
          navigation,
        )

        /**
         * Puts back the thread, checkpoint and selection the graph had before the reload: a
         * move of its own (see `navigation.ts`), after the graph's opening; a move the user
         * asked for before it has changed what it checks, and one asked after it comes next.
         */
        const restoreView = async (id: string, view: GraphView | undefined) => {
          if (!view) return
          // Whatever the user did meanwhile (another thread, checkpoint or node) wins.
          const { threads, threadId: opened } = get()
          const untouched = () =>
            get().current?.id === id &&
            get().selectedCheckpointId === null &&
            get().selection.nodes.length === 0 &&
            get().selection.edges.length === 0
          if (
            view.thread &&
            view.thread !== opened &&
            threads.some((t) => t.threadId === view.thread)
          ) {
            if (!untouched() || get().threadId !== opened) return
            await debug.switchNow(view.thread)
          }
          const expected =
            view.thread && threads.some((t) => t.threadId === view.thread) ? view.thread : opened
          const checkpoint = view.checkpoint
          if (
            checkpoint &&
            untouched() &&
            get().threadId === expected &&
            get().timeline.some((t) => t.checkpointId === checkpoint)
          )
            await get().selectCheckpoint(checkpoint)
          // The subgraph open before, if it is still there (its selection is its own).
          const spec = get().spec
          const level =
            spec && Array.isArray(view.level) && view.level.every((n) => typeof n === 'string')
              ? levelOf(spec, view.level)
              : null
          if (level && untouched() && get().level.length === 0) get().openLevel(level.path)
          const nodes = new Set(level?.spec.nodes.map((n) => n.id) ?? spec?.nodes.map((n) => n.id))
          const kept = (view.selection?.nodes ?? []).filter((n) => nodes.has(n))
          if (kept.length && get().current?.id === id && get().selection.nodes.length === 0)
            set({ selection: { nodes: kept, edges: [] } })
        }

        /** Opens a graph: the move itself, made by a move (see `navigation.ts`). */
        const openGraph = async (id: string) => {
          await get().leaveRun()
          // The graph left is compiled no more: the worker lets it go.
          const left = get().graphId
          if (left) void client.request('releaseGraph', { graphId: left }).catch(() => undefined)
          const g = get().graphs.find((x) => x.id === id) ?? null
          history().pause() // opening a graph is not an edit
          // Every slice but the library and the settings starts again from its initial value.
          set({
            ...INITIAL_DOCUMENT,
            ...(g && { doc: g.doc, input: g.input ?? '{}', ...deriveDocument(g.doc) }),
            ...RESET_VIEW,
            threads: [],
            ...INITIAL_RUN,
            conflict: null,
            runningElsewhere: false,
            current: g,
            graphId: null,
            graphReadOnly: false,
            threadId: g ? threadOf(g.id) : '',
          })
          history().clear()
          history().resume()
          compiledDoc = undefined
          await compile()
          // The thread used last opens again.
          await get().refreshThreads({ openLatest: true })
          await get().refreshHistory()
        }

        const shell: ShellActions = {
          async init() {
            // The worker keeps keys in memory only: send the saved ones before anything runs
            // (requests reach it in order). Not awaited: the library and the open graph are
            // read and drawn while the worker may still be starting.
            void client.request('setModelKeys', { keys: loadModelKeys() }).catch(() => undefined)
            let { graphs: list, bin } = await graphs.library()
            if (list.length === 0) {
              for (const e of deps.examples) await graphs.save(e)
              ;({ graphs: list, bin } = await graphs.library())
            }
            set({ bin })
            // A graph opened while the page started (a template clicked early) stays open.
            if (get().current) return set({ graphs: (await graphs.library()).graphs })
            set({ graphs: list })
            // The graph open before the reload opens again; else the most recent.
            const remembered = loadView()
            const first = list.find((g) => g.id === remembered.graph) ?? list[0]
            if (!first) return
            // Only the first graph of a page load gets its thread, checkpoint and selection
            // back (read before opening it resets the view): later, the user's own clicks
            // decide (a late restore would fight them).
            const view = remembered.graphs[first.id]
            // Queued together: a thread the user picks while the graph opens (the picker
            // lists the threads before the opening ends) comes after the restore, and wins.
            const opening = get().select(first.id)
            const restoring = navigation.go(async () => {
              if (get().current?.id === first.id) await restoreView(first.id, view)
            })
            try {
              await opening
            } finally {
              await restoring
            }
          },

          // The graph open when the move's turn comes stays as it is (its view, its checkpoint):
          // asked while another graph was on its way (a new one being made), it opens again.
          select: (id) =>
            navigation.go(async () => (get().current?.id === id ? undefined : openGraph(id))),

          async trustCurrent() {
            const g = get().current
            if (!g) return
            await graphs.trust(g.id)
            const list = await graphs.list()
            set({ graphs: list, current: list.find((x) => x.id === g.id) ?? null })
            compiledDoc = undefined // compiled for reading only until now
            await compile()
            // Its history can be read now (an imported thread, say).
            await get().refreshThreads()
            await get().refreshHistory()
          },

          async setAllowNetwork(allowed) {
            const g = get().current
            if (!g || !g.trusted) return
            const updated = { ...g, allowNetwork: allowed }
            set({ current: updated }) // at once, so the checkbox follows the click
            await graphs.setAllowNetwork(g.id, allowed)
            const list = await graphs.list()
            set({ graphs: list, current: list.find((x) => x.id === g.id) ?? null })
            compiledDoc = undefined // the network mode is part of the compile
            await compile()
          },

          async refreshHistory(limit = TIMELINE_PAGE) {
            const mine = ++historyReads
            const { graphId, threadId } = get()
            if (!graphId) return set({ timeline: [], inspection: null, diff: null })
            const fresh = await client.request('getTimeline', { graphId, threadId, limit })
            if (get().threadId !== threadId || mine !== historyReads) return
            // A live refresh reads only the newest few: the older ones are kept.
            const old = get().timeline
            const ids = new Set(fresh.map((t) => t.checkpointId))
            const timeline =
              fresh.length < limit || old.length === 0
                ? fresh
                : [...fresh, ...old.filter((t) => !ids.has(t.checkpointId))]
            const latest = timeline[0]
            const selected = get().selectedCheckpointId
            // A subgraph's checkpoint stays selected (the root's list does not hold it).
            const gone =
              selected && !get().selectedNs && !timeline.some((t) => t.checkpointId === selected)
            await get().refreshInspection(
              {
                timeline,
                ...(gone && { selectedCheckpointId: null }),
                ...(limit >= TIMELINE_PAGE && { olderAvailable: fresh.length === limit }),
              },
              () => mine === historyReads,
            )
            if (get().threadId === threadId && mine === historyReads) {
              // A live refresh comes twice a second: the list changes only when a warning does.
              const kept = get().runWarnings
              const now = threadWarnings(get().timeline, kept)
              if (JSON.stringify(now) !== JSON.stringify(kept)) set({ runWarnings: now })
            }
            // After a reload a thread with a pending `next` shows as interrupted at its last
            // checkpoint. Read now, not before the reads above: a run may have ended meanwhile,
            // and a status from before it must not overwrite its end.
            if (get().runState === 'idle' && latest && get().threadId === threadId) {
              set({ runState: latest.next.length ? 'interrupted' : 'done' })
              // Waiting at an interrupt() (a reload, another thread opened): what it asks.
              if (latest.next.length) await showPendingInterrupts(graphId, threadId, latest.next)
            }
          },

          dismissMessage() {
            set({ message: null })
          },

          async resolveConflict(choice) {
            await sync?.resolve(choice)
          },
        }

        return {
          ...INITIAL_LIBRARY,
          templates: deps.templates ?? [],
          ...INITIAL_DOCUMENT,
          ...INITIAL_RUN,
          ...initialSettings(),
          ...INITIAL_SHELL,
          ...INITIAL_DEBUG_STATE,
          ...INITIAL_STREAM,
          ...shell,
          ...createLibrarySlice(ctx),
          ...createDocumentSlice(ctx, history),
          ...createRunSlice(ctx),
          ...createStreamSlice(set, get, client),
          ...createSettingsSlice(ctx),
          ...debug.actions,
        }
      },
      {
        partialize: (s) => ({ doc: s.doc }),
        equality: (a, b) => a.doc === b.doc,
        limit: 500,
      },
    ),
  )

  // Every change of the document, an undo included: its spec and problems, worked out once
  // here for every view.
  store.subscribe((s, prev) => {
    if (s.doc !== prev.doc && s.current?.id === prev.current?.id) {
      const derived = deriveDocument(s.doc)
      // A subgraph gone from the document (an undo, another tab's change): the root shows.
      const gone = s.level.length > 0 && !(derived.spec && levelOf(derived.spec, s.level))
      store.setState(gone ? { ...derived, level: [], selection: EMPTY_SELECTION } : derived)
    }
  })

  // Every change of the document, an undo included: saved (over this tab's revision, merged
  // with other tabs'), journaled until it is.
  sync = attachDocSync(store, deps, {
    // Another tab's change taken in: not an undo step of this tab's, and every state the undo
    // history holds gets it too (`rebase`), so Undo never takes it back out.
    adopt(doc, rebase) {
      const t = (store as unknown as HistoryApi).temporal
      const { pastStates, futureStates } = t.getState()
      t.setState({
        pastStates: pastStates.map((p) => ({ ...p, doc: rebase(p.doc) })),
        futureStates: futureStates.map((p) => ({ ...p, doc: rebase(p.doc) })),
      })
      history().pause()
      store.setState({ doc })
      history().resume()
    },
  })
  attachRunPresence(store, deps)

  // The open thread's run settings follow it: opening another thread (or its list arriving)
  // shows the recursion limit and timeout kept with it.
  store.subscribe((s, prev) => {
    if (s.threadId === prev.threadId && s.threads === prev.threads) return
    const next = followRunSettings(s)
    if (next) store.setState(next)
  })

  // Where the user is, remembered for the next load (view state only, never their work).
  store.subscribe((s, prev) => {
    const id = s.current?.id
    if (!id) return
    if (
      id === prev.current?.id &&
      s.threadId === prev.threadId &&
      s.selectedCheckpointId === prev.selectedCheckpointId &&
      s.selection === prev.selection &&
      s.level === prev.level
    )
      return
    saveView(
      withGraphView(loadView(), id, {
        thread: s.threadId,
        checkpoint: s.selectedCheckpointId,
        selection: s.selection,
        ...(s.level.length > 0 && { level: s.level }),
      }),
    )
  })

  client.on((e: WorkerEvent) => onRunEvent(store, e))
  // The timeline follows a run as it goes: one history read at a time, at most two a second,
  // and spaced by five times what the last one took, so that the reads of a big graph (20
  // states of 2,000 channels and the inspection of one) take at most a sixth of the worker's
  // time from the run they watch.
  let refreshing: ReturnType<typeof setTimeout> | 'reading' | null = null
  let refreshDelay = LIVE_REFRESH_MS
  /** A checkpoint was saved while a read went: another read follows it. */
  let missed = false
  const scheduleRefresh = () => {
    refreshing = setTimeout(() => {
      refreshing = 'reading'
      const started = performance.now()
      store
        .getState()
        .refreshHistory(LIVE_HISTORY)
        .catch((e: unknown) => {
          // A client closed under the refresh has nothing to show it to.
          if ((e as { code?: string }).code !== 'DISPOSED')
            store.setState({ message: `Could not read the timeline: ${(e as Error).message}` })
        })
        .finally(() => {
          refreshing = null
          refreshDelay = Math.max(LIVE_REFRESH_MS, 5 * (performance.now() - started))
          if (missed) {
            missed = false
            scheduleRefresh()
          }
        })
    }, refreshDelay)
  }
  client.onBatch((events) => {
    const threadId = store.getState().threadId
    // A watched run's stream chunks, for the Stream tab.
    if (store.getState().streamWatched) {
      const chunks = withStreamChunks(store.getState().streamChunks, events, threadId)
      if (chunks) store.setState({ streamChunks: chunks })
    }
    // The subgraph whose step is under way, for the canvas to light its nodes.
    const inner = liveInnerOf(events, threadId)
    const was = store.getState().liveInner
    if (inner !== undefined && JSON.stringify(inner) !== JSON.stringify(was))
      store.setState({ liveInner: store.getState().runState === 'running' ? inner : null })
    if (!events.some((e) => e.type === 'checkpoint_saved' && e.threadId === threadId)) return
    if (refreshing === 'reading') missed = true
    else if (!refreshing) scheduleRefresh()
  })
  return store
}

interface HistoryState {
  undo(): void
  redo(): void
  clear(): void
  pause(): void
  resume(): void
}

interface HistoryApi {
  temporal: StoreApi<
    HistoryState & { pastStates: { doc: unknown }[]; futureStates: { doc: unknown }[] }
  >
}
