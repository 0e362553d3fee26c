import { describe, expect, it } from 'vitest'
import { createCountingEnv } from '../../lib/env'
import { MemorySaver } from '../checkpoint/memorySaver'
import { compileGraph } from '../compile/compileGraph'
import { evaluateLocally } from '../compile/evaluate'
import type { GraphSpec } from '../graph/schema'
import { parseGraph } from '../graph/validate'
import { GraphRuntime } from './runtime'
import { Command } from './types'

function runtimeFor(
  doc: Record<string, unknown>,
  extra: Pick<ConstructorParameters<typeof GraphRuntime>[0], 'onEvent' | 'betweenInnerSteps'> = {},
) {
  const parsed = parseGraph({ superstep: 1, name: 't', ...doc })
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues))
  const env = createCountingEnv()
  const saver = new MemorySaver()
  const graph = compileGraph(parsed.spec as GraphSpec, {
    evaluate: evaluateLocally,
    newId: env.newId,
  })
  return { runtime: new GraphRuntime({ graph, saver, env, ...extra }), saver }
}

const chain = {
  state: [{ name: 'x' }, { name: 'log', reducer: 'append', default: [] }],
  nodes: [
    { id: 'a', code: "(s) => ({ x: 'a', log: ['a'] })" },
    { id: 'b', code: "(s) => ({ x: 'b', log: ['b'] })" },
  ],
  edges: [
    { from: '__start__', to: 'a' },
    { from: 'a', to: 'b' },
  ],
}

async function steps(runtime: GraphRuntime, threadId: string) {
  return (await runtime.getStateHistory({ threadId }))
    .reverse()
    .map((s) => [s.metadata.step, s.metadata.source, s.next, s.values, s.channelVersions])
}

describe('one super-step at a time', () => {
  it('tick() advances exactly one super-step and stepping to the end equals invoke', async () => {
    const stepped = runtimeFor(chain)
    const run = await stepped.runtime.start({ x: 'in' }, { threadId: 't' })
    expect((await stepped.runtime.getState({ threadId: 't' }))?.next).toEqual(['__start__'])
    const seen: string[][] = []
    while ((await run.tick()) === 'running') {
      seen.push((await stepped.runtime.getState({ threadId: 't' }))?.next ?? [])
    }
    expect(seen).toEqual([['a'], ['b'], []])
    expect(run.status).toBe('done')

    const whole = runtimeFor(chain)
    await whole.runtime.invoke({ x: 'in' }, { threadId: 't' })
    expect(await steps(stepped.runtime, 't')).toEqual(await steps(whole.runtime, 't'))
  })
})

describe('threads', () => {
  it('a second invoke continues the thread: input through the reducers, steps counting on', async () => {
    const { runtime } = runtimeFor(chain)
    await runtime.invoke({ x: '1' }, { threadId: 't' })
    await runtime.invoke({ x: '2' }, { threadId: 't' })
    const s = await steps(runtime, 't')
    expect(s.map(([step, source]) => [step, source])).toEqual([
      [-1, 'input'],
      [0, 'loop'],
      [1, 'loop'],
      [2, 'loop'],
      [3, 'input'],
      [4, 'loop'],
      [5, 'loop'],
      [6, 'loop'],
    ])
    expect((await runtime.getState({ threadId: 't' }))?.values).toEqual({
      x: 'b',
      log: ['a', 'b', 'a', 'b'],
    })
  })

  it('threads are independent', async () => {
    const { runtime } = runtimeFor(chain)
    await runtime.invoke({ x: '1' }, { threadId: 'one' })
    expect(await runtime.getState({ threadId: 'two' })).toBeUndefined()
  })
})

describe('interrupt() in a node', () => {
  const ask = {
    state: [{ name: 'answer' }, { name: 'log', reducer: 'append', default: [] }],
    nodes: [
      {
        id: 'ask',
        code: "async (s) => { await null; const a = interrupt('first?'); const b = interrupt('second?'); return { answer: a + b, log: ['ask'] } }",
      },
    ],
    edges: [{ from: '__start__', to: 'ask' }],
  }

  it('pauses with the payload, re-runs the node on each resume, even across an await', async () => {
    const { runtime } = runtimeFor(ask)
    const r1 = await runtime.invoke({}, { threadId: 't' })
    expect(r1.status).toBe('interrupted')
    expect(r1.interrupts.map((i) => [i.node, i.value])).toEqual([['ask', 'first?']])
    const paused = await runtime.getState({ threadId: 't' })
    expect(paused?.next).toEqual(['ask'])
    expect(paused?.tasks[0]?.interrupts.map((i) => i.value)).toEqual(['first?'])

    const r2 = await runtime.invoke(new Command({ resume: 'A' }), { threadId: 't' })
    expect(r2.interrupts.map((i) => i.value)).toEqual(['second?'])
    const r3 = await runtime.invoke(new Command({ resume: 'B' }), { threadId: 't' })
    expect(r3.status).toBe('done')
    expect((await runtime.getState({ threadId: 't' }))?.values).toEqual({
      answer: 'AB',
      log: ['ask'],
    })
  })

  it('an interrupt id addresses one interrupt in a resume map', async () => {
    const { runtime } = runtimeFor(ask)
    const r1 = await runtime.invoke({}, { threadId: 't' })
    const id = r1.interrupts[0]?.id as string
    expect(id).toMatch(/^[0-9a-f]{32}$/)
    const r2 = await runtime.invoke(new Command({ resume: { [id]: 'X' } }), { threadId: 't' })
    expect(r2.interrupts.map((i) => i.value)).toEqual(['second?'])
  })
})

describe('updateState and forks', () => {
  it('an update on an old checkpoint branches history and the original stays', async () => {
    const { runtime } = runtimeFor(chain)
    await runtime.invoke({ x: 'in' }, { threadId: 't' })
    const history = (await runtime.getStateHistory({ threadId: 't' })).reverse()
    const afterA = history[2]?.config.checkpointId as string
    const fork = await runtime.updateState(
      { threadId: 't', checkpointId: afterA },
      { x: 'forked' },
      'a',
    )
    const forked = await runtime.getState(fork)
    expect(forked?.metadata.source).toBe('update')
    expect(forked?.parentConfig?.checkpointId).toBe(afterA)
    expect(forked?.next).toEqual(['b'])
    await runtime.invoke(null, { threadId: 't', checkpointId: fork.checkpointId })
    expect((await runtime.getState({ threadId: 't' }))?.values.x).toBe('b')
    // The original branch is still there, untouched.
    expect(
      (await runtime.getState({ threadId: 't', checkpointId: history[3]?.config.checkpointId }))
        ?.values,
    ).toEqual({
      x: 'b',
      log: ['a', 'b'],
    })
  })
})

describe("a subgraph's run seen from its parent's", () => {
  it('reports its events with their namespace and waits between its super-steps', async () => {
    const events: [string, string, number][] = []
    const waits: string[] = []
    const { runtime } = runtimeFor(
      {
        ...chain,
        nodes: [{ id: 'team', kind: 'graph', graph: 'inner' }],
        edges: [{ from: '__start__', to: 'team' }],
        subgraphs: { inner: chain },
      },
      {
        onEvent: (e) => {
          if (e.type === 'checkpoint_saved') events.push([e.ns ?? '', e.type, e.step])
        },
        betweenInnerSteps: async (ns) => {
          // The subgraph's latest checkpoint is stored before it waits.
          waits.push(`${ns.split(':')[0]} after ${events[events.length - 1]?.[2]}`)
        },
      },
    )
    await runtime.invoke({ x: 'in' }, { threadId: 't' })
    const inner = events.filter(([ns]) => ns !== '')
    expect(inner.map(([, , step]) => step)).toEqual([-1, 0, 1, 2])
    expect(new Set(inner.map(([ns]) => ns.split(':')[0]))).toEqual(new Set(['team']))
    expect(events.filter(([ns]) => ns === '').map(([, , step]) => step)).toEqual([-1, 0, 1])
    // It waits after each of its super-steps (its end is found by the tick after the last).
    expect(waits).toEqual(['team after 0', 'team after 1', 'team after 2'])
  })
})
