import { afterEach, describe, expect, it } from 'vitest'
import { chain, closeAll, setup } from './serviceHarness'

afterEach(closeAll)

describe('the runtime worker over its protocol', () => {
  it('compiles, runs to the end, and shows the thread', async () => {
    const t = await setup()
    expect(t.sandboxPorts).toHaveLength(1)
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
    expect(t.events[0]).toMatchObject({ type: 'run_started', threadId: 't1', graphId })
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

  it('warns when a graph wants the network the sandbox blocks', async () => {
    const t = await setup()
    const r = await t.client.request('compile', { graph: chain, options: { allowNetwork: true } })
    expect(r).toMatchObject({
      ok: true,
      issues: [expect.objectContaining({ code: 'NETWORK_BLOCKED', severity: 'warning' })],
    })
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

  it('stops a run whose task is still running and asks for a new sandbox', async () => {
    const t = await setup()
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
    // Until the page sends the new sandbox's port, code waits; then it runs there.
    const next = t.client.request('run', {
      graphId,
      threadId: 'other',
      input: { x: 1 },
      mode: 'step',
    })
    const fresh = new MessageChannel()
    expect(await t.client.request('sandboxPort', { port: fresh.port1 }, [fresh.port1])).toEqual({
      replaced: true,
    })
    expect(await next).toMatchObject({ status: 'paused' })
    fresh.port2.close()
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
})
