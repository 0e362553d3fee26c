import type { StoreApi } from 'zustand/vanilla'
import type { TimelineEntry, WorkerEvent } from '../worker/protocol'
import type {
  AppActions,
  AppState,
  RunActions,
  RunSliceState,
  RunWarning,
  SliceContext,
} from './appTypes'
import type { StartActions } from './runActions'
import { runConfigurable } from './settingsSlice'
import { threadName } from './threadName'
import { loadOnce } from '../lib/loadOnce'

/** The run status of a thread nothing has run on yet; opening a graph or a thread resets to it. */
export const INITIAL_RUN: RunSliceState = {
  runState: 'idle',
  pausedBy: null,
  resumable: false,
  error: null,
  interrupts: [],
  logs: [],
  runWarnings: [],
  liveInner: null,
  runStarting: false,
}

/**
 * Run, Step, Stop, Pause and the reply to an interrupt, over the runtime client. Starting a run
 * is runActions.ts's (see `load`); calls made before it arrives run in their order.
 */
export function createRunSlice(ctx: SliceContext): RunActions {
  const { set, get } = ctx
  const { client } = ctx.deps

  /**
   * Starting a run (runActions.ts): its code is a chunk of its own, fetched as the store is
   * made (not with the page's script), so a first Run does not wait for it: Run sets the
   * status to running at once, which keeps a double click from starting two runs.
   */
  void import('./runActions').catch(() => undefined) // a failure is said when Run is pressed
  const load = loadOnce(
    async (): Promise<StartActions> =>
      (await import('./runActions')).startActions(ctx, runConfigurable),
    (e) => {
      set({
        message: `The run could not start: its code did not load (${(e as Error).message}).`,
      })
      return null
    },
  )

  return {
    run: async () => await (await load())?.run(),
    sendChat: async (field, content, checkpointId) =>
      await (await load())?.sendChat(field, content, checkpointId),
    step: async () => await (await load())?.step(),
    stepInto: async () => await (await load())?.stepInto(),
    stepOut: async () => await (await load())?.stepOut(),
    startRun: async (mode, extra) => await (await load())?.startRun(mode, extra),
    resume: async (valueText) => await (await load())?.resume(valueText),

    resetRun() {
      set(INITIAL_RUN)
    },

    async leaveRun() {
      const { runState, threadId, threads } = get()
      if (runState !== 'running' && runState !== 'paused') return
      // The worker would keep it (and its thread's lock) with nothing showing it: it stops,
      // its checkpoints kept, and Run on the thread later continues from the newest.
      await client.request('stop', { threadId }).catch(() => undefined)
      if (runState === 'running') {
        set({
          message: `Stopped the run of thread ${threadName(threads, threadId)}; its checkpoints are kept.`,
        })
      }
    },

    async stop() {
      await client.request('stop', { threadId: get().threadId })
    },

    async pause() {
      if (get().runState === 'running') await client.request('pause', { threadId: get().threadId })
    },
  }
}

/**
 * Where a run is, from a batch of its events: the subgraph whose super-step the newest
 * step_started is of (null: the root's), or undefined when the batch started no step.
 */
export function liveInnerOf(
  events: readonly WorkerEvent[],
  threadId: string,
): RunSliceState['liveInner'] | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i] as WorkerEvent
    if (e.type !== 'step_started' || e.threadId !== threadId) continue
    return e.ns ? { ns: e.ns, nodes: e.tasks.map((t) => t.name) } : null
  }
  return undefined
}

/** What the worker says while a run goes: warnings and node logs of the open thread. */
export function onRunEvent(store: StoreApi<AppState & AppActions>, e: WorkerEvent): void {
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

/**
 * The thread's runtime warnings: those recorded with its checkpoints' task runs (kept across
 * reloads), and those the run reported live that are not stored yet; oldest step first.
 */
export function threadWarnings(
  timeline: readonly TimelineEntry[],
  live: readonly RunWarning[],
): RunWarning[] {
  const stored: RunWarning[] = []
  for (const t of timeline)
    for (const task of t.ran)
      for (const w of task.warnings ?? [])
        stored.push({ step: t.step, node: task.name, code: w.code, message: w.message })
  const key = (w: RunWarning) => JSON.stringify([w.step, w.node, w.code, w.message])
  const seen = new Set(stored.map(key))
  const all = [...stored, ...live.filter((w) => !seen.has(key(w)))]
  return all.sort((a, b) => a.step - b.step).slice(-200)
}

/**
 * Why the open graph's threads can be read but not run, stepped, forked or answered: it
 * was compiled for reading only (`graphReadOnly`) because it has problems or is not trusted.
 * Null when it can run (or is not compiled at all).
 */
export function selectReadOnly(
  s: Pick<AppState, 'graphId' | 'graphReadOnly' | 'current'>,
): 'problems' | 'untrusted' | null {
  if (!s.graphId || !s.graphReadOnly) return null
  return s.current?.trusted === false ? 'untrusted' : 'problems'
}

/**
 * Whether Run and Step can be pressed: a trusted graph with no run advancing. A graph with
 * problems can be: pressing says what stops it (`cannotRun`), and a fixed graph compiles then.
 */
export function selectCanRun(
  s: Pick<AppState, 'current' | 'runState'> & Partial<Pick<AppState, 'runningElsewhere'>>,
): boolean {
  return s.current?.trusted === true && s.runState !== 'running' && s.runningElsewhere !== true
}
