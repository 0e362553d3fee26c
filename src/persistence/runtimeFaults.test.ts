import 'fake-indexeddb/auto'
import { describe, expect, it } from 'vitest'
import { createCountingEnv } from '../lib/env'
import { FaultySaver, InjectedFaultError } from '../core/checkpoint/faultySaver'
import { MemorySaver } from '../core/checkpoint/memorySaver'
import type {
  ChannelVersions,
  Checkpoint,
  CheckpointConfig,
  CheckpointMetadata,
  CheckpointSaver,
} from '../core/checkpoint/types'
import { compileGraph } from '../core/compile/compileGraph'
import { evaluateLocally } from '../core/compile/evaluate'
import { parseGraph } from '../core/graph/validate'
import { NodeRunError } from '../core/pregel/errors'
import { GraphRuntime } from '../core/pregel/runtime'
import { DexieCheckpointSaver } from './dexieSaver'
import { SuperstepDb } from './db'

/** START fans out to a and b, joined into c, which loops back to START's branches 4 times. */
const doc = {
  superstep: 1,
  name: 'faults',
  state: [
    { name: 'round', reducer: 'add', default: 0 },
    { name: 'log', reducer: 'append', default: [] },
    { name: 'last' },
  ],
  nodes: [
    { id: 'fan', code: '(s) => ({ round: 1 })' },
    { id: 'a', code: "(s) => ({ log: ['a' + s.round] })" },
    { id: 'b', code: "async (s) => { await null; return { log: ['b' + s.round] } }" },
    { id: 'c', code: "(s) => ({ last: s.log.length, log: ['c'] })" },
  ],
  edges: [
    { from: '__start__', to: 'fan' },
    { from: 'fan', to: 'a' },
    { from: 'fan', to: 'b' },
    { from: ['a', 'b'], to: 'c' },
  ],
  branches: [
    { from: 'c', router: "(s) => s.round < 4 ? 'fan' : '__end__'", paths: ['fan', '__end__'] },
  ],
}

/** Remembers the full state every successful put meant to store, to compare with read-backs. */
class RecordingSaver implements CheckpointSaver {
  readonly written = new Map<
    string,
    { values: Record<string, unknown>; versions: ChannelVersions }
  >()
  constructor(private readonly inner: CheckpointSaver) {}
  async put(config: CheckpointConfig, cp: Checkpoint, md: CheckpointMetadata, nv: ChannelVersions) {
    const parent = config.checkpointId ? this.written.get(config.checkpointId) : undefined
    const values: Record<string, unknown> = {}
    for (const ch of Object.keys(cp.channel_versions)) {
      const own = ch in nv || !parent
      if (own ? ch in cp.channel_values : ch in (parent?.values ?? {})) {
        values[ch] = structuredClone(own ? cp.channel_values[ch] : parent?.values[ch])
      }
    }
    const result = await this.inner.put(config, cp, md, nv)
    this.written.set(cp.id, { values, versions: { ...cp.channel_versions } })
    return result
  }
  putWrites: CheckpointSaver['putWrites'] = (...a) => this.inner.putWrites(...a)
  getTuple: CheckpointSaver['getTuple'] = (c) => this.inner.getTuple(c)
  list: CheckpointSaver['list'] = (c, o) => this.inner.list(c, o)
  deleteThread: CheckpointSaver['deleteThread'] = (t) => this.inner.deleteThread(t)
}

function runtimeOn(saver: CheckpointSaver) {
  const parsed = parseGraph(doc)
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues))
  const env = createCountingEnv()
  const graph = compileGraph(parsed.spec, { evaluate: evaluateLocally, newId: env.newId })
  return new GraphRuntime({ graph, saver, env })
}

const savers: [string, () => CheckpointSaver][] = [
  ['MemorySaver', () => new MemorySaver()],
  [
    'DexieCheckpointSaver',
    () => new DexieCheckpointSaver(new SuperstepDb(`faults-${Math.random()}`)),
  ],
]

describe.each(savers)('a run whose writes fail at random points (%s)', (_name, makeSaver) => {
  it('reads every checkpoint back as written, and resuming reaches the uninterrupted result', async () => {
    const clean = runtimeOn(makeSaver())
    await clean.invoke({}, { threadId: 't' })
    const expected = (await clean.getState({ threadId: 't' }))?.values
    expect(expected).toMatchObject({ round: 4, last: 11 })

    for (let seed = 1; seed <= 12; seed++) {
      const recording = new RecordingSaver(makeSaver())
      const faulty = new FaultySaver(recording, { rate: 0.2, seed })
      const runtime = runtimeOn(faulty)
      let attempts = 0
      for (;;) {
        attempts++
        expect(attempts).toBeLessThan(200)
        const started = (await recording.getTuple({ threadId: 't' })) !== undefined
        try {
          const r = await runtime.invoke(started ? null : {}, { threadId: 't' })
          expect(r.status).toBe('done')
          break
        } catch (e) {
          const cause = e instanceof NodeRunError ? e.cause : e
          expect(cause).toBeInstanceOf(InjectedFaultError)
        }
      }
      expect(faulty.faults.length).toBeGreaterThan(0)
      expect((await runtime.getState({ threadId: 't' }))?.values).toEqual(expected)
      for (const [id, { values, versions }] of recording.written) {
        const back = await recording.getTuple({ threadId: 't', checkpointId: id })
        expect(back?.checkpoint.channel_versions).toEqual(versions)
        expect(back?.checkpoint.channel_values).toEqual(values)
      }
    }
  })
})
