/**
 * Storage cost of a 1,000-step run, in checkpoint terms: a state with a 1 MB string `blob`
 * that never changes and a counter `n` that changes every step, checkpointed the way the
 * loop does it (each put carries only the channels in `newVersions`). Compares what
 * MemorySaver and DexieCheckpointSaver (over fake-indexeddb) store with the naive figure of
 * storing the whole state at every checkpoint.  Run: npx tsx bench/storage.bench.ts
 *
 * The runtime is not involved yet (its API is being rewritten): this simulates its puts.
 */
import { performance } from 'node:perf_hooks'
import { indexedDB, IDBKeyRange } from 'fake-indexeddb'
import { MemorySaver } from '../src/core/checkpoint/memorySaver'
import type {
  ChannelVersions,
  Checkpoint,
  CheckpointConfig,
  CheckpointSaver,
} from '../src/core/checkpoint/types'
import { SuperstepDb } from '../src/persistence/db'
import { DexieCheckpointSaver } from '../src/persistence/dexieSaver'

const CHECKPOINTS = 1000
const BLOB = 'x'.repeat(1024 * 1024)
const TARGET_BYTES = 3 * 1024 * 1024
const BRANCH = 'branch:to:loop'

const jsonBytes = (v: unknown) => JSON.stringify(v)?.length ?? 0
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MB`

/**
 * The channel writes of each checkpoint, as the loop makes them: the input checkpoint holds
 * the input in `__start__`; step 0 writes the state from it and clears `__start__`; every
 * later step bumps `n` and the cycle's trigger channel.
 */
function writesOf(step: number): { set: Record<string, unknown>; cleared: string[] } {
  if (step === -1) return { set: { __start__: { blob: BLOB, n: 0 } }, cleared: [] }
  if (step === 0) return { set: { blob: BLOB, n: 0, [BRANCH]: null }, cleared: ['__start__'] }
  return { set: { n: step, [BRANCH]: null }, cleared: [] }
}

/** Puts the run's CHECKPOINTS checkpoints; returns the naive whole-state byte count. */
async function simulateRun(saver: CheckpointSaver, threadId: string): Promise<number> {
  const versions: ChannelVersions = {}
  /** Each channel's current value size as JSON (computed once per write, outside the put). */
  const sizes = new Map<string, number>()
  let naive = 0
  let config: CheckpointConfig = { threadId }
  for (let step = -1; step < CHECKPOINTS - 1; step++) {
    const { set, cleared } = writesOf(step)
    const newVersions: ChannelVersions = {}
    for (const ch of [...Object.keys(set), ...cleared]) {
      versions[ch] = (versions[ch] ?? 0) + 1
      newVersions[ch] = versions[ch]
    }
    for (const ch in set) sizes.set(ch, jsonBytes(set[ch]))
    for (const ch of cleared) sizes.delete(ch)
    const checkpoint: Checkpoint = {
      v: 1,
      id: `00000000-0000-4000-8000-${String(step + 2).padStart(12, '0')}`,
      ts: new Date(Date.UTC(2026, 0, 1, 0, 0, 0, step + 1)).toISOString(),
      // Only the new versions' values; a cleared channel is in newVersions, not here.
      channel_values: set,
      channel_versions: { ...versions },
      versions_seen: step >= 1 ? { loop: { [BRANCH]: versions[BRANCH] ?? 0 } } : {},
    }
    const metadata = { source: step === -1 ? 'input' : 'loop', step, parents: {} } as const
    config = await saver.put(config, checkpoint, metadata, newVersions)
    // What a saver that stores the whole state at every checkpoint would hold.
    for (const size of sizes.values()) naive += size
  }
  return naive
}

async function measure(label: string, saver: CheckpointSaver, stored: () => Promise<number>) {
  const t0 = performance.now()
  const naive = await simulateRun(saver, 'bench')
  const ms = performance.now() - t0
  const bytes = await stored()
  const latest = await saver.getTuple({ threadId: 'bench' })
  if (
    latest?.checkpoint.channel_values.blob !== BLOB ||
    latest.checkpoint.channel_values.n !== CHECKPOINTS - 2
  )
    throw new Error(`${label}: the latest checkpoint does not read back the full state`)
  return { label, bytes, naive, ms }
}

const memory = new MemorySaver()
const dexie = new DexieCheckpointSaver(
  new SuperstepDb(`storage-bench-${Date.now()}`, { indexedDB, IDBKeyRange }),
)
const rows = [
  await measure('MemorySaver', memory, async () => memory.storedBytes('bench')),
  await measure('DexieCheckpointSaver (fake-indexeddb)', dexie, () => dexie.storedBytes('bench')),
]
dexie.db.close()

console.log(
  `Storage of a ${CHECKPOINTS.toLocaleString('en')}-checkpoint run: a 1 MB string that never` +
    ' changes + a counter that changes every step (the input holds the 1 MB string too).\n',
)
let ok = true
for (const r of rows) {
  ok &&= r.bytes < TARGET_BYTES
  console.log(
    `${r.label.padEnd(40)} stored ${mb(r.bytes).padStart(10)}   naive ${mb(r.naive).padStart(11)}` +
      `   stored/naive ${(r.bytes / r.naive).toExponential(2)}   (${(r.naive / r.bytes).toFixed(0)}x smaller)` +
      `   ${(r.ms / CHECKPOINTS).toFixed(3)} ms/put`,
  )
}
console.log(`\nTarget: under ${mb(TARGET_BYTES)} stored — ${ok ? 'met' : 'MISSED'}.`)
if (!ok) process.exitCode = 1
