import { temporal } from 'zundo'
import { createStore, type StoreApi } from 'zustand/vanilla'
import type { TaskLog } from '../core/compile/host'
import type { GraphEdit } from '../core/graph/edits'
import type { GraphIssue } from '../core/graph/issues'
import {
  EMPTY_SELECTION,
  editDocument,
  exportFileName,
  exportText,
  issuesOf,
  type DocumentState,
  type Selection,
} from './documents'
import {
  createDebugSlice,
  INITIAL_DEBUG_STATE,
  RESET_VIEW,
  TIMELINE_PAGE,
  type DebugActions,
  type DebugHost,
  type DebugState,
} from './debugSlice'
import type { RuntimeClient } from '../worker/client'
import type { RunPause } from './runStatus'
import { uniqueName } from './uniqueName'
import { loadView, saveView, withGraphView, type GraphView } from './viewMemory'
import { loadModelKeys, saveModelKeys, type ModelKeys } from './modelKeys'
import type {
  InterruptInfo,
  Json,
  RunMode,
  RunOutcome,
  RunParams,
  WorkerError,
  WorkerEvent,
} from '../worker/protocol'

/** A graph document as the store knows it (what the graphs table holds). */
export interface GraphEntry {
  id: string
  name: string
  doc: unknown
  trusted: boolean
  allowNetwork: boolean
  /** When it was last saved (ISO-8601), as listed. */
  updatedAt?: string
  /** The run input last typed for this graph (JSON text); a template's first input. */
  input?: string
}

/** Saves and lists graph documents (the persistence layer's GraphRepository). */
export interface GraphsPort {
  list(): Promise<GraphEntry[]>
  save(entry: GraphEntry): Promise<void>
  trust(id: string): Promise<void>
  /** Keeps the graph's run input, without counting as a change of the graph. */
  saveInput(id: string, input: string): Promise<void>
  delete(id: string): Promise<void>
}

/** While a run goes, the timeline shows only its newest checkpoints (cheap to read often). */
const LIVE_HISTORY = 20

export type RunState = 'idle' | 'running' | 'paused' | 'interrupted' | 'done' | 'failed' | 'stopped'

export interface AppState extends DocumentState, DebugState {
  graphs: GraphEntry[]
  /** The open graph's entry (its `doc` is the last saved one; `doc` is the live one). */
  current: GraphEntry | null
  issues: GraphIssue[]
  /** The runtime worker's id for the current document, once compiled. */
  graphId: string | null
  threadId: string
  input: string
  /** Super-steps a run may take (LangGraph's recursionLimit). */
  recursionLimit: number
  runState: RunState
  /** Why the run last stopped advancing, as the worker reported it (null: not paused by a run). */
  pausedBy: RunPause | null
  /** A run that can be continued in place (paused at a step or a pause request). */
  resumable: boolean
  error: WorkerError | null
  interrupts: InterruptInfo[]
  /** What node code logged, newest last: each call's arguments as plain data (see TaskLog). */
  logs: { node: string; level: TaskLog['level']; args: unknown[]; text: string }[]
  /** What the runtime warned about during this thread's runs (a write to a key that is no field, …). */
  runWarnings: RunWarning[]
  message: string | null
  /** The graph deleted last, so the user can bring it back. */
  lastDeleted?: GraphEntry | null
  /** The problems of a file that was refused on import. */
  importProblems: { fileName: string; issues: GraphIssue[] } | null
  /** The state field row to show and focus (a clicked problem); `seq` tells clicks apart. */
  fieldFocus: { index: number; seq: number } | null
  /** The run drawer's tab (kept across reloads). */
  drawerTab: string
}

/** A runtime warning of a run, with the super-step it happened in. */
export interface RunWarning {
  step: number
  code: string
  node?: string
  message: string
}

export interface AppActions extends DebugActions {
  init(): Promise<void>
  setDrawerTab(tab: string): void
  select(id: string): Promise<void>
  importDocument(text: string, fileName: string): Promise<void>
  trustCurrent(): Promise<void>
  /** The graph's owner lets its code nodes reach the network (never on for an import). */
  setAllowNetwork(allowed: boolean): Promise<void>
  setInput(text: string): void
  setRecursionLimit(limit: number): void
  run(): Promise<void>
  step(): Promise<void>
  stop(): Promise<void>
  /** Asks the advancing run to pause at the next barrier. */
  pause(): Promise<void>
  resume(valueText: string): Promise<void>
  /** Opens a thread file: its graph as a new (untrusted) graph, its checkpoints as a thread. */
  importThread(text: string, fileName: string): Promise<void>
  /** Starts a run on the current thread (Run, Step, replays, resumes). */
  startRun(mode: RunMode, extra?: Partial<RunParams>): Promise<void>
  /** Forgets the run status (another thread is shown). */
  resetRun(): void
  /** Reloads the thread's newest `limit` checkpoints (default 200). */
  refreshHistory(limit?: number): Promise<void>
  /** Applies an edit to the open document (autosaved; undoable). */
  edit(edit: GraphEdit): void
  setSelection(selection: Selection): void
  /** Clears the selection, so the inspector shows the state schema, and focuses `state[index]`. */
  focusField(index: number): void
  undo(): void
  redo(): void
  /** A new graph, empty or from a template's document; `input` is its first run input (JSON text). */
  newGraph(templateDoc?: unknown, name?: string, input?: string): Promise<void>
  renameGraph(name: string): Promise<void>
  duplicateGraph(): Promise<void>
  deleteGraph(): Promise<void>
  /** Brings back the graph deleted last. */
  restoreDeleted(): Promise<void>
  /** The open document as a file to download. */
  exportCurrent(): { fileName: string; text: string } | null
  dismissImportProblems(): void
  /** Clears the message line (what the last action said). */
  dismissMessage(): void
  /** Saves the chat-model API keys (base URL → key) locally and hands them to the worker. */
  setModelKeys(keys: ModelKeys): Promise<void>
}

export type AppStore = ReturnType<typeof createAppStore>

export interface AppDeps {
  client: RuntimeClient
  graphs: GraphsPort
  /** Bundled graphs, saved (trusted) on first start. */
  examples: GraphEntry[]
  newId: () => string
}

/** The app's state and the actions the UI calls; it talks to the worker only through the client. */
export function createAppStore(deps: AppDeps) {
  const { client, graphs } = deps
  // The compiled graph belongs to one version of the document; an edit makes it stale.
  let compiledDoc: unknown = undefined
  // Timeline reads overlap (a live refresh and a run's end): only the newest one is shown.
  let historyReads = 0
  const history = () => (store as unknown as HistoryApi).temporal.getState()
  const store = createStore<AppState & AppActions>()(
    temporal(
      (set, get) => {
        const threadOf = (g: GraphEntry) => `${g.id}:main`
        let restoring = false

        /** Puts back the thread, checkpoint and selection the graph had before the reload. */
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
            await get().switchThread(view.thread)
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
          const doc = get().doc as { nodes?: { id: string }[] } | null
          const nodes = new Set(doc?.nodes?.map((n) => n.id))
          const kept = (view.selection?.nodes ?? []).filter((n) => nodes.has(n))
          if (kept.length && get().current?.id === id && get().selection.nodes.length === 0)
            set({ selection: { nodes: kept, edges: [] } })
        }

        const compileCurrent = async () => {
          const { current: g, doc } = get()
          if (!g || !g.trusted) return set({ graphId: null })
          if (compiledDoc === doc && get().graphId) return
          const previous = get().graphId
          const r = await client.request('compile', {
            graph: doc,
            options: { allowNetwork: g.allowNetwork },
          })
          // Another graph opened meanwhile: the compile is not its, so it is let go. An edit
          // meanwhile keeps it: a run compiles the newer doc first.
          if (get().current?.id !== g.id) {
            if (r.ok)
              void client.request('releaseGraph', { graphId: r.graphId }).catch(() => undefined)
            return
          }
          if (previous)
            void client.request('releaseGraph', { graphId: previous }).catch(() => undefined)
          compiledDoc = doc
          set({ graphId: r.ok ? r.graphId : null, issues: r.issues as GraphIssue[] })
        }

        const finish = async (outcome: RunOutcome) => {
          if (outcome.status === 'done') set({ runState: 'done', resumable: false })
          else if (outcome.status === 'failed')
            set({ runState: 'failed', resumable: false, error: outcome.error })
          else if (outcome.status === 'stopped') set({ runState: 'stopped', resumable: false })
          else {
            const inPlace = outcome.reason === 'step' || outcome.reason === 'pause'
            set({
              pausedBy: { reason: outcome.reason, next: outcome.next },
              runState:
                outcome.reason === 'interrupt' || outcome.reason === 'breakpoint'
                  ? 'interrupted'
                  : 'paused',
              resumable: inPlace,
              interrupts: outcome.interrupts,
            })
          }
          await get().refreshHistory()
          await get().refreshThreads()
        }

        const start = async (mode: RunParams['mode'], extra: Partial<RunParams> = {}) => {
          if (compiledDoc !== get().doc) await compileCurrent()
          const { graphId, threadId, input, timeline, recursionLimit, timeoutMs } = get()
          // A replay or a resume starts a new run; only a plain Run/Step continues in place.
          const resumable = get().resumable && extra.checkpointId === undefined && !extra.command
          if (!graphId) return set({ error: cannotRun(get().current, get().issues) })
          // A finished thread runs again from the input: say so, or Step seems to go backwards.
          const restarts =
            !resumable && !extra.command && extra.checkpointId === undefined && timeline.length > 0
          const finished = restarts && (timeline[0]?.next.length ?? 0) === 0
          set({
            runState: 'running',
            pausedBy: null,
            error: null,
            message: finished
              ? `The thread had finished, so ${mode === 'step' ? 'Step' : 'Run'} starts a new run from the input.`
              : null,
            selectedCheckpointId: null,
            ...(finished && { runWarnings: [] }),
          })
          try {
            if (resumable) return await finish(await client.request('continue', { threadId, mode }))
            // A thread with history continues (resume, retry); a fresh one starts from the input.
            const fresh = timeline.length === 0 || (timeline[0]?.next.length ?? 0) === 0
            const value = fresh ? (JSON.parse(input || '{}') as Json) : null
            const params: RunParams = {
              graphId,
              threadId,
              input: value,
              mode,
              recursionLimit,
              ...(timeoutMs > 0 && { timeoutMs }),
              ...extra,
            }
            await finish(await client.request('run', params))
          } catch (e) {
            set({ runState: 'failed', resumable: false, error: toWorkerError(e) })
            await get().refreshHistory()
          }
        }
        const debug = createDebugSlice(
          (p) => set(p as Partial<AppState>),
          () => get() as unknown as DebugHost,
          client,
          deps.newId,
        )

        return {
          graphs: [],
          current: null,
          issues: [],
          graphId: null,
          threadId: '',
          input: '{}',
          recursionLimit: 25,
          runState: 'idle',
          pausedBy: null,
          resumable: false,
          error: null,
          interrupts: [],
          logs: [],
          runWarnings: [],
          message: null,
          importProblems: null,
          fieldFocus: null,
          drawerTab: loadView().tab ?? 'Channels',
          ...INITIAL_DEBUG_STATE,
          ...debug,
          doc: null,
          selection: EMPTY_SELECTION,
          editError: null,
          saveState: 'saved',

          async init() {
            // The worker keeps keys in memory only: send the saved ones before anything runs.
            await client.request('setModelKeys', { keys: loadModelKeys() }).catch(() => undefined)
            let list = await graphs.list()
            if (list.length === 0) {
              for (const e of deps.examples) await graphs.save(e)
              list = await graphs.list()
            }
            // A graph opened while the page started (a template clicked early) stays open.
            if (get().current) return set({ graphs: await graphs.list() })
            set({ graphs: list })
            // The graph open before the reload opens again; else the most recent.
            const remembered = loadView().graph
            const first = list.find((g) => g.id === remembered) ?? list[0]
            // Only the first graph of a page load gets its thread, checkpoint and selection
            // back: later, the user's own clicks decide (a late restore would fight them).
            restoring = true
            try {
              if (first) await get().select(first.id)
            } finally {
              restoring = false
            }
          },

          setDrawerTab(tab) {
            set({ drawerTab: tab })
            saveView({ ...loadView(), tab })
          },

          async setModelKeys(keys) {
            saveModelKeys(keys)
            await client.request('setModelKeys', { keys })
          },

          async select(id) {
            const g = get().graphs.find((x) => x.id === id) ?? null
            // Where the user was in this graph, read before opening it resets the view.
            const view = loadView().graphs[id]
            history().pause() // opening a graph is not an edit
            set({
              current: g,
              doc: g?.doc ?? null,
              input: g?.input ?? '{}',
              selection: EMPTY_SELECTION,
              fieldFocus: null,
              editError: null,
              issues: g ? issuesOf(g.doc) : [],
              threadId: g ? threadOf(g) : '',
              ...RESET_VIEW,
              threads: [],
              runState: 'idle',
              pausedBy: null,
              resumable: false,
              error: null,
              interrupts: [],
              logs: [],
              runWarnings: [],
            })
            history().clear()
            history().resume()
            compiledDoc = undefined
            set({ graphId: null })
            await compileCurrent()
            // The thread used last opens again.
            await get().refreshThreads({ openLatest: true })
            await get().refreshHistory()
            if (restoring && get().current?.id === id) await restoreView(id, view)
          },

          async importDocument(text, fileName) {
            let doc: unknown
            try {
              doc = JSON.parse(text)
            } catch (e) {
              return set({ message: `${fileName} is not JSON: ${(e as Error).message}` })
            }
            if (typeof (doc as { superstepThread?: unknown })?.superstepThread === 'number')
              return get().importThread(text, fileName)
            const given =
              typeof (doc as { name?: unknown })?.name === 'string'
                ? (doc as { name: string }).name
                : fileName
            const issues = issuesOf(doc)
            if (issues.some((i) => i.severity === 'error')) {
              // A file that fails validation changes nothing; its problems are shown instead.
              return set({ importProblems: { fileName, issues } })
            }
            const name = uniqueName(
              given,
              get().graphs.map((g) => g.name),
            )
            if (name !== given) doc = { ...(doc as object), name }
            // Imported documents are someone else's code: nothing in them runs until trusted.
            const entry: GraphEntry = {
              id: deps.newId(),
              name,
              doc,
              trusted: false,
              allowNetwork: false,
            }
            await graphs.save(entry)
            set({ graphs: await graphs.list(), importProblems: null })
            await get().select(entry.id)
            set({ message: `Imported ${name}.` })
          },

          async trustCurrent() {
            const g = get().current
            if (!g) return
            await graphs.trust(g.id)
            const list = await graphs.list()
            set({ graphs: list, current: list.find((x) => x.id === g.id) ?? null })
            await compileCurrent()
            // Its history can be read now (an imported thread, say).
            await get().refreshThreads()
            await get().refreshHistory()
          },

          async setAllowNetwork(allowed) {
            const g = get().current
            if (!g || !g.trusted) return
            const updated = { ...g, allowNetwork: allowed }
            set({ current: updated }) // at once, so the checkbox follows the click
            await graphs.save(updated)
            const list = await graphs.list()
            set({ graphs: list, current: list.find((x) => x.id === g.id) ?? null })
            compiledDoc = undefined // the network mode is part of the compile
            await compileCurrent()
          },

          setInput(text) {
            const { current } = get()
            if (!current) return set({ input: text })
            const list = get().graphs.map((g) => (g.id === current.id ? { ...g, input: text } : g))
            set({ input: text, current: { ...current, input: text }, graphs: list })
            graphs
              .saveInput(current.id, text)
              .catch((e: unknown) =>
                set({ message: `Saving the input failed: ${(e as Error).message}` }),
              )
          },

          setRecursionLimit(limit) {
            if (Number.isInteger(limit) && limit > 0) set({ recursionLimit: limit })
          },

          run: () => start('toEnd'),
          step: () => start('step'),
          startRun: (mode, extra) => start(mode, extra),

          resetRun() {
            set({
              runState: 'idle',
              pausedBy: null,
              resumable: false,
              error: null,
              interrupts: [],
              logs: [],
              runWarnings: [],
            })
          },

          async stop() {
            await client.request('stop', { threadId: get().threadId })
          },

          async pause() {
            if (get().runState === 'running')
              await client.request('pause', { threadId: get().threadId })
          },

          async importThread(text, fileName) {
            let file: { graph?: unknown; name?: unknown; threadId?: unknown }
            try {
              file = JSON.parse(text) as typeof file
            } catch (e) {
              return set({ message: `${fileName} is not JSON: ${(e as Error).message}` })
            }
            const issues = issuesOf(file.graph)
            if (issues.some((i) => i.severity === 'error'))
              return set({ importProblems: { fileName, issues } })
            const graph = file.graph as { name?: string }
            const name = typeof graph.name === 'string' ? graph.name : fileName
            const entry: GraphEntry = {
              id: deps.newId(),
              name,
              doc: graph,
              trusted: false,
              allowNetwork: false,
            }
            const threadName = typeof file.name === 'string' ? file.name : 'imported'
            const threadId = `${entry.id}:${deps.newId()}`
            try {
              // The checkpoints first: a refused file leaves no graph behind.
              await client.request('importThread', {
                file,
                threadId,
                graph: entry.id,
                name: threadName,
              })
            } catch (e) {
              return set({ message: `${fileName}: ${(e as Error).message}` })
            }
            await graphs.save(entry)
            set({ graphs: await graphs.list(), importProblems: null })
            await get().select(entry.id)
            if (get().threadId !== threadId) await get().switchThread(threadId)
            set({ message: `Imported thread ${threadName} of ${name}.` })
          },

          async resume(valueText) {
            let value: Json
            try {
              value = JSON.parse(valueText) as Json
            } catch (e) {
              return set({ message: `The reply is not JSON: ${(e as Error).message}` })
            }
            set({ resumable: false })
            await start('toEnd', { input: null, command: { resume: value } })
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
            const gone = selected && !timeline.some((t) => t.checkpointId === selected)
            await get().refreshInspection(
              {
                timeline,
                ...(gone && { selectedCheckpointId: null }),
                ...(limit >= TIMELINE_PAGE && { olderAvailable: fresh.length === limit }),
              },
              () => mine === historyReads,
            )
            // After a reload a thread with a pending `next` shows as interrupted at its last
            // checkpoint. Read now, not before the reads above: a run may have ended meanwhile,
            // and a status from before it must not overwrite its end.
            if (get().runState === 'idle' && latest && get().threadId === threadId)
              set({ runState: latest.next.length ? 'interrupted' : 'done' })
          },

          edit(e) {
            const r = editDocument(get().doc, e)
            if (r.error) return set({ editError: r.error })
            if (r.doc !== get().doc) set({ doc: r.doc, editError: null })
            else if (get().editError) set({ editError: null })
            // A renamed node stays selected under its new name.
            const { selection } = get()
            if (e.type === 'renameNode' && selection.nodes.includes(e.from)) {
              const nodes = selection.nodes.map((n) => (n === e.from ? e.to : n))
              set({ selection: { ...selection, nodes } })
            }
          },

          setSelection(selection) {
            set({ selection, fieldFocus: null })
          },

          focusField(index) {
            const seq = (get().fieldFocus?.seq ?? 0) + 1
            set({ selection: EMPTY_SELECTION, fieldFocus: { index, seq } })
          },

          undo() {
            history().undo()
          },

          redo() {
            history().redo()
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

          dismissMessage() {
            set({ message: null })
          },

          dismissImportProblems() {
            set({ importProblems: null })
          },
        }
      },
      {
        partialize: (s) => ({ doc: s.doc }),
        equality: (a, b) => a.doc === b.doc,
        limit: 500,
      },
    ),
  )

  // Every change of the document, an undo included: new problems, an autosave, a stale compile.
  let saving: Promise<void> = Promise.resolve()
  store.subscribe((s, prev) => {
    if (s.doc === prev.doc || !s.current || s.current !== prev.current) return
    const entry: GraphEntry = {
      ...s.current,
      doc: s.doc,
      name: (s.doc as { name?: string })?.name ?? s.current.name,
    }
    store.setState({ issues: issuesOf(s.doc), saveState: 'saving' })
    saving = saving
      .then(() => graphs.save(entry))
      .then(async () => {
        const list = await graphs.list()
        const current = store.getState().current
        store.setState({
          saveState: 'saved',
          graphs: list,
          current: current && { ...current, name: entry.name, doc: entry.doc },
        })
      })
      .catch((e: unknown) =>
        store.setState({ saveState: 'failed', message: `Saving failed: ${(e as Error).message}` }),
      )
  })

  // Where the user is, remembered for the next load (view state only, never their work).
  store.subscribe((s, prev) => {
    const id = s.current?.id
    if (!id) return
    if (
      id === prev.current?.id &&
      s.threadId === prev.threadId &&
      s.selectedCheckpointId === prev.selectedCheckpointId &&
      s.selection === prev.selection
    )
      return
    saveView(
      withGraphView(loadView(), id, {
        thread: s.threadId,
        checkpoint: s.selectedCheckpointId,
        selection: s.selection,
      }),
    )
  })

  client.on((e: WorkerEvent) => onEvent(store, e))
  // The timeline follows a run as it goes: at most a few history reads a second.
  let refreshing: ReturnType<typeof setTimeout> | null = null
  client.onBatch((events) => {
    const threadId = store.getState().threadId
    if (refreshing || !events.some((e) => e.type === 'checkpoint_saved' && e.threadId === threadId))
      return
    refreshing = setTimeout(() => {
      refreshing = null
      store
        .getState()
        .refreshHistory(LIVE_HISTORY)
        .catch((e: unknown) => {
          // A client closed under the refresh has nothing to show it to.
          if ((e as { code?: string }).code !== 'DISPOSED')
            store.setState({ message: `Could not read the timeline: ${(e as Error).message}` })
        })
    }, 500)
  })
  return store
}

function onEvent(store: StoreApi<AppState & AppActions>, e: WorkerEvent) {
  const s = store.getState()
  if (!('threadId' in e) || e.threadId !== s.threadId) return
  if (e.type === 'warning') {
    const w = e.warning
    const warning: RunWarning = {
      step: e.step,
      code: w.code,
      message: w.message,
      ...('node' in w && { node: w.node }),
    }
    store.setState({ runWarnings: [...s.runWarnings, warning].slice(-200) })
  }
  if (e.type === 'task_finished' && e.logs.length) {
    const lines = e.logs.map((l) => ({
      node: e.name,
      level: l.level,
      args: l.args,
      text: l.args
        .map((a) => (typeof a === 'string' ? a : (JSON.stringify(a) ?? String(a))))
        .join(' '),
    }))
    store.setState({ logs: [...s.logs, ...lines].slice(-200) })
  }
}

interface HistoryApi {
  temporal: StoreApi<{ undo(): void; redo(): void; clear(): void; pause(): void; resume(): void }>
}

function toWorkerError(e: unknown): WorkerError {
  const err = e as Partial<WorkerError> & { message?: string }
  return {
    name: err.name ?? 'Error',
    message: err.message ?? String(e),
    ...(err.code ? { code: err.code } : {}),
  } as WorkerError
}

/**
 * Whether Run and Step can be pressed: a trusted graph with no run advancing. A graph with
 * problems can be: pressing says what stops it (`cannotRun`), and a fixed graph compiles then.
 */
export function selectCanRun(s: Pick<AppState, 'current' | 'runState'>): boolean {
  return s.current?.trusted === true && s.runState !== 'running'
}

/**
 * Why Run or Step did nothing, said where the run's errors stand: the first problem that
 * stops the graph from compiling (its node and line, so Open code goes there). Null for an
 * untrusted graph, whose banner already says why.
 */
function cannotRun(g: GraphEntry | null, issues: GraphIssue[]): WorkerError | null {
  if (!g?.trusted) return null
  const errors = issues.filter((i) => i.severity === 'error')
  const first = errors[0]
  const count = errors.length === 1 ? 'a problem' : `${errors.length} problems`
  return {
    name: 'GraphProblemsError',
    code: 'GRAPH_HAS_PROBLEMS',
    message: first
      ? `The graph has ${count}, so it cannot run: ${first.message}. Fix it; the Problems list shows each one.`
      : 'The graph could not be compiled, so it cannot run.',
    ...(first?.nodeId !== undefined && { node: first.nodeId }),
    ...(first?.line !== undefined && { line: first.line }),
    ...(first?.column !== undefined && { column: first.column }),
  }
}
