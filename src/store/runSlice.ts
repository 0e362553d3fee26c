import type { StoreApi } from 'zustand/vanilla'
import { errorToPosted } from '../core/errorJson'
import type { GraphIssue } from '../core/graph/issues'
import type {
  Json,
  RunOutcome,
  RunParams,
  TimelineEntry,
  WorkerError,
  WorkerEvent,
} from '../worker/protocol'
import type {
  AppActions,
  AppState,
  GraphEntry,
  RunActions,
  RunSliceState,
  RunWarning,
  SliceContext,
} from './appTypes'
import { runConfigurable } from './settingsSlice'
import { threadName } from './threadName'

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
}

/** Run, Step, Stop, Pause and the reply to an interrupt, over the runtime client. */
export function createRunSlice(ctx: SliceContext): RunActions {
  const { set, get } = ctx
  const { client } = ctx.deps

  /** What the run's outcome means for the status (a pure read of what the worker said). */
  const finish = async (outcome: RunOutcome, threadId: string, wasInside = false) => {
    // A run stopped because the page left its thread: nothing of it is shown here.
    if (get().threadId !== threadId) return
    set({ liveInner: null })
    if (outcome.status === 'done') set({ runState: 'done', resumable: false })
    else if (outcome.status === 'failed')
      set({ runState: 'failed', resumable: false, error: outcome.error })
    else if (outcome.status === 'stopped') set({ runState: 'stopped', resumable: false })
    else {
      const inPlace = outcome.reason === 'step' || outcome.reason === 'pause'
      set({
        pausedBy: {
          reason: outcome.reason,
          next: outcome.next,
          ...(outcome.inner && { inner: outcome.inner }),
        },
        runState:
          outcome.reason === 'interrupt' || outcome.reason === 'breakpoint'
            ? 'interrupted'
            : 'paused',
        resumable: inPlace,
        interrupts: outcome.interrupts,
      })
      // Inside a subgraph: its checkpoints shown under the step, its latest on its canvas.
      if (outcome.inner) {
        await get().refreshHistory()
        return get().showInner(outcome.inner)
      }
      // Out of one: back to the canvas the run is paused on.
      if (wasInside) get().openLevel([])
    }
    await get().refreshHistory()
    await get().refreshThreads()
  }

  const start = async (mode: RunParams['mode'], extra: Partial<RunParams> = {}) => {
    if (!ctx.compiled()) await ctx.compile()
    const { graphId, threadId, input, timeline, recursionLimit, timeoutMs, spec } = get()
    const configurable = runConfigurable(spec, get().configurable)
    // A replay or a resume starts a new run; only a plain Run/Step continues in place.
    const resumable = get().resumable && extra.checkpointId === undefined && !extra.command
    const inside = get().pausedBy?.inner !== undefined
    if (!graphId) return set({ error: cannotRun(get().current, get().issues) })
    // A finished thread runs again from the input: say so, or Step seems to go backwards.
    // (A chat message is new input on purpose: no word about restarting.)
    const restarts =
      !resumable &&
      !extra.command &&
      extra.checkpointId === undefined &&
      extra.input === undefined &&
      timeline.length > 0
    const finished = restarts && (timeline[0]?.next.length ?? 0) === 0
    set({
      runState: 'running',
      pausedBy: null,
      error: null,
      message: finished
        ? `The thread had finished, so ${mode === 'step' ? 'Step' : 'Run'} starts a new run from the input.`
        : null,
      selectedCheckpointId: null,
    })
    try {
      if (resumable)
        return await finish(await client.request('continue', { threadId, mode }), threadId, inside)
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
        ...(Object.keys(configurable).length > 0 && { configurable }),
        ...extra,
      }
      await finish(await client.request('run', params), threadId)
    } catch (e) {
      if (get().threadId !== threadId) return
      set({ runState: 'failed', resumable: false, error: errorToPosted(e) })
      await get().refreshHistory()
    }
  }

  return {
    run: () => start('toEnd'),
    async sendChat(field, content, checkpointId) {
      // A run paused in place ends first: the message is new input for the thread.
      if (get().resumable) {
        await get().leaveRun()
        set({ resumable: false })
      }
      await start('toEnd', {
        input: { [field]: [{ type: 'human', content }] },
        ...(checkpointId !== undefined && { checkpointId }),
      })
    },
    step: () => start('step'),
    stepInto: () => start('stepInto'),
    stepOut: () => start(get().pausedBy?.inner ? 'stepOut' : 'step'),
    startRun: (mode, extra) => start(mode, extra),

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
 * Whether Run and Step can be pressed: a trusted graph with no run advancing. A graph with
 * problems can be: pressing says what stops it (`cannotRun`), and a fixed graph compiles then.
 */
export function selectCanRun(
  s: Pick<AppState, 'current' | 'runState'> & Partial<Pick<AppState, 'runningElsewhere'>>,
): boolean {
  return s.current?.trusted === true && s.runState !== 'running' && s.runningElsewhere !== true
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
