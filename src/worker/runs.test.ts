import { describe, expect, it } from 'vitest'
import { MemorySaver } from '../core/checkpoint/memorySaver'
import { compileGraph } from '../core/compile/compileGraph'
import type { GraphSpec } from '../core/graph/schema'
import { parseGraph } from '../core/graph/validate'
import { GraphRuntime } from '../core/pregel/runtime'
import { Command } from '../core/pregel/types'
import { createCountingEnv } from '../lib/env'
import { LocalCodeHost } from './localCodeHost'
import type { RunMode, WorkerEvent } from './protocol'
import { RunRegistry, type StartRun } from './runs'
import { memoryThreadLocks, type ThreadLocks } from './threadLocks'
import { teamOf } from './serviceHarness'

const chain = {
  state: [{ name: 'x' }, { name: 'log', reducer: 'append', default: [] }],
  nodes: [
    { id: 'a', code: "(s) => { console.log('in a', s.x); return { x: 'a', log: ['a'] } }" },
    { id: 'b', code: "(s) => ({ x: 'b', log: ['b'] })" },
  ],
  edges: [
    { from: '__start__', to: 'a' },
    { from: 'a', to: 'b' },
  ],
}

/** `a` waits for the test to open its gate. */
const held = {
  ...chain,
  nodes: [
    { id: 'a', code: "async (s) => { await gate('a'); return { x: 'a', log: ['a'] } }" },
    chain.nodes[1],
  ],
}

function setup(doc: Record<string, unknown>, o: { locks?: ThreadLocks; saver?: MemorySaver } = {}) {
  const parsed = parseGraph({ superstep: 1, name: 't', ...doc })
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues))
  const env = createCountingEnv()
  const host = new LocalCodeHost()
  const graph = compileGraph(parsed.spec as GraphSpec, {
    evaluate: () => {
      throw new Error('code must run in the host')
    },
    newId: env.newId,
    host,
  })
  const saver = o.saver ?? new MemorySaver()
  const events: WorkerEvent[] = []
  const restarts: string[][] = []
  const runs = new RunRegistry({
    saver,
    env,
    emit: (e) => events.push(e),
    sandboxRestarted: (ids) => restarts.push(ids),
    ...(o.locks && { locks: o.locks }),
  })
  const runtime = new GraphRuntime({ graph, saver, env })
  const start = (input: unknown, mode: RunMode = 'toEnd', extra: Partial<StartRun> = {}) =>
    runs.start('t', { graph, graphId: 'g', input, config: { threadId: 't' }, mode, ...extra })
  const checkpoints = async () => (await runtime.getStateHistory({ threadId: 't' })).length
  const types = () => events.map((e) => e.type)
  const until = async (what: (e: WorkerEvent) => boolean) => {
    for (let i = 0; i < 500 && !events.some(what); i++) await new Promise((r) => setTimeout(r, 2))
    if (!events.some(what)) throw new Error('event never came')
  }
  return { runs, host, runtime, events, restarts, start, checkpoints, types, until }
}

describe('RunRegistry', () => {
  it('runs to the end and reports every step, task, log and checkpoint', async () => {
    const t = setup(chain)
    const outcome = await t.start({ x: 'in' })
    expect(outcome).toMatchObject({ status: 'done' })
    expect(t.types()).toEqual([
      'run_started',
      'checkpoint_saved', // input
      'step_started',
      'task_finished',
      'checkpoint_saved', // __start__
      'step_started',
      'task_finished',
      'checkpoint_saved', // a
      'step_started',
      'task_finished',
      'checkpoint_saved', // b
      'run_finished',
    ])
    const a = t.events.find((e) => e.type === 'task_finished' && e.name === 'a')
    expect(a).toMatchObject({
      threadId: 't',
      runId: outcome.runId,
      writes: [
        ['x', 'a'],
        ['log', ['a']],
        ['branch:to:b', null],
      ],
    })
    if (a?.type !== 'task_finished') throw new Error()
    expect(a.logs.map((l) => l.args)).toEqual([['in a', 'in']])
    expect(a.durationMs).toBeGreaterThanOrEqual(0)
    const saved = t.events.filter((e) => e.type === 'checkpoint_saved')
    expect(saved.map((e) => e.type === 'checkpoint_saved' && e.step)).toEqual([-1, 0, 1, 2])
    expect(saved.at(-1)).toMatchObject({ source: 'loop', versions: { x: 4, log: 4 } })
    // Each carries only the versions its checkpoint changed: b's step wrote x and log (and
    // consumed its trigger), not a's trigger `branch:to:b`, which a's step had written.
    const versions = saved.map((e) => (e.type === 'checkpoint_saved' ? e.versions : {}))
    expect(versions[2]).toHaveProperty('branch:to:b')
    expect(Object.keys(versions[3] ?? {}).sort()).toEqual(['branch:to:b', 'log', 'x'])
    expect(t.events.at(-1)).toMatchObject({
      checkpointId: outcome.status === 'done' && outcome.checkpointId,
    })
    expect((await t.runtime.getState({ threadId: 't' }))?.values).toEqual({
      x: 'b',
      log: ['a', 'b'],
    })
  })

  it('steps one super-step at a time: each continue adds exactly one checkpoint', async () => {
    const t = setup(chain)
    const first = await t.start({ x: 'in' }, 'step')
    expect(first).toMatchObject({ status: 'paused', reason: 'step', next: ['a'] })
    expect(await t.checkpoints()).toBe(2) // the input, then __start__'s step
    expect(t.host.calls.node).toBe(0)

    const second = await t.runs.continue('t', 'step')
    expect(second).toMatchObject({ status: 'paused', reason: 'step', next: ['b'] })
    expect(second.runId).toBe(first.runId)
    expect(await t.checkpoints()).toBe(3)
    expect(t.host.calls.node).toBe(1)

    // The last step ends the run: there is nothing left for another step to do.
    expect(await t.runs.continue('t', 'step')).toMatchObject({ status: 'done' })
    expect(await t.checkpoints()).toBe(4)
    expect(t.types().filter((x) => x === 'run_paused')).toHaveLength(2)
    expect(t.types().at(-1)).toBe('run_finished')
    await expect(async () => t.runs.continue('t', 'step')).rejects.toMatchObject({
      code: 'NO_PAUSED_RUN',
    })
  })

  it('one thread is run by one tab at a time: the other is refused until the run ends', async () => {
    const held = new Set<string>()
    const saver = new MemorySaver()
    const tabA = setup(chain, { locks: memoryThreadLocks(held), saver })
    const tabB = setup(chain, { locks: memoryThreadLocks(held), saver })
    // A paused run (a step) holds the thread as much as an advancing one.
    expect(await tabA.start({ x: 'in' }, 'step')).toMatchObject({ status: 'paused' })
    await expect(tabB.start(null)).rejects.toMatchObject({
      code: 'RUNNING_ELSEWHERE',
      message: expect.stringMatching(/Thread t is being run in another tab/),
    })
    expect(tabB.host.calls.node).toBe(0)
    expect(await tabA.runs.continue('t', 'toEnd')).toMatchObject({ status: 'done' })
    // Ended there: runnable here, from where A left it (every node ran once).
    expect(await tabB.start(null)).toMatchObject({ status: 'done' })
    expect(tabA.host.calls.node + tabB.host.calls.node).toBe(2)
    expect(held.size).toBe(0)
  })

  it('stepping gives exactly the checkpoints of running whole', async () => {
    const stepped = setup(chain)
    let o = await stepped.start({ x: 'in' }, 'step')
    while (o.status === 'paused') o = await stepped.runs.continue('t', 'step')
    const whole = setup(chain)
    await whole.start({ x: 'in' })
    const shape = async (t: ReturnType<typeof setup>) =>
      (await t.runtime.getStateHistory({ threadId: 't' })).map((s) => [
        s.metadata,
        s.values,
        s.channelVersions,
      ])
    expect(await shape(stepped)).toEqual(await shape(whole))
  })

  it('continues a stepped run to the end', async () => {
    const t = setup(chain)
    await t.start({ x: 'in' }, 'step')
    expect(await t.runs.continue('t', 'toEnd')).toMatchObject({ status: 'done' })
    expect(await t.checkpoints()).toBe(4)
  })

  it('pauses at the next barrier, after the running step is checkpointed', async () => {
    const t = setup(held)
    const outcome = t.start({ x: 'in' })
    await t.until((e) => e.type === 'step_started' && e.tasks[0]?.name === 'a')
    expect(t.runs.pause('t')).toBe(true)
    t.host.open('a')
    expect(await outcome).toMatchObject({ status: 'paused', reason: 'pause', next: ['b'] })
    expect(await t.checkpoints()).toBe(3) // a's step was finished and saved
    expect(await t.runs.continue('t', 'toEnd')).toMatchObject({ status: 'done' })
    expect(t.runs.pause('t')).toBe(false) // nothing left to pause
  })

  it('refuses a second run, a continue and an update on a busy thread', async () => {
    const t = setup(held)
    const outcome = t.start({ x: 'in' })
    await t.until((e) => e.type === 'step_started' && e.tasks[0]?.name === 'a')
    expect(() => t.start({ x: 'again' })).toThrow(
      expect.objectContaining({ name: 'ThreadBusyError', code: 'THREAD_BUSY' }),
    )
    expect(() => t.runs.continue('t', 'step')).toThrow(
      expect.objectContaining({ code: 'THREAD_BUSY' }),
    )
    expect(() => t.runs.assertIdle('t')).toThrow(
      'Thread t already has an advancing run; wait for it or stop it first.',
    )
    t.host.open('a')
    await outcome
    // A run paused by `step` holds the thread too.
    await t.start({ x: 'next' }, 'step')
    expect(() => t.start({ x: 'again' })).toThrow(/paused run/)
  })

  it('stops a running step: the sandbox is restarted and nothing more is written', async () => {
    const t = setup(held)
    const outcome = t.start({ x: 'in' })
    await t.until((e) => e.type === 'step_started' && e.tasks[0]?.name === 'a')
    const before = await t.checkpoints()
    expect(await t.runs.stop('t')).toEqual({ stopped: true, sandboxRestarted: true })
    expect(await outcome).toMatchObject({ status: 'stopped' })
    expect(t.restarts).toEqual([['t']])
    expect(t.types().at(-1)).toBe('run_stopped')
    const count = t.events.length
    t.host.open('a') // the abandoned task finishes late: its step must not be saved
    await new Promise((r) => setTimeout(r, 20))
    expect(await t.checkpoints()).toBe(before)
    expect(t.events.length).toBe(count)
    // The thread is free again; the stopped step runs again on the next run.
    expect(await t.start(null)).toMatchObject({ status: 'done' })
  })

  it("releases a run's own sandbox when the run ends, not while it is paused by a step", async () => {
    const t = setup(chain)
    const released: string[] = []
    const sandbox = (name: string) => ({ busy: false, release: () => released.push(name) })
    await t.start({ x: 'in' }, 'step', { sandbox: sandbox('stepped') })
    await t.runs.continue('t', 'step')
    expect(released).toEqual([])
    // A second run on a busy thread is refused, and its sandbox goes at once.
    expect(() => t.start({ x: 'in' }, 'toEnd', { sandbox: sandbox('refused') })).toThrow()
    expect(released).toEqual(['refused'])
    await t.runs.continue('t', 'toEnd')
    expect(released).toEqual(['refused', 'stepped'])
    await t.start({ x: 'again' }, 'step', { sandbox: sandbox('stopped') })
    await t.runs.stop('t')
    expect(released).toEqual(['refused', 'stepped', 'stopped'])
  })

  it('stops a paused run without touching the sandbox', async () => {
    const t = setup(chain)
    await t.start({ x: 'in' }, 'step')
    expect(await t.runs.stop('t')).toEqual({ stopped: true, sandboxRestarted: false })
    expect(t.restarts).toEqual([])
    expect(await t.runs.stop('t')).toEqual({ stopped: false, sandboxRestarted: false })
  })

  it('resumes an interrupt through a Command', async () => {
    const t = setup({
      ...chain,
      nodes: [{ id: 'a', code: "(s) => ({ x: interrupt('name?') })" }, chain.nodes[1]],
    })
    const paused = await t.start({ x: 'in' })
    expect(paused).toMatchObject({
      status: 'paused',
      reason: 'interrupt',
      next: ['a'],
      interrupts: [{ value: 'name?', node: 'a' }],
    })
    expect(t.types()).toContain('task_interrupted')
    // The run ended with its interrupt: the thread is free for the resume.
    const resumed = await t.start(new Command({ resume: 'Ada' }))
    expect(resumed).toMatchObject({ status: 'done' })
    expect(resumed.runId).not.toBe(paused.runId)
    expect((await t.runtime.getState({ threadId: 't' }))?.values).toEqual({ x: 'b', log: ['b'] })
  })

  it('pauses at a static breakpoint and continues with input null', async () => {
    const t = setup(chain)
    const config = { threadId: 't', interruptBefore: ['b'] }
    expect(await t.start({ x: 'in' }, 'toEnd', { config })).toMatchObject({
      status: 'paused',
      reason: 'breakpoint',
      next: ['b'],
      interrupts: [],
    })
    expect(await t.start(null)).toMatchObject({ status: 'done' })
  })

  it('reports a failing node with its name, and frees the thread', async () => {
    const t = setup({
      ...chain,
      nodes: [{ id: 'a', code: "(s) => { throw new TypeError('boom') }" }, chain.nodes[1]],
    })
    const outcome = await t.start({ x: 'in' })
    expect(outcome).toMatchObject({
      status: 'failed',
      error: { name: 'TypeError', message: 'boom', node: 'a' },
    })
    expect(t.events.find((e) => e.type === 'task_failed')).toMatchObject({
      name: 'a',
      error: { name: 'TypeError', node: 'a' },
    })
    expect(t.types().at(-1)).toBe('run_failed')
    expect(() => t.runs.assertIdle('t')).not.toThrow()
  })

  it('fails a run that starts with nothing to do', async () => {
    const t = setup(chain)
    expect(await t.start(null)).toMatchObject({
      status: 'failed',
      error: { name: 'EmptyInputError' },
    })
  })

  it('abandons a run that advances longer than its timeout', async () => {
    const t = setup(held)
    const outcome = await t.start({ x: 'in' }, 'toEnd', { timeoutMs: 30 })
    expect(outcome).toMatchObject({ status: 'failed', error: { code: 'RUN_TIMEOUT' } })
    expect(t.restarts).toEqual([['t']])
    expect(t.types().at(-1)).toBe('run_failed')
  })

  it('lets a pause request reach a long run between super-steps', async () => {
    const t = setup({
      state: [{ name: 'n', reducer: 'add', default: 0 }],
      nodes: [{ id: 'inc', code: '(s) => ({ n: 1 })' }],
      edges: [{ from: '__start__', to: 'inc' }],
      branches: [{ from: 'inc', router: "(s) => (s.n < 1000 ? 'inc' : '__end__')" }],
    })
    const outcome = t.start({ n: 0 }, 'toEnd', { config: { threadId: 't', recursionLimit: 5000 } })
    setTimeout(() => t.runs.pause('t'), 15)
    const o = await outcome
    expect(o).toMatchObject({ status: 'paused', reason: 'pause' })
    const n = (await t.runtime.getState({ threadId: 't' }))?.values.n as number
    expect(n).toBeGreaterThan(0)
    expect(n).toBeLessThan(1000)
    expect(await t.runs.continue('t', 'toEnd')).toMatchObject({ status: 'done' })
    expect((await t.runtime.getState({ threadId: 't' }))?.values.n).toBe(1000)
  })

  describe('stepping into a subgraph', () => {
    // The root runs `team` (a subgraph: a, then b) and then `after`.
    const nested = teamOf(chain)
    const inner = (o: Awaited<ReturnType<RunRegistry['continue']>>) =>
      o.status === 'paused' && o.inner ? [o.inner.ns.split(':')[0], o.inner.next] : null
    const log = async (t: ReturnType<typeof setup>) =>
      (await t.runtime.getState({ threadId: 't' }))?.values.log

    it('into: one inner super-step at a time, then the parent step ends; same end as a run', async () => {
      const t = setup(nested)
      await t.start({ x: 'in' }, 'step') // __start__
      let o = await t.runs.continue('t', 'stepInto')
      expect(inner(o)).toEqual(['team', ['a']]) // the subgraph's __start__ step
      expect(o).toMatchObject({ status: 'paused', reason: 'step', next: ['team'] })
      const roots = await t.checkpoints()
      o = await t.runs.continue('t', 'step')
      expect(inner(o)).toEqual(['team', ['b']])
      // The subgraph's checkpoint is stored; the root has none more yet.
      expect(await t.checkpoints()).toBe(roots)
      if (o.status !== 'paused' || !o.inner) throw new Error('not inside')
      const at = await t.runtime.getState({ threadId: 't', checkpointNs: o.inner.ns })
      expect(at?.config.checkpointId).toBe(o.inner.checkpointId)
      expect(at?.values.log).toEqual(['a'])
      o = await t.runs.continue('t', 'step')
      expect(inner(o)).toEqual(['team', []])
      // The subgraph done, the next step is the root's: `team`'s step ends there.
      o = await t.runs.continue('t', 'step')
      expect(o).toMatchObject({ status: 'paused', reason: 'step', next: ['after'] })
      expect(inner(o)).toBeNull()
      expect(await t.checkpoints()).toBe(roots + 1)
      expect(await t.runs.continue('t', 'toEnd')).toMatchObject({ status: 'done' })
      expect(await log(t)).toEqual(['a', 'b', 'after'])
      const whole = setup(nested)
      await whole.start({ x: 'in' })
      expect(await log(whole)).toEqual(await log(t))
      // Inner events reached the page marked with their namespace, none as the root's.
      const innerSaved = t.events.filter((e) => e.type === 'checkpoint_saved' && e.ns)
      expect(innerSaved.map((e) => e.type === 'checkpoint_saved' && e.step)).toEqual([-1, 0, 1, 2])
    })

    it('over: a step runs the whole subgraph; out: the rest of it', async () => {
      const t = setup(nested)
      await t.start({ x: 'in' }, 'step')
      let o = await t.runs.continue('t', 'step')
      expect(o).toMatchObject({ status: 'paused', next: ['after'] })
      expect(inner(o)).toBeNull()
      const u = setup(nested)
      await u.start({ x: 'in' }, 'step')
      o = await u.runs.continue('t', 'stepInto')
      expect(inner(o)).toEqual(['team', ['a']])
      o = await u.runs.continue('t', 'stepOut')
      expect(o).toMatchObject({ status: 'paused', next: ['after'] })
      expect(inner(o)).toBeNull()
    })

    it('stop while paused inside: nothing more runs or is written, and the thread is free', async () => {
      const t = setup(nested)
      await t.start({ x: 'in' }, 'step')
      await t.runs.continue('t', 'stepInto')
      const calls = t.host.calls.node
      const written = t.events.filter((e) => e.type === 'checkpoint_saved').length
      expect(await t.runs.stop('t')).toEqual({ stopped: true, sandboxRestarted: false })
      await new Promise((r) => setTimeout(r, 20))
      expect(t.host.calls.node).toBe(calls)
      expect(t.events.filter((e) => e.type === 'checkpoint_saved').length).toBe(written)
      expect(() => t.runs.assertIdle('t')).not.toThrow()
    })
  })
})
