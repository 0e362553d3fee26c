/**
 * The reference the in-page benches compare with: LangGraph.js running the same graph with
 * its MemorySaver, in Node, in the bench's own process.
 */
import { performance } from 'node:perf_hooks'
import { MemorySaver } from '@langchain/langgraph'
import type { GraphSpec } from '../src/core/graph/schema'
import { buildLangGraph } from '../src/differential/oracle'

/**
 * LangGraph.js, MemorySaver, in Node: ms per super-step of `spec` run from `{}` to its end
 * (`supersteps` of them), the median of 7 runs after 3 to warm up.
 */
export async function langGraphPerStep(spec: GraphSpec, supersteps: number): Promise<number> {
  const { graph } = buildLangGraph(spec as Parameters<typeof buildLangGraph>[0])
  const times: number[] = []
  for (let i = -3; i < 7; i++) {
    graph.checkpointer = new MemorySaver()
    const t0 = performance.now()
    await graph.invoke(
      {},
      { configurable: { thread_id: `t${i}` }, recursionLimit: supersteps + 10 },
    )
    if (i >= 0) times.push((performance.now() - t0) / supersteps)
  }
  return [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)] ?? NaN
}
