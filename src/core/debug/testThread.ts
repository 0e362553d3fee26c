/**
 * Test support for the debugger model: a graph on a fresh MemorySaver with a counting env,
 * and every checkpoint of its thread inspected, oldest first.
 */
import { createCountingEnv } from '../../lib/env'
import { MemorySaver } from '../checkpoint/memorySaver'
import type { CheckpointTuple } from '../checkpoint/types'
import { compileGraph } from '../compile/compileGraph'
import { evaluateLocally } from '../compile/evaluate'
import { parseGraph } from '../graph/validate'
import { GraphRuntime } from '../pregel/runtime'
import { inspectCheckpoint } from './inspect'
import type { CheckpointInspection } from './types'

/** A node of a graph document. */
export const node = (id: string, code: string, extra: object = {}) => ({ id, code, ...extra })
/** An edge (a list `from` is a join). */
export const edge = (from: string | string[], to: string) => ({ from, to })

/** A graph document (without the header) on thread `t`; `inspect()` inspects every checkpoint. */
export function threadOf(doc: Record<string, unknown>) {
  const parsed = parseGraph({ superstep: 1, name: 't', ...doc })
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues))
  const env = createCountingEnv()
  const graph = compileGraph(parsed.spec, { evaluate: evaluateLocally, newId: env.newId })
  const saver = new MemorySaver()
  const runtime = new GraphRuntime({ graph, saver, env })
  const cfg = { threadId: 't' }
  const inspect = async (): Promise<CheckpointInspection[]> => {
    const all: CheckpointTuple[] = []
    for await (const t of saver.list(cfg)) all.unshift(t)
    const byId = new Map(all.map((t) => [t.config.checkpointId, t]))
    const parentOf = (t: CheckpointTuple) => t.parentConfig && byId.get(t.parentConfig.checkpointId)
    return Promise.all(all.map((t) => inspectCheckpoint(graph, t, parentOf(t))))
  }
  const invoke = async (input: unknown) => {
    try {
      await runtime.invoke(input, cfg)
    } catch {
      // a failed step keeps its checkpoint and pending writes: what some tests inspect
    }
  }
  return { runtime, cfg, invoke, inspect }
}

/** Each node's schedule sentence. */
export const reasons = (i: CheckpointInspection | undefined): Record<string, string> =>
  Object.fromEntries((i?.schedule ?? []).map((s) => [s.node, s.reason]))
