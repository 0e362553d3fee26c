import type { RuntimeEnv } from '../lib/env'
import { MemorySaver } from './checkpoint/memorySaver'
import { compileGraph } from './compile/compileGraph'
import { evaluateLocally, type CodeEvaluator } from './compile/evaluate'
import type { GraphSpec } from './graph/schema'
import { errorToJson, NodeRunError, PregelLoop, type LoopEvent } from './pregel/loop'
import { getStateHistory } from './pregel/state'
import type { RuntimeWarning } from './pregel/task'
import type { CheckpointReport, RunReport } from './report'

export interface RunOptions {
  input: unknown
  recursionLimit?: number
  env: RuntimeEnv
  evaluate?: CodeEvaluator
  onEvent?: (e: LoopEvent) => void
}

/** The CLI report plus what only Superstep knows: warnings, and whether a static interrupt paused the run. */
export type RunGraphReport = RunReport & { interrupted: boolean; warnings: RuntimeWarning[] }

/**
 * Runs a validated graph once on a fresh thread with an in-memory saver and reports every
 * checkpoint: what `superstep run` prints. Errors raised by the graph are part of the report.
 */
export async function runGraph(spec: GraphSpec, opts: RunOptions): Promise<RunGraphReport> {
  const graph = compileGraph(spec, {
    evaluate: opts.evaluate ?? evaluateLocally,
    newId: opts.env.newId,
  })
  const saver = new MemorySaver()
  const warnings: RuntimeWarning[] = []
  const loop = new PregelLoop({
    graph,
    saver,
    env: opts.env,
    threadId: 'cli',
    recursionLimit: opts.recursionLimit,
    onEvent: (e) => {
      if (e.type === 'warning') warnings.push(e.warning)
      opts.onEvent?.(e)
    },
  })
  let error: RunReport['error'] = null
  let interrupted = false
  try {
    interrupted = (await loop.run(opts.input)) === 'interrupted'
  } catch (e) {
    const cause = e instanceof NodeRunError ? e.cause : e
    error = { ...errorToJson(cause), ...(e instanceof NodeRunError ? { node: e.node } : {}) }
  }
  const history = await getStateHistory(graph, saver, { threadId: 'cli' })
  const fields = graph.fieldSet
  const checkpoints: CheckpointReport[] = history.reverse().map((s) => ({
    step: s.metadata.step,
    source: s.metadata.source,
    next: s.next,
    values: s.values,
    versions: Object.fromEntries(Object.entries(s.channelVersions).filter(([k]) => fields.has(k))),
  }))
  return {
    status: error ? 'error' : 'done',
    values: checkpoints.at(-1)?.values ?? {},
    checkpoints,
    error,
    interrupted,
    warnings,
  }
}
