import type { CheckpointInspection } from '../core/debug/types'
import type { RuntimeRequests } from '../worker/client'
import type { WorkerError } from '../worker/protocol'
import { levelOf, levelPathOfNodes } from '../core/graph/levels'
import { graphTools } from './graphTools'
import { nsNodes } from '../core/pregel/namespace'
import { createInspectionCache } from './inspectionCache'
import type { RareDebugActions } from './debugActions'
import { suffixOf } from './threadName'
import { createTransferSlice, INITIAL_TRANSFER } from './transferSlice'
import type { DebugActions, DebugHost, DebugState } from './debugTypes'
import { loadOnce } from '../lib/loadOnce'
import type { Navigation } from './navigation'

export type { DebugActions, DebugHost, DebugState } from './debugTypes'

export const INITIAL_DEBUG_STATE: DebugState = {
  threads: [],
  threadsAsked: 0,
  threadsRead: 0,
  timeline: [],
  olderAvailable: false,
  selectedCheckpointId: null,
  inspection: null,
  compareWith: null,
  diff: null,
  diffWanted: false,
  focusCode: null,
  readDamage: null,
  selectedNs: '',
  inner: {},
  innerOpen: [],
  ...INITIAL_TRANSFER,
}

/** How many checkpoints the timeline reads at once. */
export const TIMELINE_PAGE = 50

/** How many checkpoints' inspections are kept once read (see `inspectionCache.ts`). */
export const INSPECTIONS_KEPT = 32

type Set = (partial: Partial<DebugHost>) => void
type Get = () => DebugHost

/** The debugger's actions over the runtime client. */
export function createDebugSlice(
  set: Set,
  get: Get,
  client: RuntimeRequests,
  newId: () => string,
  /** Tells the other tabs that a graph's threads changed (a thread deleted). */
  threadsChanged: (graph: string) => void,
  /** The page's moves between graphs and threads, one at a time (see `navigation.ts`). */
  navigation: Navigation,
) {
  const shownId = () => get().selectedCheckpointId ?? get().timeline[0]?.checkpointId
  const messageFields = () => {
    const fields = get().spec?.state ?? []
    return new Set(fields.filter((f) => f.reducer === 'add_messages').map((f) => f.name))
  }

  const inspections = createInspectionCache(INSPECTIONS_KEPT)
  /**
   * Where kept inspections hold: the graph, the thread and its newest checkpoint (a run, a
   * replay, a fork or a repair changes the newest, and may add pending writes to older ones).
   */
  const scope = (graphId: string, threadId: string, newest: string | undefined) =>
    `${graphId}\n${threadId}\n${newest ?? ''}`
  /** A checkpoint whose inspection cannot change in its scope: not the newest, not a subgraph's. */
  const settled = (id: string, ns: string, newest: string | undefined) =>
    ns === '' && newest !== undefined && id !== newest
  const inspect = (graphId: string, threadId: string, id: string, ns: string, newest?: string) => {
    const load = () =>
      client.request('inspectCheckpoint', {
        graphId,
        threadId,
        checkpointId: id,
        ...(ns && { checkpointNs: ns }),
      })
    return settled(id, ns, newest)
      ? inspections.read(scope(graphId, threadId, newest), id, load)
      : load()
  }

  const valuesAt = async (graphId: string, threadId: string, checkpointId: string) => {
    const s = await client.request('getState', { graphId, threadId, checkpointId })
    return s?.values ?? {}
  }

  const loadDiff = async (to: string, inspection: CheckpointInspection | null) => {
    const { graphId, threadId, compareWith } = get()
    if (!graphId) return set({ diff: null })
    const from = compareWith ?? inspection?.parentId ?? null
    const after = await valuesAt(graphId, threadId, to)
    const before = from ? await valuesAt(graphId, threadId, from) : {}
    // The diff's code (microdiff with it) loads when a diff is first wanted.
    const { diffState } = await import('./stateDiff')
    // Another checkpoint or comparison was picked meanwhile: its own diff is the one to show.
    if (get().threadId !== threadId || shownId() !== to || get().compareWith !== compareWith) return
    const changes = diffState(before, after, messageFields())
    set({ diff: { from, to, changes } })
  }

  /** The less used actions' code (`debugActions.ts`), fetched when one is first called. */
  const loadRare = loadOnce(
    async (): Promise<RareDebugActions> =>
      (await import('./debugActions')).debugActions({
        set,
        get,
        client,
        newId,
        threadsChanged,
        actions,
        shownId,
        loadDiff,
        pageSize: TIMELINE_PAGE,
        levelAt(spec, ns) {
          const path = ns ? levelPathOfNodes(spec, nsNodes(ns)) : []
          return path && levelOf(spec, path)
        },
        parseStateUpdate: (spec, text) => graphTools().parseStateUpdate(spec, text),
      }),
    (e) => {
      set({ message: `The debugger's actions could not load: ${(e as Error).message}` })
      return null
    },
  )

  /** Opens a thread of the open graph: the move itself, made by a move (see `navigation.ts`). */
  const switchNow = async (threadId: string) => {
    await get().leaveRun()
    set({ threadId, ...RESET_VIEW })
    get().resetRun()
    await get().refreshHistory()
    await actions.refreshThreads()
  }

  const actions: DebugActions = {
    toggleInner: async (ns) => await (await loadRare())?.toggleInner(ns),
    showInner: async (at) => await (await loadRare())?.showInner(at),
    setCompareWith: async (id) => await (await loadRare())?.setCompareWith(id),
    replayFrom: async (id, mode) => await (await loadRare())?.replayFrom(id, mode),
    async forkFrom(id, valuesText, asNode, ns) {
      const rare = await loadRare()
      return rare
        ? await rare.forkFrom(id, valuesText, asNode, ns)
        : "The debugger's actions could not load."
    },
    // Queued as soon as it is asked: a Run pressed while the thread is being made runs on it.
    newThread: (name) =>
      navigation.go(async () => {
        const threadId = await (await loadRare())?.createThread(name)
        if (threadId) await switchNow(threadId)
      }),
    renameThread: async (threadId, name) => await (await loadRare())?.renameThread(threadId, name),
    deleteThread: async (threadId) => await (await loadRare())?.deleteThread(threadId),
    repairThread: async () => await (await loadRare())?.repairThread(),
    exportThread: async () => (await loadRare())?.exportThread() ?? null,
    loadOlder: async () => await (await loadRare())?.loadOlder(),
    ...createTransferSlice(set, get, client),
    async refreshInspection(pending = {}, isCurrent = () => true) {
      const { graphId, threadId } = get()
      const view = { ...get(), ...pending }
      const selected = view.selectedCheckpointId
      const ns = selected === null ? '' : view.selectedNs
      const id = selected ?? view.timeline[0]?.checkpointId
      if (!graphId || !id) return set({ ...pending, inspection: null, diff: null })
      const newest = view.timeline[0]?.checkpointId
      // Read lately (or prefetched): shown in the same update as the pick, no round trip.
      const kept = settled(id, ns, newest)
        ? inspections.get(scope(graphId, threadId, newest), id)
        : undefined
      if (kept) {
        set({ ...pending, inspection: kept })
        if (get().diffWanted) await loadDiff(id, kept)
        return
      }
      try {
        const inspection = await inspect(graphId, threadId, id, ns, newest)
        // A newer refresh, or another thread: theirs is the one to show.
        if (get().threadId !== threadId || !isCurrent()) return
        // Another checkpoint was picked meanwhile: its own refresh shows it, and the pick
        // stands (a selection in `pending` was decided before it).
        if (get().selectedCheckpointId !== selected) {
          const { selectedCheckpointId: _stale, ...rest } = pending
          return set(rest)
        }
        set({ ...pending, inspection })
        // The diff is the root graph's: a subgraph's checkpoint shows none.
        if (ns) set({ diff: null })
        else if (get().diffWanted) await loadDiff(id, inspection)
      } catch (e) {
        const { code, message } = e as WorkerError
        const reason = /is damaged: (.*?)\. Nothing can run/.exec(message)?.[1] ?? message
        set({
          ...pending,
          inspection: null,
          message: `Could not read checkpoint ${id}: ${message}`,
          ...(code === 'DAMAGED_CHECKPOINT' && { readDamage: { checkpointId: id, reason } }),
        })
      }
    },

    async setDiffWanted(wanted) {
      set({ diffWanted: wanted })
      const to = shownId()
      if (wanted && to) await loadDiff(to, get().inspection)
    },

    async selectCheckpoint(id, ns = '') {
      // A subgraph's checkpoint is drawn on its subgraph's canvas.
      const spec = get().spec
      const level = ns && spec ? levelPathOfNodes(spec, nsNodes(ns)) : null
      if (level) get().openLevel(level)
      const newest = get().timeline[0]?.checkpointId
      set({
        selectedCheckpointId: id === newest && !ns ? null : id,
        selectedNs: id === null ? '' : ns,
        compareWith: null,
      })
      await actions.refreshInspection()
    },

    prefetchCheckpoint(id) {
      const { graphId, threadId, timeline } = get()
      const newest = timeline[0]?.checkpointId
      if (!graphId || !settled(id, '', newest)) return
      // A failed read is reported when the checkpoint is picked, not now.
      inspect(graphId, threadId, id, '', newest).catch(() => undefined)
    },

    async refreshThreads(options) {
      const g = get().current
      if (!g) return set({ threads: [] })
      const asked = get().threadsAsked + 1
      set({ threadsAsked: asked })
      const threads = await client.request('listThreads', { graph: g.id })
      // Another graph opened, or a list asked for later already arrived: this one is stale.
      if (get().current?.id !== g.id || asked < get().threadsRead) return
      const latest = threads
        .filter((t) => t.latestTs)
        .sort((a, b) => ((a.latestTs ?? '') < (b.latestTs ?? '') ? 1 : -1))[0]
      if (options?.openLatest && latest) set({ threadId: latest.threadId })
      const mine = get().threadId
      // The open thread is listed even before its first checkpoint.
      if (!threads.some((t) => t.threadId === mine) && mine.startsWith(`${g.id}:`))
        threads.push({ threadId: mine, name: suffixOf(mine), graph: g.id, count: 0 })
      set({ threads, threadsRead: asked })
    },

    switchThread: (threadId) => navigation.go(() => switchNow(threadId)),

    openCode(node, line, column) {
      get().setSelection({ nodes: [node], edges: [] })
      const seq = (get().focusCode?.seq ?? 0) + 1
      set({
        focusCode: {
          node,
          ...(line !== undefined && { line }),
          ...(column !== undefined && { column }),
          seq,
        },
      })
    },
  }

  return { actions, switchNow }
}

/** What a switch of thread or graph clears. */
export const RESET_VIEW: Partial<DebugState> = {
  readDamage: null,
  timeline: [],
  olderAvailable: false,
  selectedCheckpointId: null,
  inspection: null,
  compareWith: null,
  diff: null,
  selectedNs: '',
  inner: {},
  innerOpen: [],
}
