/**
 * What checkpoints cost in storage: a real 1,000-step run of a graph whose state holds a
 * 1 MB field that no node touches plus a small counter, on MemorySaver and on
 * DexieCheckpointSaver (over fake-indexeddb in Node). Prints the bytes stored next to the
 * naive figure (the whole state in every checkpoint).  Run: npm run bench
 */
import { performance } from 'node:perf_hooks'
import { indexedDB, IDBKeyRange } from 'fake-indexeddb'
import { systemEnv } from '../src/lib/env'
import { MemorySaver } from '../src/core/checkpoint/memorySaver'
import type { CheckpointSaver } from '../src/core/checkpoint/types'
import { compileGraph } from '../src/core/compile/compileGraph'
import { evaluateLocally } from '../src/core/compile/evaluate'
import type { GraphSpec } from '../src/core/graph/schema'
import { GraphRuntime } from '../src/core/pregel/runtime'
import { SuperstepDb } from '../src/persistence/db'
import { DexieCheckpointSaver } from '../src/persistence/dexieSaver'

const STEPS = 1000
const TARGET_BYTES = 3 * 1024 * 1024
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MB`

const spec: GraphSpec = {
  superstep: 1,
  name: 'big-untouched-field',
  state: [{ name: 'blob' }, { name: 'n', reducer: 'add', default: 0 }],
  nodes: [{ id: 'inc', code: '(s) => ({ n: 1 })' }],
  edges: [{ from: '__start__', to: 'inc' }],
  branches: [
    { from: 'inc', router: `(s) => s.n < ${STEPS} ? 'inc' : '__end__'`, paths: ['inc', '__end__'] },
  ],
}

async function measure(
  label: string,
  saver: CheckpointSaver & { storedBytes(t?: string): number | Promise<number> },
) {
  const graph = compileGraph(spec, { evaluate: evaluateLocally, newId: systemEnv.newId })
  const runtime = new GraphRuntime({ graph, saver, env: systemEnv })
  const t0 = performance.now()
  await runtime.invoke(
    { blob: 'x'.repeat(1024 * 1024), n: 0 },
    { threadId: 't', recursionLimit: STEPS + 10 },
  )
  const ms = performance.now() - t0
  let checkpoints = 0
  let naive = 0
  for await (const tuple of saver.list({ threadId: 't' })) {
    checkpoints++
    naive += JSON.stringify(tuple.checkpoint.channel_values).length
  }
  const stored = await saver.storedBytes('t')
  const ok = stored < TARGET_BYTES
  console.log(
    `${label.padEnd(34)} ${String(checkpoints).padStart(5)} checkpoints  stored ${mb(stored).padStart(9)}  ` +
      `naive ${mb(naive).padStart(10)}  ${(naive / stored).toFixed(0)}x smaller  ` +
      `${(ms / checkpoints).toFixed(2)} ms/checkpoint  ${ok ? 'under 3 MB' : 'OVER 3 MB'}`,
  )
  return ok
}

console.log(`A ${STEPS}-step run over a 1 MB field no node touches, plus a counter:\n`)
const results = [
  await measure('MemorySaver', new MemorySaver()),
  await measure(
    'DexieCheckpointSaver (fake-indexeddb)',
    new DexieCheckpointSaver(new SuperstepDb(`bench-${Date.now()}`, { indexedDB, IDBKeyRange })),
  ),
]
if (results.includes(false)) process.exitCode = 1
