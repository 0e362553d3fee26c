import type { CheckpointInspection } from '../core/debug/types'
import type { Level } from '../core/graph/levels'
import type { GraphSpec } from '../core/graph/schema'
import { nsNodes } from '../core/pregel/namespace'
import type { RuntimeRequests } from '../worker/client'
import type { DebugActions, DebugHost } from './debugTypes'
import type { graphTools } from './graphTools'
import { threadName } from './threadName'

/** The debugger's actions that load on first use (see `createDebugSlice`). */
export type RareDebugActions = Pick<DebugActions, RareDebugAction> & {
  /** Makes a thread of the open graph and says its id (`newThread` then opens it). */
  createThread(name?: string): Promise<string | undefined>
}

export type RareDebugAction =
  | 'toggleInner'
  | 'showInner'
  | 'setCompareWith'
  | 'replayFrom'
  | 'forkFrom'
  | 'renameThread'
  | 'deleteThread'
  | 'repairThread'
  | 'exportThread'
  | 'loadOlder'

/** What these actions need of the slice that loads them. */
export interface DebugActionsContext {
  set(partial: Partial<DebugHost>): void
  get(): DebugHost
  client: RuntimeRequests
  newId(): string
  threadsChanged(graph: string): void
  /** The slice's actions (these included, once loaded). */
  actions: DebugActions
  /** The checkpoint shown (the selected one, else the newest). */
  shownId(): string | undefined
  loadDiff(to: string, inspection: CheckpointInspection | null): Promise<void>
  /** How many checkpoints the timeline reads at once. */
  pageSize: number
  /**
   * The level of `spec` a checkpoint namespace's checkpoints belong to (`''`: the root), null
   * when it is no longer there. (Passed in, as the next one, rather than imported: the page
   * has them already, and a chunk that imports them makes the bundler split them off it.)
   */
  levelAt(spec: GraphSpec, ns: string): Level | null
  parseStateUpdate: ReturnType<typeof graphTools>['parseStateUpdate']
}

/**
 * The debugger's less used actions (subgraph timelines, compare, replay, fork, the thread
 * list's edits, repair, export, older pages): a chunk of their own, loaded by
 * `createDebugSlice` when one is first called (the first canvas does not need them).
 */
export function debugActions(ctx: DebugActionsContext): RareDebugActions {
  const { set, get, client, newId, threadsChanged, actions, shownId, loadDiff, pageSize } = ctx
  const { levelAt, parseStateUpdate } = ctx
  const rare: RareDebugActions = {
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
      const { graphId, graphReadOnly, threadId, spec, runState, current } = get()
      if (!graphId || graphReadOnly)
        return current?.trusted === false
          ? 'The graph is not trusted: trust it to fork from here.'
          : 'The graph has problems, so it cannot fork: fix them first (the Problems list shows each one).'
      if (runState === 'running') return 'Stop the run before forking.'
      if (!spec) return 'The graph does not match the format.'
      // A subgraph's checkpoint: the update is checked against the subgraph's own fields.
      const at = levelAt(spec, ns)
      if (!at) return 'The subgraph of this checkpoint is no longer in the graph.'
      const r = parseStateUpdate(at.spec, valuesText)
      if (!r.ok) return r.error
      try {
        // A run paused by Step (or inside the subgraph) holds its state in memory: it ends
        // first (its checkpoints stay), and Step or Continue then runs on from the fork.
        const left = runState === 'paused'
        await get().leaveRun()
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
          await rare.showInner({ ns, checkpointId: out.checkpointId })
          set({
            message: `Forked the subgraph ${nsNodes(ns).join(' › ')} from ${id.slice(0, 8)}: checkpoint ${out.checkpointId.slice(0, 8)}. Continue (F5) runs on from it.`,
          })
          return null
        }
        set({
          message: `${left ? 'Ended the paused run (its checkpoints are kept) and forked' : 'Forked'} from ${id.slice(0, 8)}: checkpoint ${out.checkpointId.slice(0, 8)}.`,
        })
        await actions.selectCheckpoint(out.checkpointId)
        return null
      } catch (e) {
        return (e as Error).message
      }
    },

    async createThread(name) {
      const g = get().current
      if (!g) return undefined
      const threadId = `${g.id}:${newId()}`
      const label = name?.trim() || `thread ${get().threads.length + 1}`
      await client.request('createThread', { threadId, graph: g.id, name: label })
      return threadId
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
        limit: pageSize,
        before: last.checkpointId,
      })
      if (get().threadId !== threadId) return
      set({
        timeline: [...get().timeline, ...older],
        olderAvailable: older.length === pageSize,
      })
    },
  }
  return rare
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
