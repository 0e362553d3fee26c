/**
 * Thread files of any length for the big-thread benchmarks and tests: a real run of a cycle
 * graph (MemorySaver, in Node) exported as the app's thread file, with the graph document.
 */
import { MemorySaver } from '../src/core/checkpoint/memorySaver'
import type { CheckpointTuple } from '../src/core/checkpoint/types'
import { compileGraph } from '../src/core/compile/compileGraph'
import { evaluateLocally } from '../src/core/compile/evaluate'
import type { GraphSpec } from '../src/core/graph/schema'
import { GraphRuntime } from '../src/core/pregel/runtime'
import { createCountingEnv } from '../src/lib/env'

/** A cycle whose every step writes a counter and a ~600-character note. */
export function cycleDoc(steps: number): GraphSpec {
  return {
    superstep: 1,
    name: `cycle-${steps}`,
    state: [{ name: 'n', reducer: 'add', default: 0 }, { name: 'note' }],
    nodes: [
      {
        id: 'inc',
        code: "(s) => ({ n: 1, note: `step ${s.n} `.padEnd(600, 'abcdefghij') })",
      },
    ],
    edges: [{ from: '__start__', to: 'inc' }],
    branches: [
      {
        from: 'inc',
        router: `(s) => s.n < ${steps} ? 'inc' : '__end__'`,
        paths: ['inc', '__end__'],
      },
    ],
  }
}

/** The thread file of a `steps`-step run (steps + 2 checkpoints), as the app exports it. */
export async function makeThreadFile(steps: number, threadId = 'bench:t') {
  const doc = cycleDoc(steps)
  const env = createCountingEnv()
  const saver = new MemorySaver()
  const graph = compileGraph(doc, { evaluate: evaluateLocally, newId: env.newId })
  const runtime = new GraphRuntime({ graph, saver, env })
  await runtime.invoke({ n: 0 }, { threadId, recursionLimit: steps + 10 })
  const checkpoints: CheckpointTuple[] = []
  for await (const t of saver.list({ threadId })) checkpoints.push(t)
  checkpoints.reverse()
  return {
    superstepThread: 1 as const,
    threadId,
    name: `run of ${steps}`,
    checkpoints,
    taskRuns: [],
    graph: doc,
  }
}
