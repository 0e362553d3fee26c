import { describe, expect, it } from 'vitest'
import type { RunnableConfig } from '@langchain/core/runnables'
import { createCountingEnv } from '../lib/env'
import { MemorySaver } from '../core/checkpoint/memorySaver'
import { compileGraph } from '../core/compile/compileGraph'
import { evaluateLocally } from '../core/compile/evaluate'
import { parseGraph } from '../core/graph/validate'
import { GraphRuntime } from '../core/pregel/runtime'
import type { StateSnapshot } from '../core/pregel/state'
import { runGraph } from '../core/run'
import { buildLangGraph, normalizeState, type GraphDocumentJson } from './oracle'

/** A breakpoint two levels down: parent → child (graph node) → grandchild (graph node). */
const doc: GraphDocumentJson = {
  superstep: 1,
  name: 'nested',
  state: [{ name: 'myKey' }],
  nodes: [
    { id: 'parent1', code: "(s) => ({ myKey: 'hi ' + s.myKey })" },
    { id: 'child', kind: 'graph', graph: 'child' },
    { id: 'parent2', code: "(s) => ({ myKey: s.myKey + ' and back again' })" },
  ],
  edges: [
    { from: '__start__', to: 'parent1' },
    { from: 'parent1', to: 'child' },
    { from: 'child', to: 'parent2' },
  ],
  subgraphs: {
    child: {
      state: [{ name: 'myKey' }],
      nodes: [{ id: 'child1', kind: 'graph', graph: 'grandchild' }],
      edges: [{ from: '__start__', to: 'child1' }],
    },
    grandchild: {
      state: [{ name: 'myKey' }],
      nodes: [
        { id: 'g1', code: "(s) => ({ myKey: s.myKey + ' here' })" },
        { id: 'g2', code: "(s) => ({ myKey: s.myKey + ' and there' })" },
      ],
      edges: [
        { from: '__start__', to: 'g1' },
        { from: 'g1', to: 'g2' },
      ],
      interruptBefore: ['g2'],
    },
  },
}

/** The nested states as both runtimes show them: values, next and each task's state. */
interface Nested {
  values: Record<string, unknown>
  next: string[]
  tasks: { name: string; state: Nested | null }[]
}

function ours(s: StateSnapshot): Nested {
  return {
    values: s.values,
    next: s.next,
    tasks: s.tasks.map((t) => ({ name: t.name, state: t.state ? ours(t.state) : null })),
  }
}

interface TheirSnapshot {
  values: unknown
  next: readonly string[]
  tasks: readonly { name: string; state?: unknown }[]
}

function theirs(s: TheirSnapshot): Nested {
  return {
    values: normalizeState(s.values, ['myKey']),
    next: [...s.next],
    tasks: s.tasks.map((t) => ({
      name: t.name,
      state: t.state && 'values' in (t.state as object) ? theirs(t.state as TheirSnapshot) : null,
    })),
  }
}

function runtime() {
  const parsed = parseGraph(doc)
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues))
  const env = createCountingEnv()
  const graph = compileGraph(parsed.spec, { evaluate: evaluateLocally, newId: env.newId })
  return new GraphRuntime({ graph, saver: new MemorySaver(), env })
}

describe('subgraphs: getState, namespaces, errors', () => {
  it('getState with subgraphs shows each level paused inside, as LangGraph.js does', async () => {
    const built = buildLangGraph(doc)
    const graph = built.graph as unknown as {
      invoke(i: unknown, c: RunnableConfig): Promise<unknown>
      getState(c: RunnableConfig, o: { subgraphs: boolean }): Promise<TheirSnapshot>
    }
    const cfg = { configurable: { thread_id: 't' } }
    await graph.invoke({ myKey: 'my value' }, cfg)
    const expected = theirs(await graph.getState(cfg, { subgraphs: true }))

    const rt = runtime()
    await rt.invoke({ myKey: 'my value' }, { threadId: 't' })
    const snapshot = await rt.getState({ threadId: 't' }, { subgraphs: true })
    expect(snapshot && ours(snapshot)).toEqual(expected)
    // Three levels: child's task child1 holds the grandchild paused before g2.
    expect(expected.tasks[0]?.state?.tasks[0]?.state?.next).toEqual(['g2'])
    // Without the option, no task has a state.
    expect((await rt.getState({ threadId: 't' }))?.tasks.map((t) => t.state)).toEqual([undefined])
  })

  it('reads and lists a subgraph namespace through the runtime', async () => {
    const rt = runtime()
    await rt.invoke({ myKey: 'v' }, { threadId: 't' })
    const root = await rt.getState({ threadId: 't' }, { subgraphs: true })
    const child = root?.tasks[0]?.state
    const ns = child?.config.checkpointNs
    expect(ns).toMatch(/^child:[0-9a-f]{32}$/)
    const history = await rt.getStateHistory({ threadId: 't', checkpointNs: ns as string })
    expect(history.map((s) => [s.metadata.step, s.next])).toEqual([
      [0, ['child1']],
      [-1, ['__start__']],
    ])
  })

  it('refuses to run from a subgraph checkpoint, naming the namespace', async () => {
    const rt = runtime()
    await rt.invoke({ myKey: 'v' }, { threadId: 't' })
    const ns = (await rt.getState({ threadId: 't' }, { subgraphs: true }))?.tasks[0]?.state?.config
      .checkpointNs as string
    await expect(rt.invoke(null, { threadId: 't', checkpointNs: ns })).rejects.toThrow(
      `namespace "${ns}" on thread t`,
    )
  })

  it('names the failing node inside a subgraph and the path to it', async () => {
    const failing = structuredClone(doc)
    const grandchild = failing.subgraphs?.grandchild
    if (!grandchild) throw new Error('no grandchild')
    grandchild.nodes[0] = { id: 'g1', code: "() => { throw new RangeError('too deep') }" }
    const parsed = parseGraph(failing)
    if (!parsed.ok) throw new Error('invalid')
    const report = await runGraph(parsed.spec, { input: { myKey: 'v' }, env: createCountingEnv() })
    expect(report.status).toBe('error')
    expect(report.error).toMatchObject({
      name: 'RangeError',
      message: 'too deep',
      node: 'g1',
      ns: ['child', 'child1'],
    })
    expect(report.subgraphCheckpoints?.map((c) => [c.ns, c.step, c.next])).toEqual([
      [['child'], -1, ['__start__']],
      [['child'], 0, ['child1']],
      [['child', 'child1'], -1, ['__start__']],
      [['child', 'child1'], 0, ['g1']],
    ])
  })

  it('keeps the report of a graph without subgraphs free of the subgraph keys', async () => {
    const plain = parseGraph({
      ...doc,
      nodes: doc.nodes.slice(0, 1),
      edges: [{ from: '__start__', to: 'parent1' }],
      subgraphs: undefined,
    })
    if (!plain.ok) throw new Error('invalid')
    const report = await runGraph(plain.spec, { input: { myKey: 'v' }, env: createCountingEnv() })
    expect(Object.keys(report)).toEqual([
      'status',
      'values',
      'checkpoints',
      'interrupts',
      'error',
      'warnings',
    ])
  })
})
