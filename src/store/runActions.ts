import { errorToPosted } from '../core/errorJson'
import type { GraphIssue } from '../core/graph/issues'
import type { Json, RunOutcome, RunParams, WorkerError } from '../worker/protocol'
import type { GraphEntry, RunActions, SliceContext } from './appTypes'
import type { runConfigurable } from './settingsSlice'

/** The run actions that load on first use (see `createRunSlice`). */
export type StartActions = Pick<
  RunActions,
  'run' | 'sendChat' | 'step' | 'stepInto' | 'stepOut' | 'startRun' | 'resume'
>

/**
 * Run, Step, a chat message and the reply to an interrupt: starting a run and following it to
 * its outcome. A chunk of its own, loaded by `createRunSlice` when one is first called.
 */
export function startActions(
  ctx: SliceContext,
  /** settingsSlice's, passed in: a chunk that imports the page's modules makes the bundler split them off it. */
  configurableOf: typeof runConfigurable,
): StartActions {
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
    // Until the run starts (the graph opening, compiling, the runtime loading) the status
    // says it is on its way, not "Ready".
    if (get().runState !== 'running') set({ runStarting: true })
    try {
      await startNow(mode, extra)
    } finally {
      if (get().runStarting) set({ runStarting: false })
    }
  }

  const startNow = async (mode: RunParams['mode'], extra: Partial<RunParams>) => {
    // A graph or thread still opening (Run pressed right after New thread): the run is the
    // thread's the user went to. Two presses while it opened start one run.
    await ctx.navigation.settled()
    if (get().runState === 'running') return
    if (!ctx.compiled()) await ctx.compile()
    const { graphId, threadId, input, timeline, recursionLimit, timeoutMs, spec } = get()
    const configurable = configurableOf(spec, get().configurable)
    // A replay or a resume starts a new run; only a plain Run/Step continues in place.
    const resumable = get().resumable && extra.checkpointId === undefined && !extra.command
    const inside = get().pausedBy?.inner !== undefined
    // Compiled for reading only: its threads show, and it cannot run until its problems go.
    if (!graphId || get().graphReadOnly)
      return set({ error: cannotRun(get().current, get().issues) })
    // A replay starts a new run: one paused by Step ends first (its checkpoints kept), or the
    // worker would refuse the thread as busy.
    if (!resumable && get().runState === 'paused') await get().leaveRun()
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
      runStarting: false,
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
 * Why Run or Step did nothing, said where the run's errors stand: the first problem that
 * stops the graph from compiling (its node and line, so Open code goes there). Null for an
 * untrusted graph, whose banner already says why.
 */
export function cannotRun(g: GraphEntry | null, issues: GraphIssue[]): WorkerError | null {
  if (!g?.trusted) return null
  const errors = issues.filter((i) => i.severity === 'error')
  const first = errors[0]
  const count = errors.length === 1 ? 'a problem' : `${errors.length} problems`
  return {
    name: 'GraphProblemsError',
    code: 'GRAPH_HAS_PROBLEMS',
    message: first
      ? `The graph has ${count}, so it cannot run: ${first.message.replace(/\.+$/, '')}. Fix it; the Problems list shows each one.`
      : 'The graph could not be compiled, so it cannot run.',
    ...(first?.nodeId !== undefined && { node: first.nodeId }),
    ...(first?.line !== undefined && { line: first.line }),
    ...(first?.column !== undefined && { column: first.column }),
  }
}
