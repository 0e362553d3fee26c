import { describe, expect, it } from 'vitest'
import type { Checkpoint, CheckpointSaver } from '../core/checkpoint/types'
import { MemorySaver } from '../core/checkpoint/memorySaver'
import { compileGraph } from '../core/compile/compileGraph'
import { evaluateLocally } from '../core/compile/evaluate'
import { parseGraph } from '../core/graph/validate'
import { Run } from '../core/pregel/loop'
import { createCountingEnv } from '../lib/env'
import type { WorkerEvent } from './protocol'
import { toWorkerEvent } from './runEvents'

/** START → n0 → n1 → … → n{count-1}, each adding 1 to `n`. */
function chain(count: number) {
  const ids = Array.from({ length: count }, (_, i) => `n${i}`)
  const parsed = parseGraph({
    superstep: 1,
    name: 'chain',
    state: [{ name: 'n', reducer: 'add', default: 0 }],
    nodes: ids.map((id) => ({ id, code: '(s) => ({ n: 1 })' })),
    edges: ids.map((id, i) => ({ from: i === 0 ? '__start__' : (ids[i - 1] as string), to: id })),
  })
  if (!parsed.ok) throw new Error('invalid graph')
  return parsed.spec
}

/** Runs `count` nodes on `saver`, keeping the worker events as the worker makes them. */
async function eventsOf(saver: CheckpointSaver, count: number) {
  const env = createCountingEnv()
  const graph = compileGraph(chain(count), { evaluate: evaluateLocally, newId: env.newId })
  const events: WorkerEvent[] = []
  const base = { threadId: 't', runId: 'r' }
  const onEvent = (e: Parameters<typeof toWorkerEvent>[0]) =>
    events.push(toWorkerEvent(e, base, () => 0))
  const run = await Run.start({ graph, saver, env, onEvent }, {}, { threadId: 't' })
  await run.toEnd()
  return events
}

/** A saver that is not incremental: it owns the objects it is handed. */
class WholeSaver extends MemorySaver {
  override readonly incremental = false as unknown as true
}

describe('toWorkerEvent', () => {
  for (const [name, make] of [
    ['an incremental saver', () => new MemorySaver()],
    ['a saver that owns what it is given', () => new WholeSaver()],
  ] as const) {
    it(`a checkpoint_saved event carries what that checkpoint changed (${name})`, async () => {
      const saver = make()
      const events = await eventsOf(saver, 4)
      const saved = events.flatMap((e) => (e.type === 'checkpoint_saved' ? [e] : []))
      expect(saved.length).toBe(6)
      // Folded in order, the events' versions are each stored checkpoint's versions, and each
      // event holds only channels whose version that checkpoint changed.
      let folded: Record<string, number | string> = {}
      for (const e of saved) {
        const tuple = await saver.getTuple({ threadId: 't', checkpointId: e.checkpointId })
        const stored = (tuple?.checkpoint as Checkpoint).channel_versions
        for (const [ch, v] of Object.entries(e.versions)) expect(folded[ch], ch).not.toBe(v)
        folded = { ...folded, ...e.versions }
        expect(folded).toEqual(stored)
      }
      // A step's event names the channels it consumed and wrote, not every channel.
      expect(saved.map((e) => Object.keys(e.versions).sort().join(' '))).toEqual([
        '__start__',
        '__start__ branch:to:n0',
        'branch:to:n0 branch:to:n1 n',
        'branch:to:n1 branch:to:n2 n',
        'branch:to:n2 branch:to:n3 n',
        'branch:to:n3 n',
      ])
      // Later steps did not write into an earlier event's map.
      expect(Object.keys(saved[1]?.versions ?? {})).not.toContain('branch:to:n3')
    })
  }
})
