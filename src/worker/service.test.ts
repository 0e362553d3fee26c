import { afterEach, describe, expect, it, vi } from 'vitest'
import { chain, closeAll, setup } from './serviceHarness'

afterEach(closeAll)

describe('the runtime worker over its protocol', () => {
  it('compiles, runs to the end, and shows the thread', async () => {
    const t = await setup()
    expect(t.sandboxes.wanted).toHaveLength(0) // none until code must run
    const graphId = await t.compile()
    expect(t.host.calls.check).toBe(2)
    const outcome = await t.client.request('run', {
      graphId,
      threadId: 't1',
      input: { x: 'in' },
      mode: 'toEnd',
    })
    expect(outcome).toMatchObject({ status: 'done' })
    // The run's events are all delivered before its reply.
    expect(t.events.map((e) => e.type)).toContain('run_finished')
    const runEvents = t.events.filter((e) => !e.type.startsWith('sandbox_'))
    expect(runEvents[0]).toMatchObject({ type: 'run_started', threadId: 't1', graphId })
    const a = t.events.find((e) => e.type === 'task_finished' && e.name === 'a')
    expect(a).toMatchObject({ logs: [{ level: 'info', args: ['a ran'] }] })

    const history = await t.client.request('getHistory', { graphId, threadId: 't1' })
    expect(history.map((s) => s.metadata.step)).toEqual([2, 1, 0, -1])
    expect(history[0]?.values).toEqual({ x: 'b', log: ['a', 'b'] })
    expect(
      await t.client.request('getHistory', { graphId, threadId: 't1', limit: 1 }),
    ).toHaveLength(1)
    const state = await t.client.request('getState', { graphId, threadId: 't1' })
    expect(state?.next).toEqual([])
    expect(await t.client.request('getState', { graphId, threadId: 'none' })).toBeNull()
    expect(await t.client.request('listThreads', {})).toMatchObject([{ threadId: 't1', count: 4 }])
  })

  it('keeps a runtime warning with its task run: the timeline shows it at its step', async () => {
    const t = await setup()
    const graphId = await t.compile({
      ...chain,
      nodes: [
        { id: 'a', code: "(s) => ({ x: 'a', lgo: ['typo'] })" },
        { id: 'b', code: "(s) => ({ x: 'b' })" },
      ],
    })
    await t.client.request('run', { graphId, threadId: 'w', input: { x: 'in' }, mode: 'toEnd' })
    const live = t.events.find((e) => e.type === 'warning')
    expect(live).toMatchObject({ step: 1, warning: { code: 'UNKNOWN_UPDATE_KEY', node: 'a' } })
    const timeline = await t.client.request('getTimeline', { graphId, threadId: 'w' })
    const ranA = timeline.find((e) => e.step === 1)?.ran
    expect(ranA).toEqual([
      expect.objectContaining({
        name: 'a',
        warnings: [expect.objectContaining({ code: 'UNKNOWN_UPDATE_KEY' })],
      }),
    ])
    // Only the task that was warned about carries it.
    expect(timeline.find((e) => e.step === 2)?.ran[0]).not.toHaveProperty('warnings')
  })

  it('turns code that is not a function into issues at its node', async () => {
    const t = await setup()
    const r = await t.client.request('compile', {
      graph: {
        ...chain,
        nodes: [
          { id: 'a', code: '42' },
          { id: 'b', code: "(() => { throw new Error('no b') })()" },
        ],
        branches: [{ from: 'a', router: "'b'" }],
      },
    })
    expect(r.ok).toBe(false)
    expect(r.issues).toEqual([
      expect.objectContaining({
        code: 'CODE_NOT_A_FUNCTION',
        nodeId: 'a',
        path: ['nodes', 0, 'code'],
      }),
      expect.objectContaining({
        code: 'CODE_NOT_A_FUNCTION',
        nodeId: 'b',
        message: 'Node `b`: no b',
      }),
      expect.objectContaining({
        code: 'CODE_NOT_A_FUNCTION',
        nodeId: 'a',
        path: ['branches', 0, 'router'],
      }),
    ])
    const invalid = await t.client.request('compile', { graph: { superstep: 1 } })
    expect(invalid).toMatchObject({
      ok: false,
      issues: expect.arrayContaining([expect.objectContaining({ code: 'SCHEMA' })]),
    })
    expect(t.host.calls.check).toBe(3) // a document that does not parse is not checked
  })

  it("gives every compile, run and update a fresh sandbox of the graph's network mode", async () => {
    const t = await setup()
    const offline = await t.compile()
    // The checks ran in a sandbox of their own, released as soon as they were done.
    expect(t.sandboxes.wanted).toHaveLength(1)
    expect(t.sandboxes.released).toEqual(t.sandboxes.wanted)
    const online = await t.client.request('compile', {
      graph: chain,
      options: { allowNetwork: true },
    })
    if (!online.ok) throw new Error('no compile')
    expect(t.sandboxes.network).toEqual([false, true])
    // Two runs of one graph: two sandboxes, each released when its run ended.
    for (const threadId of ['r1', 'r2'])
      await t.client.request('run', { graphId: offline, threadId, input: {}, mode: 'toEnd' })
    await t.client.request('run', {
      graphId: online.graphId,
      threadId: 'r3',
      input: {},
      mode: 'toEnd',
    })
    expect(t.sandboxes.network).toEqual([false, true, false, false, true])
    await t.client.request('updateState', { graphId: offline, threadId: 'r1', values: { x: 1 } })
    expect(new Set(t.sandboxes.wanted).size).toBe(t.sandboxes.wanted.length)
    // Nothing is left alive: every sandbox asked for was released.
    expect(t.sandboxes.released.sort()).toEqual(t.sandboxes.wanted.slice().sort())
    expect(t.service.sandboxCount).toBe(0)
  })

  it('a run paused by a step keeps its sandbox; a late port of a released sandbox is refused', async () => {
    const t = await setup()
    const graphId = await t.compile()
    await t.client.request('run', { graphId, threadId: 's', input: {}, mode: 'step' })
    await t.client.request('continue', { threadId: 's', mode: 'step' })
    const runs = t.sandboxes.wanted.filter((id) => !t.sandboxes.released.includes(id))
    expect(runs).toHaveLength(1)
    await t.client.request('continue', { threadId: 's', mode: 'toEnd' })
    expect(t.sandboxes.released).toContain(runs[0])
    const late = new MessageChannel()
    expect(
      await t.client.request('sandboxPort', { sandboxId: runs[0]!, port: late.port1 }, [
        late.port1,
      ]),
    ).toEqual({ connected: false })
  })

  it('model nodes of a graph with Network off send nothing and say why', async () => {
    const t = await setup()
    const graph = {
      superstep: 1,
      name: 'm',
      state: [{ name: 'messages', reducer: 'add_messages', default: [] }],
      nodes: [
        {
          id: 'llm',
          kind: 'model',
          model: { provider: 'openai', baseUrl: 'http://127.0.0.1:9/v1', model: 'x' },
        },
      ],
      edges: [
        { from: '__start__', to: 'llm' },
        { from: 'llm', to: '__end__' },
      ],
    }
    const graphId = await t.compile(graph)
    const outcome = await t.client.request('run', {
      graphId,
      threadId: 'm',
      input: { messages: [{ type: 'human', content: 'hi' }] },
      mode: 'toEnd',
    })
    expect(outcome).toMatchObject({
      status: 'failed',
      error: { name: 'ModelCallError', code: 'MODEL_NETWORK_OFF' },
    })
    expect(JSON.stringify(outcome)).toContain('http://127.0.0.1:9/v1')
  })

  it('steps over the protocol and pauses with the next nodes', async () => {
    const t = await setup()
    const graphId = await t.compile()
    const run = { graphId, threadId: 's', input: { x: 'in' }, mode: 'step' } as const
    expect(await t.client.request('run', run)).toMatchObject({
      status: 'paused',
      reason: 'step',
      next: ['a'],
    })
    expect(t.events.at(-1)).toMatchObject({ type: 'run_paused', reason: 'step', next: ['a'] })
    await expect(t.client.request('run', run)).rejects.toMatchObject({
      name: 'ThreadBusyError',
      code: 'THREAD_BUSY',
    })
    await expect(
      t.client.request('updateState', { graphId, threadId: 's', values: { x: 'u' } }),
    ).rejects.toMatchObject({ code: 'THREAD_BUSY' })
    expect(await t.client.request('continue', { threadId: 's', mode: 'step' })).toMatchObject({
      next: ['b'],
    })
    expect(await t.client.request('continue', { threadId: 's', mode: 'toEnd' })).toMatchObject({
      status: 'done',
    })
  })

  it('stops a run whose task is still running and destroys its sandbox', async () => {
    // The loop in the worker, calling the sandbox (remoteRun.test.ts has the run beside it).
    const t = await setup({ loopProgram: false })
    const graphId = await t.compile({
      ...chain,
      nodes: [{ id: 'a', code: "async () => { await gate('never') }" }, chain.nodes[1]],
    })
    const outcome = t.client.request('run', {
      graphId,
      threadId: 'h',
      input: { x: 1 },
      mode: 'toEnd',
    })
    for (
      let i = 0;
      i < 200 && !t.events.some((e) => e.type === 'step_started' && e.tasks[0]?.name === 'a');
      i++
    )
      await new Promise((r) => setTimeout(r, 5))
    expect(await t.client.request('stop', { threadId: 'h' })).toEqual({
      stopped: true,
      sandboxRestarted: true,
    })
    expect(await outcome).toMatchObject({ status: 'stopped' })
    const types = t.events.map((e) => e.type)
    expect(types.slice(-2)).toEqual(['sandbox_hung', 'run_stopped'])
    expect(t.events.find((e) => e.type === 'sandbox_hung')).toMatchObject({
      reason: 'stopped',
      threadIds: ['h'],
    })
    // The stopped run's sandbox was released (its frame goes, with the code still running).
    const stopped = t.hosts.at(-1)!
    expect(stopped.isDisposed).toBe(true)
    // The next run gets a fresh one.
    t.host.open('never')
    const next = await t.client.request('run', {
      graphId,
      threadId: 'other',
      input: { x: 1 },
      mode: 'toEnd',
    })
    expect(next).toMatchObject({ status: 'done' })
    expect(t.hosts.at(-1)).not.toBe(stopped)
    expect(t.hosts.at(-1)?.isDisposed).toBe(true) // released when that run ended
  })

  it('a hung call destroys its sandbox; the same run or graph then gets a fresh one', async () => {
    const t = await setup({ loopProgram: false })
    const graphId = await t.compile({
      ...chain,
      nodes: [{ id: 'a', code: "async () => { await gate('hang') }" }, chain.nodes[1]],
    })
    const outcome = t.client.request('run', { graphId, threadId: 'h', input: {}, mode: 'toEnd' })
    // Under load the step may take a while to start: wait for it, not for a fixed time.
    await vi.waitFor(() => expect(t.events.some((e) => e.type === 'step_started')).toBe(true), {
      timeout: 15_000,
    })
    const hung = t.hosts.at(-1)!
    hung.hang() // what a SandboxCodeHost does when a call times out
    expect(await outcome).toMatchObject({ status: 'failed' })
    expect(hung.isDisposed).toBe(true)
    expect(t.events).toContainEqual(
      expect.objectContaining({ type: 'sandbox_hung', reason: 'timeout', threadIds: ['h'] }),
    )
    t.host.open('hang')
    expect(
      await t.client.request('run', { graphId, threadId: 'h2', input: {}, mode: 'toEnd' }),
    ).toMatchObject({ status: 'done' })
  })

  it('updates state, lists and deletes threads', async () => {
    const t = await setup()
    const graphId = await t.compile()
    await t.client.request('run', { graphId, threadId: 'u', input: { x: 'in' }, mode: 'toEnd' })
    const updated = await t.client.request('updateState', {
      graphId,
      threadId: 'u',
      values: { x: 'edited', nope: 1 },
      asNode: 'b',
    })
    expect(updated).toMatchObject({ threadId: 'u', warnings: [{ code: 'UNKNOWN_UPDATE_KEY' }] })
    const state = await t.client.request('getState', { graphId, threadId: 'u' })
    expect(state?.config.checkpointId).toBe(updated.checkpointId)
    expect(state?.values.x).toBe('edited')
    expect(await t.client.request('deleteThread', { threadId: 'u' })).toEqual({ deleted: true })
    expect(await t.client.request('listThreads', {})).toEqual([])
  })

  it('resumes an interrupt with a command', async () => {
    const t = await setup()
    const graphId = await t.compile({
      ...chain,
      nodes: [{ id: 'a', code: "(s) => ({ x: interrupt('who?') })" }, chain.nodes[1]],
    })
    const base = { graphId, threadId: 'i', mode: 'toEnd' } as const
    expect(await t.client.request('run', { ...base, input: {} })).toMatchObject({
      status: 'paused',
      reason: 'interrupt',
      interrupts: [{ value: 'who?', node: 'a' }],
    })
    expect(
      await t.client.request('run', { ...base, input: null, command: { resume: 'me' } }),
    ).toMatchObject({
      status: 'done',
    })
    expect((await t.client.request('getState', { graphId, threadId: 'i' }))?.values.log).toEqual([
      'b',
    ])
  })

  it('batches the events of a long run', async () => {
    const t = await setup()
    const graphId = await t.compile({
      superstep: 1,
      name: 'loop',
      state: [{ name: 'n', reducer: 'add', default: 0 }],
      nodes: [{ id: 'inc', code: '(s) => ({ n: 1 })' }],
      edges: [{ from: '__start__', to: 'inc' }],
      branches: [{ from: 'inc', router: "(s) => (s.n < 200 ? 'inc' : '__end__')" }],
    })
    const r = await t.client.request('run', {
      graphId,
      threadId: 'l',
      input: { n: 0 },
      mode: 'toEnd',
      recursionLimit: 500,
    })
    expect(r.status).toBe('done')
    expect(t.events.length).toBeGreaterThan(600)
    expect(t.batches.length).toBeLessThan(t.events.length / 5)
  })

  it('refuses what it cannot do, with codes', async () => {
    const t = await setup({ init: false, sandbox: false })
    await expect(t.client.request('listThreads', {})).rejects.toMatchObject({
      code: 'NOT_INITIALIZED',
    })
    const untyped = t.client.request.bind(t.client) as (type: string, p: object) => Promise<unknown>
    await expect(untyped('toString', {})).rejects.toMatchObject({ code: 'BAD_REQUEST' })
    await t.client.request('init', { dbName: t.dbName })
    await expect(t.client.request('init', { dbName: 'another' })).rejects.toMatchObject({
      code: 'ALREADY_INITIALIZED',
    })
    await expect(
      t.client.request('run', { graphId: 'nope', threadId: 't', input: null, mode: 'toEnd' }),
    ).rejects.toMatchObject({ name: 'UnknownGraphError', code: 'UNKNOWN_GRAPH' })
    // No sandbox port yet: code cannot be checked, and that is said plainly.
    await expect(t.client.request('compile', { graph: chain })).rejects.toMatchObject({
      name: 'SandboxUnavailableError',
      code: 'SANDBOX_UNAVAILABLE',
    })
    expect(
      await t.client.request('continue', { threadId: 't', mode: 'step' }).catch((e: unknown) => e),
    ).toMatchObject({
      code: 'NO_PAUSED_RUN',
    })
  })

  it('reads the threads of a graph compiled for reading, with no code run, and refuses to run it', async () => {
    const t = await setup()
    const graphId = await t.compile()
    await t.client.request('run', { graphId, threadId: 't1', input: { x: 'in' }, mode: 'toEnd' })
    // The same graph, its node `b` broken: it cannot compile, its thread can still be read.
    const broken = { ...chain, nodes: [chain.nodes[0], { id: 'b', code: '(s) => ({ x: ' }] }
    expect(await t.client.request('compile', { graph: broken })).toMatchObject({ ok: false })
    const checks = t.host.calls.check
    const sandboxes = t.sandboxes.wanted.length
    const read = await t.client.request('compileForReading', { graph: broken })
    const readId = read.graphId!
    expect(readId).toEqual(expect.any(String))
    const timeline = await t.client.request('getTimeline', { graphId: readId, threadId: 't1' })
    expect(timeline.map((e) => e.step)).toEqual([2, 1, 0, -1])
    expect(timeline.find((e) => e.step === 1)?.ran).toEqual([
      expect.objectContaining({ name: 'a' }),
    ])
    const inspection = await t.client.request('inspectCheckpoint', {
      graphId: readId,
      threadId: 't1',
      checkpointId: timeline[1]!.checkpointId,
    })
    expect(inspection?.channels).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'x', value: 'a' })]),
    )
    const state = await t.client.request('getState', { graphId: readId, threadId: 't1' })
    expect(state?.values).toEqual({ x: 'b', log: ['a', 'b'] })
    // Nothing of its code was checked or run, and no sandbox was asked for.
    expect(t.host.calls.check).toBe(checks)
    expect(t.sandboxes.wanted.length).toBe(sandboxes)
    const readOnly = { name: 'ReadOnlyGraphError', code: 'READ_ONLY_GRAPH' }
    await expect(
      t.client.request('run', { graphId: readId, threadId: 't1', input: {}, mode: 'toEnd' }),
    ).rejects.toMatchObject(readOnly)
    await expect(
      t.client.request('updateState', { graphId: readId, threadId: 't1', values: { x: 'z' } }),
    ).rejects.toMatchObject(readOnly)
    expect(await t.client.request('listThreads', {})).toMatchObject([{ threadId: 't1', count: 4 }])
    // A document the format refuses has no graph to read with.
    expect(await t.client.request('compileForReading', { graph: { superstep: 1 } })).toEqual({
      graphId: null,
    })
  })
})
