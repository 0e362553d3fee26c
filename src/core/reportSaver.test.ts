import { describe, expect, it } from 'vitest'
import { createCountingEnv } from '../lib/env'
import { MemorySaver } from './checkpoint/memorySaver'
import { NULL_TASK_ID, type Checkpoint, type CheckpointTuple } from './checkpoint/types'
import { compileGraph } from './compile/compileGraph'
import { evaluateLocally } from './compile/evaluate'
import type { GraphSpec } from './graph/schema'
import { parseGraph } from './graph/validate'
import { GraphRuntime } from './pregel/runtime'
import { ReportSaver } from './reportSaver'

/** Runs `spec` once on a saver and returns the runtime's outcome (or its error's name). */
async function runOn(spec: GraphSpec, saver: MemorySaver | ReportSaver, input: unknown) {
  const parsed = parseGraph(spec)
  if (!parsed.ok) throw new Error(`invalid graph ${spec.name}`)
  const env = createCountingEnv()
  const graph = compileGraph(parsed.spec, { evaluate: evaluateLocally, newId: env.newId })
  const runtime = new GraphRuntime({ graph, saver, env })
  try {
    return (await runtime.invoke(input, { threadId: 't', recursionLimit: 50 })).status
  } catch (e) {
    return (e as Error).name
  }
}

const graphs: { spec: GraphSpec; input: unknown }[] = [
  {
    // A node that changes its state in place: the saver's copies keep the history as it was.
    spec: {
      superstep: 1,
      name: 'mutating-cycle',
      state: [{ name: 'items', reducer: 'overwrite', default: [] }, { name: 'n' }],
      nodes: [
        {
          id: 'grow',
          code: '(s) => { s.items.push(s.items.length); return { n: s.items.length } }',
        },
      ],
      edges: [{ from: '__start__', to: 'grow' }],
      branches: [
        { from: 'grow', router: "(s) => s.n < 4 ? 'grow' : '__end__'", paths: ['grow', '__end__'] },
      ],
    },
    input: {},
  },
  {
    spec: {
      superstep: 1,
      name: 'fan-out',
      state: [
        { name: 'items', reducer: 'overwrite' },
        { name: 'results', reducer: 'append', default: [] },
        { name: 'total' },
      ],
      nodes: [
        { id: 'work', code: '(s) => ({ results: [s.item * 2] })' },
        { id: 'collect', code: '(s) => ({ total: s.results.length })' },
      ],
      edges: [{ from: 'work', to: 'collect' }],
      branches: [
        {
          from: '__start__',
          router: "(s) => s.items.map((item) => new Send('work', { item }))",
          paths: ['work'],
        },
      ],
    },
    input: { items: [1, 2, 3] },
  },
  {
    // Two parallel tasks, one interrupts: the newest checkpoint keeps the other's writes.
    spec: {
      superstep: 1,
      name: 'interrupt',
      state: [{ name: 'log', reducer: 'append', default: [] }],
      nodes: [
        { id: 'a', code: "(s) => ({ log: ['a'] })" },
        { id: 'b', code: "(s) => ({ log: [interrupt('why?')] })" },
      ],
      edges: [
        { from: '__start__', to: 'a' },
        { from: '__start__', to: 'b' },
      ],
    },
    input: {},
  },
  {
    spec: {
      superstep: 1,
      name: 'error',
      state: [{ name: 'n', reducer: 'add', default: 0 }],
      nodes: [
        { id: 'ok', code: '(s) => ({ n: 1 })' },
        { id: 'bad', code: "(s) => { throw new Error('no') }" },
      ],
      edges: [
        { from: '__start__', to: 'ok' },
        { from: 'ok', to: 'bad' },
      ],
    },
    input: {},
  },
]

describe('ReportSaver', () => {
  for (const { spec, input } of graphs) {
    it(`hands on each checkpoint as MemorySaver stores it, and keeps the newest: ${spec.name}`, async () => {
      const seen: CheckpointTuple[] = []
      const saver = new ReportSaver((t) => seen.push(structuredClone(t)))
      const memory = new MemorySaver()
      const status = await runOn(spec, saver, structuredClone(input))
      expect(await runOn(spec, memory, structuredClone(input))).toBe(status)
      const stored = [...memory.inPutOrder('t')].map((t) => structuredClone(t))
      expect(seen.length).toBeGreaterThan(1)
      expect(seen.length).toBe(stored.length)
      // Handed on before its writes came: only the newest has any.
      seen.forEach((t, i) => expect(t).toEqual({ ...stored[i], pendingWrites: [] }))
      const newest = await memory.getTuple({ threadId: 't' })
      expect(await saver.getTuple({ threadId: 't' })).toEqual(newest)
      const listed: CheckpointTuple[] = []
      for await (const t of saver.list({ threadId: 't' })) listed.push(t)
      expect(listed).toEqual([newest])
      // The older checkpoints are gone.
      const first = stored[0]?.config.checkpointId as string
      expect(await saver.getTuple({ threadId: 't', checkpointId: first })).toBeUndefined()
    })
  }

  it('has the other task’s writes and the interrupt in the newest checkpoint', async () => {
    const saver = new ReportSaver(() => {})
    expect(await runOn(graphs[2]!.spec, saver, {})).toBe('interrupted')
    const writes = (await saver.getTuple({ threadId: 't' }))?.pendingWrites ?? []
    expect(writes.map((w) => w[1]).sort()).toEqual(['__interrupt__', 'log'])
  })

  const checkpoint = (id: string): Checkpoint => ({
    v: 1,
    id,
    ts: '2026-01-01T00:00:00.000Z',
    channel_values: { n: 1 },
    channel_versions: { n: 1 },
    versions_seen: {},
  })
  const meta = { source: 'loop' as const, step: 0, parents: {} }

  it('keeps its own copy of a value, so a node changing it in place rewrites nothing', () => {
    const seen: unknown[] = []
    const saver = new ReportSaver((t) => seen.push(structuredClone(t.checkpoint.channel_values)))
    const items = [1]
    const first = { ...checkpoint('c1'), channel_values: { items }, channel_versions: { items: 1 } }
    const at = saver.putSync({ threadId: 't' }, first, meta, { items: 1 })
    items.push(2) // after the save, as a node of the next step could
    saver.putWritesSync(at, [['items', items]], 'task')
    items.push(3)
    saver.putSync(at, { ...first, id: 'c2', channel_values: {} }, meta, {}, new Set())
    expect(seen).toEqual([{ items: [1] }, { items: [1] }])
    return saver
      .getTuple({ threadId: 't' })
      .then((tuple) => expect(tuple?.checkpoint.channel_values).toEqual({ items: [1] }))
  })

  it('keeps the newest checkpoint’s writes by LangGraph’s rules, as MemorySaver does', async () => {
    const calls: [string, [string, unknown][]][] = [
      ['task', [['n', 1]]],
      ['task', [['n', 2]]], // the same (task, index): the first stays
      ['task', [['__error__', 'e1']]],
      ['task', [['__error__', 'e2']]], // a special channel: replaced in place
      ['other', [['n', 3]]],
      [
        'third',
        [
          ['__error__', 'e3'],
          ['list', 4],
          ['list', 5],
        ],
      ], // (task, index): 1 and 2
      [
        'third',
        [
          ['list', 6],
          ['list', 7],
          ['list', 8],
        ],
      ], // index 0 is new, 1 and 2 stay
    ]
    const saver = new ReportSaver(() => {})
    const memory = new MemorySaver()
    for (const s of [saver, memory]) {
      const at = await s.put({ threadId: 't' }, checkpoint('c1'), meta, { n: 1 })
      for (const [task, writes] of calls) await s.putWrites(at, writes, task)
    }
    const expected = (await memory.getTuple({ threadId: 't' }))?.pendingWrites
    expect(expected).toHaveLength(7)
    expect((await saver.getTuple({ threadId: 't' }))?.pendingWrites).toEqual(expected)
  })

  it('refuses what would change a checkpoint already handed on, or another history', () => {
    const saver = new ReportSaver(() => {})
    const c1 = saver.putSync({ threadId: 't' }, checkpoint('c1'), meta, { n: 1 })
    saver.putSync(c1, checkpoint('c2'), meta, {}, new Set())
    expect(() => saver.putSync(c1, checkpoint('fork'), meta, {}, new Set())).toThrow(
      /parent is not the newest/,
    )
    expect(() => saver.putWritesSync(c1, [['n', 1]], 'task')).toThrow(/not the newest/)
    const c2 = { threadId: 't', checkpointId: 'c2' }
    expect(() => saver.putWritesSync(c2, [['n', 1]], NULL_TASK_ID)).toThrow(/without a task/)
    expect(() =>
      saver.putSync({ ...c2, checkpointNs: 'sub:1' }, checkpoint('s'), meta, {}, new Set()),
    ).toThrow(/namespace/)
    expect(() => saver.putSync({ threadId: 'u' }, checkpoint('u1'), meta, { n: 1 })).toThrow(
      /second thread/,
    )
  })
})
