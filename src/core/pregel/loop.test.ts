import { describe, expect, it } from 'vitest'
import { createCountingEnv } from '../../lib/env'
import { MemorySaver } from '../checkpoint/memorySaver'
import type { CheckpointTuple } from '../checkpoint/types'
import { compileGraph } from '../compile/compileGraph'
import { evaluateLocally } from '../compile/evaluate'
import { parseGraph } from '../graph/validate'
import type { GraphSpec } from '../graph/schema'
import { runGraph } from '../run'
import { InvalidUpdateError } from './errors'
import { NodeRunError } from './errors'
import { Run } from './loop'
import type { LoopEvent } from './loop'

/** A validated spec; fails the test if the document has errors. */
function spec(graph: Record<string, unknown>): GraphSpec {
  const parsed = parseGraph({ superstep: 1, name: 'test', ...graph })
  expect(parsed.issues.filter((i) => i.severity === 'error')).toEqual([])
  if (!parsed.ok) throw new Error('invalid graph')
  return parsed.spec
}

const node = (id: string, code: string) => ({ id, code })
const edge = (from: string | string[], to: string) => ({ from, to })

/** `{x, log: append []}`; START → a → b; a = {x:a, log:[a]}, b = {x:b, log:[b]}. */
const chain = () =>
  spec({
    state: [{ name: 'x' }, { name: 'log', reducer: 'append', default: [] }],
    nodes: [
      node('a', "(s) => ({ x: 'a', log: ['a'] })"),
      node('b', "(s) => ({ x: 'b', log: ['b'] })"),
    ],
    edges: [edge('__start__', 'a'), edge('a', 'b')],
  })

/** `{n}`; START → inc → inc forever. */
const endlessCounter = () =>
  spec({
    state: [{ name: 'n' }],
    nodes: [node('inc', '(s) => ({ n: s.n + 1 })')],
    edges: [edge('__start__', 'inc'), edge('inc', 'inc')],
  })

/**
 * A run of `g` on thread `t` of a fresh MemorySaver with a counting env: the only place
 * that knows the loop's API.
 */
function loopOn(
  g: GraphSpec,
  opts: { recursionLimit?: number; onEvent?: (e: LoopEvent) => void } = {},
) {
  const env = createCountingEnv()
  const saver = new MemorySaver()
  const graph = compileGraph(g, { evaluate: evaluateLocally, newId: env.newId })
  const { recursionLimit, onEvent } = opts
  const run = async (input: unknown) =>
    (
      await Run.start({ graph, saver, env, onEvent }, input, { threadId: 't', recursionLimit })
    ).toEnd()
  return { run, saver }
}

async function history(saver: MemorySaver): Promise<CheckpointTuple[]> {
  const out: CheckpointTuple[] = []
  for await (const t of saver.list({ threadId: 't' })) out.push(t)
  return out.reverse()
}

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p
  } catch (e) {
    return e
  }
  throw new Error('expected a rejection')
}

describe('a two-node chain, checkpoint by checkpoint', () => {
  it('reports steps -1..2 with their sources, next nodes, values and field versions', async () => {
    const report = await runGraph(chain(), { input: { x: 'in' }, env: createCountingEnv() })
    expect(report).toEqual({
      status: 'done',
      values: { x: 'b', log: ['a', 'b'] },
      checkpoints: [
        { step: -1, source: 'input', next: ['__start__'], values: { log: [] }, versions: {} },
        { step: 0, source: 'loop', next: ['a'], values: { x: 'in', log: [] }, versions: { x: 2 } },
        {
          step: 1,
          source: 'loop',
          next: ['b'],
          values: { x: 'a', log: ['a'] },
          versions: { x: 3, log: 3 },
        },
        {
          step: 2,
          source: 'loop',
          next: [],
          values: { x: 'b', log: ['a', 'b'] },
          versions: { x: 4, log: 4 },
        },
      ],
      interrupts: [],
      error: null,
      warnings: [],
    })
  })

  // Versions by hand (reference §2): every channel changed in a step gets max+1;
  // `__start__` is cleared in step 0, each `branch:to:X` in the step after it was written.
  it('stores LangGraph.js channel versions, versions_seen, metadata and the parent chain', async () => {
    const { run, saver } = loopOn(chain())
    expect(await run({ x: 'in' })).toBe('done')
    const tuples = await history(saver)
    expect(tuples.map((t) => t.checkpoint.channel_versions)).toEqual([
      { __start__: 1 },
      { __start__: 2, x: 2, 'branch:to:a': 2 },
      { __start__: 2, x: 3, 'branch:to:a': 3, log: 3, 'branch:to:b': 3 },
      { __start__: 2, x: 4, 'branch:to:a': 3, log: 4, 'branch:to:b': 4 },
    ])
    expect(tuples.map((t) => t.metadata)).toEqual([
      { source: 'input', step: -1, parents: {} },
      { source: 'loop', step: 0, parents: {} },
      { source: 'loop', step: 1, parents: {} },
      { source: 'loop', step: 2, parents: {} },
    ])
    expect(tuples.at(-1)?.checkpoint.versions_seen).toEqual({
      __input__: {},
      __start__: { __start__: 1 },
      a: { 'branch:to:a': 2 },
      b: { 'branch:to:b': 3 },
    })
    expect(tuples.map((t) => t.parentConfig?.checkpointId)).toEqual([
      undefined,
      ...tuples.slice(0, -1).map((t) => t.checkpoint.id),
    ])
    expect(tuples[0]?.checkpoint.channel_values.__start__).toEqual({ x: 'in' })
    expect(tuples[1]?.checkpoint.channel_values).not.toHaveProperty('__start__')
    expect(tuples[1]?.checkpoint.channel_values['branch:to:a']).toBeNull()
  })

  it('spends two version numbers when a join is consumed in a step that also writes', async () => {
    const g = spec({
      state: [{ name: 'x' }, { name: 'log', reducer: 'append', default: [] }],
      nodes: [
        node('a', "() => ({ x: 'a', log: ['a'] })"),
        node('b', "() => ({ log: ['b'] })"),
        node('c', "() => ({ log: ['c'] })"),
        node('d', "() => ({ x: 'd', log: ['d'] })"),
      ],
      edges: [edge('__start__', 'a'), edge('a', 'b'), edge('a', 'c'), edge(['b', 'c'], 'd')],
    })
    const { run, saver } = loopOn(g)
    await run({ x: 'in' })
    const tuples = await history(saver)
    // c08: the join is consumed at max+1 = 5, the step's writes get 6.
    expect(tuples.at(-1)?.checkpoint.channel_versions).toEqual({
      __start__: 2,
      x: 6,
      'branch:to:a': 3,
      log: 6,
      'branch:to:b': 4,
      'branch:to:c': 4,
      'join:b+c:d': 5,
    })
    expect(tuples.at(-1)?.checkpoint.channel_values.log).toEqual(['a', 'b', 'c', 'd'])
  })
})

describe('determinism', () => {
  const messagesGraph = () =>
    spec({
      state: [{ name: 'messages', reducer: 'add_messages', default: [] }],
      nodes: [node('bot', "() => ({ messages: [{ role: 'assistant', content: 'hello' }] })")],
      edges: [edge('__start__', 'bot')],
    })

  it('two runs with counting envs give deep-equal reports and events, checkpoint ids included', async () => {
    const once = async () => {
      const events: LoopEvent[] = []
      const report = await runGraph(messagesGraph(), {
        input: { messages: ['hi'] },
        env: createCountingEnv(),
        onEvent: (e) => events.push(structuredClone(e)),
      })
      return { report, events }
    }
    const first = await once()
    const second = await once()
    expect(second).toEqual(first)
    const ids = first.events.flatMap((e) => (e.type === 'checkpoint_saved' ? [e.checkpointId] : []))
    expect(new Set(ids).size).toBe(3)
    const messages = first.report.values.messages as { id: string }[]
    expect(messages.map((m) => m.id)).toHaveLength(2)
    expect(messages.every((m) => /^00000000-0000-4000-8000-/.test(m.id))).toBe(true)
  })

  it('two loops on fresh savers store identical checkpoints', async () => {
    const a = loopOn(chain())
    const b = loopOn(chain())
    await a.run({ x: 'in' })
    await b.run({ x: 'in' })
    expect(await history(b.saver)).toEqual(await history(a.saver))
  })
})

describe('warnings for what LangGraph.js silently ignores', () => {
  it('an unknown update key, from a node or from the input, is dropped with a warning', async () => {
    const g = spec({
      state: [{ name: 'x' }],
      nodes: [node('a', "() => ({ x: 'a', nope: 1 })")],
      edges: [edge('__start__', 'a')],
    })
    const report = await runGraph(g, { input: { x: 'in', extra: 2 }, env: createCountingEnv() })
    expect(report.status).toBe('done')
    expect(report.values).toEqual({ x: 'a' })
    expect(report.warnings).toEqual([
      {
        code: 'UNKNOWN_UPDATE_KEY',
        node: '__start__',
        message: expect.stringContaining('`extra`'),
      },
      { code: 'UNKNOWN_UPDATE_KEY', node: 'a', message: expect.stringContaining('`nope`') },
    ])
  })

  it('a route to an unknown node is ignored with a warning and the run ends', async () => {
    const g = spec({
      state: [{ name: 'x' }],
      nodes: [node('a', "() => ({ x: 'a' })"), node('b', "() => ({ x: 'b' })")],
      edges: [edge('__start__', 'a')],
      branches: [{ from: 'a', router: "() => 'ghost'" }],
    })
    const report = await runGraph(g, { input: { x: 'in' }, env: createCountingEnv() })
    expect(report.status).toBe('done')
    expect(report.values).toEqual({ x: 'a' })
    expect(report.checkpoints.at(-1)?.next).toEqual([])
    expect(report.warnings).toEqual([
      { code: 'UNKNOWN_ROUTE_TARGET', node: 'a', message: expect.stringContaining('`ghost`') },
    ])
  })
})

describe('errors', () => {
  it('a node that throws: the error keeps its class and names the node; next stays on it', async () => {
    const g = spec({
      state: [{ name: 'log', reducer: 'append', default: [] }],
      nodes: [
        node('a', "() => ({ log: ['a'] })"),
        node('boom', "() => { throw new TypeError('boom') }"),
      ],
      edges: [edge('__start__', 'a'), edge('a', 'boom')],
    })
    const report = await runGraph(g, { input: {}, env: createCountingEnv() })
    expect(report.status).toBe('error')
    expect(report.error).toEqual({ name: 'TypeError', message: 'boom', code: null, node: 'boom' })
    expect(report.checkpoints.at(-1)).toMatchObject({
      step: 1,
      next: ['boom'],
      values: { log: ['a'] },
    })
  })

  it('a node returning a string fails with INVALID_GRAPH_NODE_RETURN_VALUE, naming the node', async () => {
    const g = spec({
      state: [{ name: 'x' }],
      nodes: [node('n', "() => 'hello'")],
      edges: [edge('__start__', 'n')],
    })
    const report = await runGraph(g, { input: {}, env: createCountingEnv() })
    expect(report.error).toMatchObject({
      name: 'InvalidUpdateError',
      code: 'INVALID_GRAPH_NODE_RETURN_VALUE',
      node: 'n',
      message: expect.stringMatching(
        /^Expected node "n" to return an object or an array containing at least one Command object, received string/,
      ),
    })
  })

  it('the recursion limit stops an endless cycle after R super-steps counting __start__', async () => {
    const report = await runGraph(endlessCounter(), {
      input: { n: 0 },
      recursionLimit: 3,
      env: createCountingEnv(),
    })
    expect(report.status).toBe('error')
    expect(report.error).toEqual({
      name: 'GraphRecursionError',
      code: 'GRAPH_RECURSION_LIMIT',
      message: expect.stringMatching(
        /^Recursion limit of 3 reached without hitting a stop condition\. You can increase the limit by setting the "recursionLimit" config key\./,
      ),
    })
    expect(report.checkpoints.map((c) => c.step)).toEqual([-1, 0, 1, 2, 3])
    expect(report.checkpoints.at(-1)).toMatchObject({ next: ['inc'], values: { n: 3 } })
  })

  it('the default limit is 25: the node runs 25 times', async () => {
    const report = await runGraph(endlessCounter(), { input: { n: 0 }, env: createCountingEnv() })
    expect(report.error?.name).toBe('GraphRecursionError')
    expect(report.checkpoints.at(-1)).toMatchObject({ step: 25, next: ['inc'], values: { n: 25 } })
  })

  it('a 3-node chain fails at limit 3 after all nodes ran, and passes at limit 4', async () => {
    const g = spec({
      state: [{ name: 'n', reducer: 'add', default: 0 }],
      nodes: ['n1', 'n2', 'n3'].map((id) => node(id, '() => ({ n: 1 })')),
      edges: [edge('__start__', 'n1'), edge('n1', 'n2'), edge('n2', 'n3')],
    })
    const at3 = await runGraph(g, { input: {}, recursionLimit: 3, env: createCountingEnv() })
    expect(at3.error?.code).toBe('GRAPH_RECURSION_LIMIT')
    expect(at3.checkpoints.at(-1)).toMatchObject({ step: 3, next: [], values: { n: 3 } })
    const at4 = await runGraph(g, { input: {}, recursionLimit: 4, env: createCountingEnv() })
    expect(at4.status).toBe('done')
    expect(at4.values).toEqual({ n: 3 })
  })

  it('no input fails with EmptyInputError before anything is saved', async () => {
    const { run, saver } = loopOn(chain())
    const e = await rejection(run(null))
    expect(e).toMatchObject({
      name: 'EmptyInputError',
      message: 'Received no input writes for "__start__"',
    })
    expect(await saver.getTuple({ threadId: 't' })).toBeUndefined()
  })
})

describe('parallel steps', () => {
  const parallel = (flakyCode: string) =>
    spec({
      state: [{ name: 'log', reducer: 'append', default: [] }],
      nodes: [
        node('flaky', flakyCode),
        node('ok', "() => ({ log: ['ok'] })"),
        node(
          'slow',
          "async () => { await new Promise((r) => setTimeout(r, 40)); return { log: ['slow'] } }",
        ),
      ],
      edges: [edge('__start__', 'flaky'), edge('__start__', 'ok'), edge('__start__', 'slow')],
    })
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

  it('fail fast: the finished sibling’s writes and the error are saved as pending writes', async () => {
    const events: LoopEvent[] = []
    const { run, saver } = loopOn(
      parallel(
        "async () => { await new Promise((r) => setTimeout(r, 10)); throw new Error('flaky failed') }",
      ),
      { onEvent: (e) => events.push(e) },
    )
    const e = await rejection(run({}))
    expect(e).toBeInstanceOf(NodeRunError)
    expect((e as NodeRunError).node).toBe('flaky')
    expect((e as NodeRunError).cause).toMatchObject({ message: 'flaky failed' })

    await sleep(60) // `slow` finishes after the failure: its writes must not be saved
    const latest = await saver.getTuple({ threadId: 't' })
    expect(latest?.metadata.step).toBe(0)
    expect(latest?.pendingWrites).toEqual([
      ['~__pregel_pull, ok', 'log', ['ok']],
      [
        '~__pregel_pull, flaky',
        '__error__',
        { name: 'Error', message: 'flaky failed' }, // LangGraph's __error__ write
      ],
    ])
    const step1 = events.filter((x) => x.step === 1).map((x) => [x.type, 'name' in x ? x.name : ''])
    expect(step1.slice(0, 3)).toEqual([
      ['step_started', ''],
      ['task_finished', 'ok'],
      ['task_failed', 'flaky'],
    ])
    expect(events.some((x) => x.type === 'checkpoint_saved' && x.step === 1)).toBe(false)
  })

  // LangGraph.js aborts the siblings still running when a task fails (reference §3: their
  // `__error__` is an AbortError); the run is over. Superstep lets `slow` finish and then
  // emits `task_finished` for it, after `run()` has already rejected.
  it('a sibling still running when the step fails is not reported as finished', async () => {
    const events: LoopEvent[] = []
    const { run } = loopOn(
      parallel(
        "async () => { await new Promise((r) => setTimeout(r, 10)); throw new Error('flaky failed') }",
      ),
      { onEvent: (e) => events.push(e) },
    )
    await rejection(run({}))
    await sleep(60)
    expect(
      events.filter((x) => x.type === 'task_finished').map((x) => 'name' in x && x.name),
    ).toEqual(['__start__', 'ok'])
  })

  it('two writes to one LastValue key fail at apply time and nothing is committed', async () => {
    const g = spec({
      state: [{ name: 'x' }],
      nodes: [node('zeta', "() => ({ x: 'z' })"), node('alpha', "() => ({ x: 'a' })")],
      edges: [edge('__start__', 'zeta'), edge('__start__', 'alpha')],
    })
    const report = await runGraph(g, { input: { x: 'in' }, env: createCountingEnv() })
    expect(report.error).toMatchObject({
      name: 'InvalidUpdateError',
      code: 'INVALID_CONCURRENT_GRAPH_UPDATE',
      message: expect.stringMatching(
        /^Invalid update for channel "x" with values \["a","z"\]: LastValue can only receive one value per step\./,
      ),
    })
    expect(report.error).not.toHaveProperty('node')
    expect(report.checkpoints.at(-1)).toMatchObject({
      step: 0,
      next: ['zeta', 'alpha'],
      values: { x: 'in' },
    })
  })

  // LangGraph.js puts each task's writes the moment it finishes (reference §3), so after
  // the apply-time conflict the last checkpoint holds both tasks' writes (c10,
  // "pendingWritesOnLast"). Superstep only saves writes when a node throws.
  it('after an apply-time conflict both tasks’ writes are pending on the last checkpoint', async () => {
    const g = spec({
      state: [{ name: 'x' }],
      nodes: [node('zeta', "() => ({ x: 'z' })"), node('alpha', "() => ({ x: 'a' })")],
      edges: [edge('__start__', 'zeta'), edge('__start__', 'alpha')],
    })
    const { run, saver } = loopOn(g)
    expect(await rejection(run({ x: 'in' }))).toBeInstanceOf(InvalidUpdateError)
    const latest = await saver.getTuple({ threadId: 't' })
    const pending = latest?.pendingWrites.map(([, ch, v]) => `${ch}=${String(v)}`)
    expect(pending?.sort()).toEqual(['x=a', 'x=z'])
  })
})

describe('events', () => {
  it('are emitted in order: checkpoint_saved (input), then per step started, finished, saved', async () => {
    const events: LoopEvent[] = []
    const { run } = loopOn(chain(), { onEvent: (e) => events.push(e) })
    await run({ x: 'in' })
    expect(
      events.map((e) => [e.type, e.step, 'name' in e ? e.name : '', 'source' in e ? e.source : '']),
    ).toEqual([
      ['checkpoint_saved', -1, '', 'input'],
      ['step_started', 0, '', ''],
      ['task_finished', 0, '__start__', ''],
      ['checkpoint_saved', 0, '', 'loop'],
      ['step_started', 1, '', ''],
      ['task_finished', 1, 'a', ''],
      ['checkpoint_saved', 1, '', 'loop'],
      ['step_started', 2, '', ''],
      ['task_finished', 2, 'b', ''],
      ['checkpoint_saved', 2, '', 'loop'],
    ])
    expect(events[4]).toEqual({
      type: 'step_started',
      step: 1,
      tasks: [{ id: '~__pregel_pull, a', name: 'a' }],
    })
    expect(events[5]).toMatchObject({
      writes: [
        ['x', 'a'],
        ['log', ['a']],
        ['branch:to:b', null],
      ],
    })
  })

  it('checkpoint_saved carries the id the saver stored', async () => {
    const events: LoopEvent[] = []
    const { run, saver } = loopOn(chain(), { onEvent: (e) => events.push(e) })
    await run({ x: 'in' })
    const saved = events.flatMap((e) => (e.type === 'checkpoint_saved' ? [e.checkpointId] : []))
    expect(saved).toEqual((await history(saver)).map((t) => t.checkpoint.id))
  })
})

describe('undefined values', () => {
  // LangGraph.js (reference §6, c33): `{x: undefined}` keeps the key in memory and in the
  // next node, but it is gone after a reload ("keysAfterReload": ["y"]), because
  // LastValue.fromCheckpoint(undefined) is an empty channel. Superstep's snapshots are
  // reloads, and they still list `x`.
  it('the next node sees a key written as undefined', async () => {
    const g = spec({
      state: [{ name: 'x' }, { name: 'y' }, { name: 'keys' }],
      nodes: [
        node('n', '() => ({ x: undefined })'),
        node('m', '(s) => ({ keys: Object.keys(s).sort() })'),
      ],
      edges: [edge('__start__', 'n'), edge('n', 'm')],
    })
    const report = await runGraph(g, { input: { y: 'y' }, env: createCountingEnv() })
    expect(report.values.keys).toEqual(['x', 'y'])
  })

  it('a key written as undefined is gone from the reloaded snapshot', async () => {
    const g = spec({
      state: [{ name: 'x' }, { name: 'y' }],
      nodes: [node('n', '() => ({ x: undefined })')],
      edges: [edge('__start__', 'n')],
    })
    const report = await runGraph(g, { input: { y: 'y' }, env: createCountingEnv() })
    expect(Object.keys(report.values)).toEqual(['y'])
  })
})
