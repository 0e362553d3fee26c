import { afterEach, describe, expect, it } from 'vitest'
import type { TaskRunRow } from '../persistence/db'
import type { DexieCheckpointSaver } from '../persistence/dexieSaver'
import { clearRuns } from '../persistence/saverTestKit'
import { TEMPLATES } from '../templates'
import type { Json } from './protocol'
import { chain, closeAll, setup } from './serviceHarness'

afterEach(closeAll)

const byCheckpoint = (rows: TaskRunRow[]) =>
  rows.map((r) => [r.checkpointId, r.name]).sort((a, b) => String(a).localeCompare(String(b)))

describe('recording task runs', () => {
  it('records each task against the checkpoint it ran from, in at most one write per step', async () => {
    const t = await setup()
    const graphId = await t.compile()
    const s = t.storage()
    let writes = 0
    const record = s.taskRuns.record.bind(s.taskRuns)
    s.taskRuns.record = (rows) => (writes++, record(rows))
    await t.client.request('run', {
      graphId,
      threadId: 'g:main',
      input: { x: 'in' },
      mode: 'toEnd',
    })
    const history = await t.client.request('getHistory', { graphId, threadId: 'g:main' })
    const [input, start, a] = [...history].reverse().map((h) => h.config.checkpointId)
    const rows = await s.taskRuns.ofThread('g:main')
    expect(byCheckpoint(rows)).toEqual(
      byCheckpoint([
        { checkpointId: input, name: '__start__' },
        { checkpointId: start, name: 'a' },
        { checkpointId: a, name: 'b' },
      ] as TaskRunRow[]),
    )
    // Steps share writes (taskRunRecorder.test.ts): at most one per step, at least one.
    expect(writes).toBeGreaterThan(0)
    expect(writes).toBeLessThanOrEqual(3)
    const ranA = rows.find((r) => r.name === 'a')
    expect(ranA).toMatchObject({ logs: [{ level: 'info', args: ['a ran'] }] })
    expect(ranA?.durationMs).toBeGreaterThanOrEqual(0)
  })

  it('records a failed task with its error, and a resumed task from where it ran', async () => {
    const t = await setup()
    const graphId = await t.compile({
      ...chain,
      nodes: [
        { id: 'a', code: "(s) => ({ x: interrupt('who?') })" },
        { id: 'b', code: "(s) => { if (s.x === 'bad') throw new TypeError('no b'); return {} }" },
      ],
    })
    const base = { graphId, threadId: 'g:t', mode: 'toEnd' } as const
    await t.client.request('run', { ...base, input: {} })
    const paused = await t.client.request('getState', { graphId, threadId: 'g:t' })
    // The resume saves no checkpoint before its step: the step still records against `paused`.
    const failed = await t.client.request('run', {
      ...base,
      input: null,
      command: { resume: 'bad' },
    })
    expect(failed).toMatchObject({ status: 'failed', error: { node: 'b' } })
    const rows = await t.storage().taskRuns.ofThread('g:t')
    expect(rows.find((r) => r.name === 'a')?.checkpointId).toBe(paused?.config.checkpointId)
    expect(rows.find((r) => r.name === 'b')).toMatchObject({
      error: { name: 'TypeError', message: 'no b' },
      logs: [],
    })
  })

  it('warns when task runs cannot be recorded, and the run goes on', async () => {
    const t = await setup({
      storage: (s) => ({
        ...s,
        taskRuns: Object.assign(Object.create(s.taskRuns) as typeof s.taskRuns, {
          record: () => Promise.reject(new Error('disk on fire')),
        }),
      }),
    })
    const graphId = await t.compile()
    const outcome = await t.client.request('run', {
      graphId,
      threadId: 'w',
      input: { x: 'in' },
      mode: 'toEnd',
    })
    expect(outcome).toMatchObject({ status: 'done' })
    const warnings = t.events.filter((e) => e.type === 'warning')
    expect(warnings).toHaveLength(3)
    expect(warnings[0]).toMatchObject({
      warning: { code: 'TASK_RUNS_NOT_RECORDED', message: expect.stringContaining('disk on fire') },
    })
    // Every warning came before the end of the run.
    expect(t.events.at(-1)?.type).toBe('run_finished')
  })
})

describe('inspectCheckpoint', () => {
  it('inspects a checkpoint with the durations and logs of the tasks that made it', async () => {
    const t = await setup()
    const graphId = await t.compile()
    await t.client.request('run', { graphId, threadId: 'i', input: { x: 'in' }, mode: 'toEnd' })
    const history = await t.client.request('getHistory', { graphId, threadId: 'i' })
    const byA = history.find((h) => h.metadata.step === 1)
    const inspection = await t.client.request('inspectCheckpoint', {
      graphId,
      threadId: 'i',
      checkpointId: byA?.config.checkpointId,
    })
    expect(inspection).toMatchObject({
      checkpointId: byA?.config.checkpointId,
      parentId: byA?.parentConfig?.checkpointId,
      step: 1,
      source: 'loop',
      next: ['b'],
    })
    expect(inspection?.ran).toHaveLength(1)
    expect(inspection?.ran[0]).toMatchObject({
      name: 'a',
      logs: [{ level: 'info', args: ['a ran'] }],
    })
    expect(inspection?.ran[0]?.durationMs).toBeTypeOf('number')
    const latest = await t.client.request('inspectCheckpoint', { graphId, threadId: 'i' })
    expect(latest).toMatchObject({ checkpointId: history[0]?.config.checkpointId, step: 2 })
    expect(latest?.ran.map((r) => r.name)).toEqual(['b'])
    expect(await t.client.request('inspectCheckpoint', { graphId, threadId: 'none' })).toBeNull()
  })
})

describe('getTimeline', () => {
  it('shows a forked thread newest first, with what ran and what runs next', async () => {
    const t = await setup()
    const graphId = await t.compile()
    const threadId = 'g:fork'
    await t.client.request('run', { graphId, threadId, input: { x: 'in' }, mode: 'toEnd' })
    const first = await t.client.request('getHistory', { graphId, threadId })
    const byStart = first.find((h) => h.metadata.step === 0)?.config.checkpointId
    const forked = await t.client.request('updateState', {
      graphId,
      threadId,
      checkpointId: byStart,
      values: { x: 'edited' },
    })
    await t.client.request('run', { graphId, threadId, input: null, mode: 'toEnd' })

    const timeline = await t.client.request('getTimeline', { graphId, threadId })
    const history = await t.client.request('getHistory', { graphId, threadId })
    expect(timeline.map((e) => e.checkpointId)).toEqual(history.map((h) => h.config.checkpointId))
    expect(timeline.map((e) => e.next)).toEqual(history.map((h) => h.next))
    expect(timeline.map((e) => e.parentId)).toEqual(
      history.map((h) => h.parentConfig?.checkpointId),
    )
    expect(timeline.map((e) => [e.step, e.source, e.ran.map((r) => r.name)])).toEqual([
      [3, 'loop', ['b']],
      [2, 'loop', ['a']],
      [1, 'update', []],
      [2, 'loop', ['b']],
      [1, 'loop', ['a']],
      [0, 'loop', ['__start__']],
      [-1, 'input', []],
    ])
    expect(timeline[2]).toMatchObject({ checkpointId: forked.checkpointId, parentId: byStart })
    for (const e of timeline)
      for (const r of e.ran) {
        expect(r.durationMs).toBeTypeOf('number')
        expect(r).not.toHaveProperty('failed')
      }
    expect(timeline.at(-1)?.next).toEqual(['__start__'])

    // Pages like getHistory: a limit, and only checkpoints older than `before`.
    const page = await t.client.request('getTimeline', {
      graphId,
      threadId,
      limit: 2,
      before: timeline[3]?.checkpointId,
    })
    expect(page).toEqual(timeline.slice(4, 6))
    expect(await t.client.request('getTimeline', { graphId, threadId: 'none' })).toEqual([])
  })

  it("agrees with getHistory's next where a Command's goto is pending", async () => {
    const t = await setup()
    const graphId = await t.compile()
    const base = { graphId, threadId: 'go', mode: 'toEnd' } as const
    await t.client.request('run', { ...base, input: { x: 'in' } })
    await t.client.request('run', {
      ...base,
      input: null,
      command: { goto: 'b', update: { x: 'u' } },
    })
    const timeline = await t.client.request('getTimeline', { graphId, threadId: 'go' })
    const history = await t.client.request('getHistory', { graphId, threadId: 'go' })
    expect(timeline.map((e) => e.next)).toEqual(history.map((h) => h.next))
    // The end of the first run: nothing was next until the goto was stored against it.
    expect(timeline.map((e) => [e.step, e.source, e.next])).toEqual([
      [4, 'loop', []],
      [3, 'input', ['b']],
      [2, 'loop', ['b']],
      [1, 'loop', ['b']],
      [0, 'loop', ['a']],
      [-1, 'input', ['__start__']],
    ])
  })

  it('names the tasks of a thread recorded before task runs existed', async () => {
    const t = await setup()
    const graphId = await t.compile()
    await t.client.request('run', { graphId, threadId: 'old', input: { x: 'in' }, mode: 'toEnd' })
    await clearRuns((t.storage().saver as DexieCheckpointSaver).db)
    const timeline = await t.client.request('getTimeline', { graphId, threadId: 'old' })
    expect(timeline.map((e) => e.ran)).toEqual([
      [{ name: 'b' }],
      [{ name: 'a' }],
      [{ name: '__start__' }],
      [],
    ])
  })
})

describe('a subgraph in the debugger', () => {
  it("reads a graph node's subgraph checkpoints by the namespace its timeline task names", async () => {
    const { default: supervisor } = await import('../../examples/supervisor.json')
    const t = await setup()
    const graphId = await t.compile(supervisor)
    const threadId = 'g:sub'
    const out = await t.client.request('run', {
      graphId,
      threadId,
      input: { messages: [{ role: 'user', content: 'owls' }] },
      mode: 'toEnd',
    })
    expect(out.status).toBe('done')
    const timeline = await t.client.request('getTimeline', { graphId, threadId })
    const task = timeline.flatMap((e) => e.ran).find((r) => r.name === 'researcher')
    expect(task?.ns).toMatch(/^researcher:/)
    // The researcher's own steps: input, START, agent, tools, agent, report.
    const inner = await t.client.request('getTimeline', {
      graphId,
      threadId,
      checkpointNs: task?.ns,
    })
    expect(
      inner
        .slice()
        .reverse()
        .map((e) => [e.step, e.ran.map((r) => r.name).join()]),
    ).toEqual([
      [-1, ''],
      [0, '__start__'],
      [1, 'agent'],
      [2, 'tools'],
      [3, 'agent'],
      [4, 'report'],
    ])
    const last = await t.client.request('inspectCheckpoint', {
      graphId,
      threadId,
      checkpointId: inner[0]?.checkpointId,
      checkpointNs: task?.ns,
    })
    expect(last?.channels.find((c) => c.name === 'done')?.value).toEqual(['researcher'])
    // The root's own timeline is not mixed with them.
    expect(timeline.every((e) => !inner.some((i) => i.checkpointId === e.checkpointId))).toBe(true)
    await expect(
      t.client.request('getTimeline', { graphId, threadId, checkpointNs: 'supervisor:x' }),
    ).rejects.toMatchObject({ code: 'UNKNOWN_NAMESPACE' })
    // The graph given a problem (a node nothing reaches) and compiled for reading only: the
    // subgraph's checkpoints read the same.
    const broken = {
      ...supervisor,
      nodes: [...supervisor.nodes, { id: 'stray', code: '(s) => ({})' }],
    }
    expect(await t.client.request('compile', { graph: broken })).toMatchObject({ ok: false })
    const read = (await t.client.request('compileForReading', { graph: broken })).graphId!
    expect(read).toEqual(expect.any(String))
    const again = await t.client.request('getTimeline', {
      graphId: read,
      threadId,
      checkpointNs: task?.ns,
    })
    expect(again).toEqual(inner)
  })
})

describe("the timeline's next steps", () => {
  // Each template: joins (a barrier's seen and unseen triggers), Sends, routers, subgraphs,
  // interrupts. The timeline reads only what decides `next`; getHistory reads whole states.
  it.each(TEMPLATES.map((t) => [t.id, t] as const))(
    '%s: every checkpoint lists the next steps getHistory does',
    async (_, template) => {
      const t = await setup()
      const graphId = await t.compile(template.doc)
      const threadId = 'g:main'
      const input = template.input as Json
      await t.client.request('run', { graphId, threadId, input, mode: 'toEnd' })
      const history = await t.client.request('getHistory', { graphId, threadId })
      const timeline = await t.client.request('getTimeline', { graphId, threadId, limit: 1000 })
      expect(history.length).toBeGreaterThan(2)
      const nextOf = new Map(history.map((h) => [h.config.checkpointId, h.next]))
      expect(timeline.map((e) => [e.checkpointId, e.next])).toEqual(
        timeline.map((e) => [e.checkpointId, nextOf.get(e.checkpointId)]),
      )
    },
  )
})
