import { describe, expect, it } from 'vitest'
import { createCountingEnv } from '../../lib/env'
import { parseGraph } from '../graph/validate'
import type { GraphSpec } from '../graph/schema'
import { createStreamingGraph, streamGraph, type StreamCallOptions } from '../stream'
import { nsNodes } from './namespace'

function spec(doc: Record<string, unknown>): GraphSpec {
  const parsed = parseGraph({ superstep: 1, name: 'g', edges: [], ...doc })
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues))
  return parsed.spec
}

async function collect(s: GraphSpec, input: unknown, opts: StreamCallOptions = {}) {
  const chunks: unknown[] = []
  let error: unknown
  try {
    for await (const c of streamGraph(s, input, { env: createCountingEnv(), ...opts }))
      chunks.push(c)
  } catch (e) {
    error = e
  }
  return { chunks, error }
}

const chain = spec({
  state: [{ name: 'x' }, { name: 'log', reducer: 'append', default: [] }],
  nodes: [
    { id: 'a', code: "(s) => ({ x: s.x + 'a', log: ['a'] })" },
    { id: 'b', code: "(s) => ({ x: s.x + 'b', log: ['b'] })" },
  ],
  edges: [
    { from: '__start__', to: 'a' },
    { from: 'a', to: 'b' },
  ],
})

describe('streamGraph', () => {
  it('streams updates by default, each the bare chunk', async () => {
    const { chunks } = await collect(chain, { x: '' })
    expect(chunks).toEqual([{ a: { x: 'a', log: ['a'] } }, { b: { x: 'ab', log: ['b'] } }])
  })

  it('with several modes gives [mode, chunk]: the input values first, then per step', async () => {
    const { chunks } = await collect(chain, { x: '>' }, { streamMode: ['values', 'updates'] })
    expect(chunks).toEqual([
      ['values', { x: '>', log: [] }],
      ['updates', { a: { x: '>a', log: ['a'] } }],
      ['values', { x: '>a', log: ['a'] }],
      ['updates', { b: { x: '>ab', log: ['b'] } }],
      ['values', { x: '>ab', log: ['a', 'b'] }],
    ])
  })

  it('streams checkpoints linked to their parents, with the tasks each one plans', async () => {
    const { chunks } = await collect(chain, { x: '' }, { streamMode: 'checkpoints' })
    const list = chunks as {
      config: { configurable: { checkpoint_id: string } }
      parentConfig?: { configurable: { checkpoint_id: string } }
      metadata: { step: number; source: string }
      next: string[]
      tasks: { name: string; path: unknown[] }[]
    }[]
    expect(list.map((c) => [c.metadata.step, c.metadata.source, c.next])).toEqual([
      [-1, 'input', ['__start__']],
      [0, 'loop', ['a']],
      [1, 'loop', ['b']],
      [2, 'loop', []],
    ])
    for (let i = 1; i < list.length; i++)
      expect(list[i]?.parentConfig?.configurable.checkpoint_id).toBe(
        list[i - 1]?.config.configurable.checkpoint_id,
      )
    expect(list[0]?.parentConfig).toBeUndefined()
    expect(list[1]?.tasks).toEqual([
      { id: '~__pregel_pull, a', name: 'a', path: ['__pregel_pull', 'a'], interrupts: [] },
    ])
  })

  it('wraps checkpoints and tasks in debug chunks with their step and type', async () => {
    const { chunks } = await collect(chain, { x: '' }, { streamMode: 'debug' })
    const kinds = (chunks as { step: number; type: string }[]).map((c) => `${c.step}:${c.type}`)
    expect(kinds).toEqual([
      '-1:checkpoint',
      '0:checkpoint',
      '1:task',
      '1:task_result',
      '1:checkpoint',
      '2:task',
      '2:task_result',
      '2:checkpoint',
    ])
  })

  it('gives node code and routers (state, config): configurable with defaults, writer for custom', async () => {
    const g = spec({
      config: [
        { name: 'greeting', type: 'string', default: 'hi' },
        { name: 'loud', type: 'boolean', default: false },
      ],
      state: [{ name: 'text' }],
      nodes: [
        {
          id: 'say',
          code: '(s, config) => { config.writer({ saying: config.configurable.greeting }); return { text: config.configurable.loud ? config.configurable.greeting.toUpperCase() : config.configurable.greeting } }',
        },
        { id: 'done', code: "(s) => ({ text: s.text + '.' })" },
      ],
      edges: [{ from: '__start__', to: 'say' }],
      branches: [
        {
          from: 'say',
          router: "(s, config) => config.configurable.thread_id === 't1' ? 'done' : END",
        },
      ],
    })
    const modes: StreamCallOptions['streamMode'] = ['custom', 'values']
    const plain = await collect(g, {}, { streamMode: modes, threadId: 't1' })
    expect(plain.chunks).toEqual([
      ['custom', { saying: 'hi' }],
      ['values', { text: 'hi' }],
      ['values', { text: 'hi.' }],
    ])
    const set = await collect(
      g,
      {},
      { streamMode: modes, configurable: { greeting: 'yo', loud: true } },
    )
    expect(set.chunks).toEqual([
      ['custom', { saying: 'yo' }],
      ['values', { text: 'YO' }],
    ])
  })

  it('ends a run paused at a breakpoint with { __interrupt__: [] } in updates and values', async () => {
    const g = spec({ ...chain, interruptBefore: ['b'] })
    const { chunks } = await collect(g, { x: '' }, { streamMode: ['updates', 'values'] })
    expect(chunks.slice(-2)).toEqual([
      ['updates', { __interrupt__: [] }],
      ['values', { __interrupt__: [] }],
    ])
  })

  it('streams an interrupt() as it happens, then the state with what its siblings wrote', async () => {
    const g = spec({
      state: [{ name: 'log', reducer: 'append', default: [] }],
      nodes: [
        { id: 'ok', code: "() => ({ log: ['ok'] })" },
        { id: 'ask', code: "() => ({ log: [interrupt('why?')] })" },
      ],
      edges: [
        { from: '__start__', to: 'ok' },
        { from: '__start__', to: 'ask' },
      ],
    })
    const { chunks } = await collect(g, {}, { streamMode: ['updates', 'values'] })
    const interrupt = chunks.find(
      (c) =>
        (c as [string, object])[0] === 'updates' && '__interrupt__' in (c as [string, object])[1],
    ) as [string, { __interrupt__: { value: unknown }[] }]
    expect(interrupt[1].__interrupt__.map((i) => i.value)).toEqual(['why?'])
    expect(chunks.at(-1)).toEqual(['values', { log: ['ok'] }])
  })

  it('continues a paused thread: the resumed state first, then the rest', async () => {
    const g = createStreamingGraph(spec({ ...chain, interruptBefore: ['b'] }), {
      env: createCountingEnv(),
    })
    await g.runtime.invoke({ x: '' }, { threadId: 't' })
    const chunks: unknown[] = []
    for await (const c of g.stream(null, { threadId: 't', streamMode: 'values' })) chunks.push(c)
    expect(chunks).toEqual([
      { x: 'a', log: ['a'] },
      { x: 'ab', log: ['a', 'b'] },
    ])
  })

  it('with subgraphs, gives each chunk its namespace; without, only the root graph chunks', async () => {
    const g = spec({
      state: [{ name: 'x' }],
      nodes: [{ id: 'team', kind: 'graph', graph: 'inner' }],
      edges: [{ from: '__start__', to: 'team' }],
      subgraphs: {
        inner: {
          state: [{ name: 'x' }],
          nodes: [{ id: 'p', code: "(s) => ({ x: s.x + 'p' })" }],
          edges: [{ from: '__start__', to: 'p' }],
        },
      },
    })
    const nested = await collect(g, { x: '' }, { streamMode: 'updates', subgraphs: true })
    expect(
      (nested.chunks as [string[], unknown][]).map(([ns, c]) => [nsNodes(ns.join('|')), c]),
    ).toEqual([
      [['team'], { p: { x: 'p' } }],
      [[], { team: { x: 'p' } }],
    ])
    const flat = await collect(g, { x: '' }, { streamMode: 'updates' })
    expect(flat.chunks).toEqual([{ team: { x: 'p' } }])
  })

  it("throws the graph's error after the chunks that came before it", async () => {
    const g = spec({
      state: [{ name: 'x' }],
      nodes: [
        { id: 'a', code: "() => ({ x: 'a' })" },
        { id: 'bad', code: "() => { throw new RangeError('no') }" },
      ],
      edges: [
        { from: '__start__', to: 'a' },
        { from: 'a', to: 'bad' },
      ],
    })
    const { chunks, error } = await collect(g, {}, { streamMode: ['updates', 'tasks'] })
    expect(error).toBeInstanceOf(Error)
    expect(chunks.filter((c) => (c as string[])[0] === 'updates')).toEqual([
      ['updates', { a: { x: 'a' } }],
    ])
    expect(chunks.at(-1)).toEqual([
      'tasks',
      {
        id: '~__pregel_pull, bad',
        name: 'bad',
        result: {},
        interrupts: [],
        error: { message: 'no', name: 'RangeError' },
      },
    ])
  })
})
