import type { CheckpointInspection, StateChange } from '../core/debug/types'
import type { GraphSpec } from '../core/graph/schema'
import type { RuntimeRequests } from '../worker/client'
import type {
  CheckpointDamage,
  Json,
  RowDamage,
  InnerPause,
  RunMode,
  ThreadInfo,
  TimelineEntry,
  WorkerError,
} from '../worker/protocol'
import { graphTools } from './graphTools'
import { levelOf, levelPathOfNodes } from '../core/graph/levels'
import { nsNodes } from '../core/pregel/namespace'
import { createInspectionCache } from './inspectionCache'
import { suffixOf, threadName } from './threadName'
import {
  createTransferSlice,
  INITIAL_TRANSFER,
  type TransferActions,
  type TransferHost,
  type TransferState,
} from './transferSlice'

/** The debugger's part of the app state: threads, the timeline, the selected checkpoint. */
export interface DebugState extends TransferState {
  /** The open graph's threads (persisted with the graph). */
  threads: ThreadInfo[]
  /** Thread lists asked of the worker so far; `threadsRead`: the one `threads` came from. */
  threadsAsked: number
  threadsRead: number
  /** The thread's checkpoints, newest first, all branches. */
  timeline: TimelineEntry[]
  /** The thread has checkpoints older than the last one in `timeline`. */
  olderAvailable: boolean
  /** The checkpoint shown everywhere; null follows the newest. */
  selectedCheckpointId: string | null
  /** The shown checkpoint's channels, tasks and schedule. */
  inspection: CheckpointInspection | null
  /** The checkpoint the diff compares the shown one with; null: its parent. */
  compareWith: string | null
  diff: { from: string | null; to: string; changes: StateChange[] } | null
  /** The Diff tab is open: the diff follows the shown checkpoint (it costs two reads). */
  diffWanted: boolean
  /** Where the inspector's code editor should show a line (a clicked error). */
  focusCode: { node: string; line?: number; column?: number; seq: number } | null
  /**
   * A checkpoint of the thread found damaged when it was read in full (a missing state value
   * the timeline does not read), with why; null when none was.
   */
  readDamage: { checkpointId: string; reason: string } | null
  /** The namespace of the shown checkpoint: `''` the root graph's, else a subgraph's. */
  selectedNs: string
  /** Subgraph timelines read so far, by namespace (a graph node task's `ns`), newest first. */
  inner: Record<string, TimelineEntry[]>
  /** The subgraph timelines shown under their parent steps. */
  innerOpen: string[]
}

export interface DebugActions extends TransferActions {
  /**
   * Shows a checkpoint on the canvas and in every tab (null: follow the newest); `ns` is the
   * namespace of a subgraph's checkpoint (default: the root graph's).
   */
  selectCheckpoint(id: string | null, ns?: string): Promise<void>
  /**
   * Reads a checkpoint the user is likely to pick next (the pointer rests on its row), so that
   * the pick shows its channels at once. Only checkpoints that no longer change are kept.
   */
  prefetchCheckpoint(id: string): void
  /** Shows or hides, under its parent step, the checkpoints a graph node's subgraph made. */
  toggleInner(ns: string): Promise<void>
  /** A run paused inside a subgraph: its checkpoints read and open, its latest selected. */
  showInner(at: Pick<InnerPause, 'ns' | 'checkpointId'>): Promise<void>
  /** Compares the shown checkpoint with another one (null: its parent). */
  setCompareWith(id: string | null): Promise<void>
  /** Runs again from a checkpoint: the new checkpoints branch from it. */
  replayFrom(id: string, mode?: RunMode): Promise<void>
  /**
   * Writes `valuesText` (a JSON state update, checked against the schema) at checkpoint
   * `id` as if `asNode` wrote it: a new checkpoint branching from `id`, which is selected.
   * Returns the error, or null.
   */
  /** `ns`: a subgraph's checkpoint (the latest of a subgraph whose step has not ended). */
  forkFrom(id: string, valuesText: string, asNode?: string, ns?: string): Promise<string | null>
  newThread(name?: string): Promise<void>
  switchThread(threadId: string): Promise<void>
  renameThread(threadId: string, name: string): Promise<void>
  deleteThread(threadId: string): Promise<void>
  /**
   * Cuts the open thread's damaged part (its damaged checkpoints and every one after them,
   * damaged writes and task runs, a damaged thread row), then shows what is left and says
   * what was removed. A thread whose first checkpoint is damaged is left as it is.
   */
  repairThread(): Promise<void>
  /** The thread (graph and checkpoints) as a file to download. */
  exportThread(): Promise<{ fileName: string; text: string } | null>
  /** Selects a node and asks its code editor to show a line. */
  openCode(node: string, line?: number, column?: number): void
  /** Appends the next page of older checkpoints to the timeline. */
  loadOlder(): Promise<void>
  /** Reloads the threads of the open graph; with `openLatest`, opens the one used last. */
  refreshThreads(options?: { openLatest?: boolean }): Promise<void>
  /**
   * Reloads the shown checkpoint's inspection (and diff, when wanted). `pending` is state to
   * set in the same update, so a new timeline and its inspection render once.
   */
  refreshInspection(pending?: Partial<DebugState>, isCurrent?: () => boolean): Promise<void>
  /** The Diff tab opened (true) or closed (false). */
  setDiffWanted(wanted: boolean): Promise<void>
}

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

/** What the slice needs of the rest of the app store. */
export interface DebugHost extends DebugState, Pick<TransferHost, 'importThread'> {
  graphId: string | null
  threadId: string
  doc: unknown
  /** The document as the format reads it (null: it does not match). */
  spec: GraphSpec | null
  current: { id: string; name: string } | null
  runState: string
  message: string | null
  error: WorkerError | null
  refreshHistory(limit?: number): Promise<void>
  setSelection(s: { nodes: string[]; edges: string[] }): void
  /** Starts a run on the current thread with these extra params. */
  startRun(mode: RunMode, extra: { input: Json | null; checkpointId?: string }): Promise<void>
  /** Clears the run status for a thread that was switched to or created. */
  resetRun(): void
  /** Stops this tab's run of the open thread before another thread is shown. */
  leaveRun(): Promise<void>
  /** Shows a level of the document on the canvas (a subgraph's checkpoint opens its own). */
  openLevel(path: string[]): void
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
  threadsChanged: (graph: string) => void = () => undefined,
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

  const actions: DebugActions = {
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

    async toggleInner(ns) {
      const { graphId, threadId, innerOpen } = get()
      if (innerOpen.includes(ns)) return set({ innerOpen: innerOpen.filter((n) => n !== ns) })
      if (!graphId) return
      try {
        const entries = await client.request('getTimeline', { graphId, threadId, checkpointNs: ns })
        if (get().threadId !== threadId) return
        set({ inner: { ...get().inner, [ns]: entries }, innerOpen: [...get().innerOpen, ns] })
      } catch (e) {
        set({ message: `Could not read the subgraph's checkpoints: ${(e as Error).message}` })
      }
    },

    async showInner({ ns, checkpointId }) {
      const { graphId, threadId } = get()
      if (!graphId) return
      try {
        const entries = await client.request('getTimeline', { graphId, threadId, checkpointNs: ns })
        if (get().threadId !== threadId) return
        const open = get().innerOpen
        set({
          inner: { ...get().inner, [ns]: entries },
          innerOpen: open.includes(ns) ? open : [...open, ns],
        })
        await actions.selectCheckpoint(checkpointId, ns)
      } catch (e) {
        set({ message: `Could not read the subgraph's checkpoints: ${(e as Error).message}` })
      }
    },

    async setCompareWith(id) {
      set({ compareWith: id })
      const to = shownId()
      if (to) await loadDiff(to, get().inspection)
    },

    async replayFrom(id, mode = 'toEnd') {
      set({ selectedCheckpointId: null })
      await get().startRun(mode, { input: null, checkpointId: id })
    },

    async forkFrom(id, valuesText, asNode, ns = '') {
      const { graphId, threadId, spec, runState } = get()
      if (!graphId) return 'The graph is not compiled: fix its problems (or trust it) first.'
      if (runState === 'running') return 'Stop the run before forking.'
      if (!spec) return 'The graph does not match the format.'
      // A subgraph's checkpoint: the update is checked against the subgraph's own fields.
      const path = ns ? levelPathOfNodes(spec, nsNodes(ns)) : []
      const at = path && levelOf(spec, path)
      if (!at) return 'The subgraph of this checkpoint is no longer in the graph.'
      const r = graphTools().parseStateUpdate(at.spec, valuesText)
      if (!r.ok) return r.error
      try {
        // A run paused inside the subgraph holds its state in memory: it ends first (its
        // checkpoints stay), and Continue resumes the subgraph from the fork.
        if (ns) await get().leaveRun()
        const out = await client.request('updateState', {
          graphId,
          threadId,
          checkpointId: id,
          ...(ns && { checkpointNs: ns }),
          values: r.values,
          ...(asNode ? { asNode } : {}),
        })
        // A paused interrupt stays answerable: the reply resumes from the fork.
        if (get().runState !== 'interrupted') get().resetRun()
        await get().refreshHistory()
        if (ns) {
          await actions.showInner({ ns, checkpointId: out.checkpointId })
          set({
            message: `Forked the subgraph ${nsNodes(ns).join(' › ')} from ${id.slice(0, 8)}: checkpoint ${out.checkpointId.slice(0, 8)}. Continue (F5) runs on from it.`,
          })
          return null
        }
        set({
          message: `Forked from ${id.slice(0, 8)}: checkpoint ${out.checkpointId.slice(0, 8)}.`,
        })
        await actions.selectCheckpoint(out.checkpointId)
        return null
      } catch (e) {
        return (e as Error).message
      }
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

    async newThread(name) {
      const g = get().current
      if (!g) return
      const threadId = `${g.id}:${newId()}`
      const label = name?.trim() || `thread ${get().threads.length + 1}`
      await client.request('createThread', { threadId, graph: g.id, name: label })
      await actions.switchThread(threadId)
    },

    async switchThread(threadId) {
      await get().leaveRun()
      set({ threadId, ...RESET_VIEW })
      get().resetRun()
      await get().refreshHistory()
      await actions.refreshThreads()
    },

    async renameThread(threadId, name) {
      const trimmed = name.trim()
      if (!trimmed) return set({ message: 'A thread needs a name.' })
      await client.request('renameThread', { threadId, name: trimmed })
      await actions.refreshThreads()
    },

    async deleteThread(threadId) {
      const g = get().current
      if (!g) return
      const name = get().threads.find((t) => t.threadId === threadId)?.name ?? threadId
      try {
        await client.request('deleteThread', { threadId })
      } catch (e) {
        return set({ message: `Thread ${name} was not deleted: ${(e as Error).message}` })
      }
      threadsChanged(g.id)
      await actions.refreshThreads()
      if (get().threadId === threadId) {
        const other = get().threads.find((t) => t.threadId !== threadId)
        await actions.switchThread(other?.threadId ?? `${g.id}:main`)
      }
      set({ message: `Deleted thread ${name}.` })
    },

    async repairThread() {
      const { threadId, threads } = get()
      const name = threadName(threads, threadId)
      try {
        const out = await client.request('repairThread', { threadId })
        // The thread's newest checkpoint may have changed: its status is read again.
        get().resetRun()
        set({ selectedCheckpointId: null, readDamage: null })
        await get().refreshHistory()
        await actions.refreshThreads()
        set({ message: repairMessage(name, out) })
      } catch (e) {
        set({ message: `Could not repair thread ${name}: ${(e as Error).message}` })
      }
    },

    async exportThread() {
      const { threadId, doc, threads } = get()
      if (!threadId) return null
      const file = await client.request('exportThread', { threadId })
      const name = threadName(threads, threadId)
      const graphName = (doc as { name?: string } | null)?.name ?? 'graph'
      const text = `${JSON.stringify({ ...file, name, graph: doc }, null, 2)}\n`
      const fileName = `${graphName}.${name}.thread.json`.replace(/[^\w.-]+/g, '-')
      return { fileName, text }
    },

    async loadOlder() {
      const { graphId, threadId, timeline } = get()
      const last = timeline[timeline.length - 1]
      if (!graphId || !last) return
      const older = await client.request('getTimeline', {
        graphId,
        threadId,
        limit: TIMELINE_PAGE,
        before: last.checkpointId,
      })
      if (get().threadId !== threadId) return
      set({
        timeline: [...get().timeline, ...older],
        olderAvailable: older.length === TIMELINE_PAGE,
      })
    },

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
  return actions
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

/** What a repair removed, in words. */
function repairMessage(
  name: string,
  out: {
    removed: string[]
    kept: number
    writesRemoved: number
    taskRunsRemoved: number
    threadRowRepaired: boolean
  },
): string {
  const n = out.removed.length
  const parts = [
    n > 0 &&
      `removed ${n} checkpoint${n === 1 ? '' : 's'} (${out.removed.map((id) => id.slice(0, 8)).join(', ')})`,
    out.writesRemoved > 0 && `removed ${out.writesRemoved} damaged pending write(s)`,
    out.taskRunsRemoved > 0 && `removed ${out.taskRunsRemoved} damaged task run record(s)`,
    out.threadRowRepaired && 'rewrote its damaged thread row',
  ].filter((p): p is string => typeof p === 'string')
  const what = parts.length ? parts.join(', ') : 'found nothing damaged'
  return `Repaired thread ${name}: ${what}; ${out.kept} checkpoint${out.kept === 1 ? '' : 's'} kept.`
}

/** The damage the open thread shows: its damaged checkpoints (as loaded) and thread row. */
export interface ThreadDamage {
  threadName: string
  /** Damaged checkpoints among those loaded in the timeline. */
  count: number
  /** The oldest of them. */
  first: CheckpointDamage | undefined
  /** The thread's row is damaged. */
  row: RowDamage | undefined
}

const damageCache = new WeakMap<TimelineEntry[], CheckpointDamage[]>()
const readCache = new WeakMap<object, CheckpointDamage>()

/** The open thread's damage, or null when nothing loaded of it is damaged. */
export function selectThreadDamage(s: {
  timeline: TimelineEntry[]
  threads: ThreadInfo[]
  threadId: string
  readDamage: DebugState['readDamage']
}): ThreadDamage | null {
  let damaged = damageCache.get(s.timeline)
  if (!damaged) {
    damaged = s.timeline.flatMap((t) => (t.damaged ? [t.damaged] : []))
    damageCache.set(s.timeline, damaged)
  }
  const read = s.readDamage
  if (!damaged.length && read) {
    let found = readCache.get(read)
    // The same object while nothing changes: the notice compares what it picks shallowly.
    if (!found)
      readCache.set(
        read,
        (found = { ...read, threadId: s.threadId, table: 'checkpoints', field: '' }),
      )
    damaged = [found]
  }
  const info = s.threads.find((t) => t.threadId === s.threadId)
  if (!damaged.length && !info?.damaged) return null
  return {
    threadName: info?.name ?? suffixOf(s.threadId),
    count: damaged.length,
    first: damaged.at(-1), // the timeline is newest first
    row: info?.damaged,
  }
}
