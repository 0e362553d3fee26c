import { afterEach, describe, expect, it, vi } from 'vitest'
import type { CheckpointTuple } from '../core/checkpoint/types'
import { hasSubgraphs, loadCases } from '../differential/compare'
import type { DiffCase } from '../differential/oracle'
import { loadSessions, type SessionCase } from '../differential/session'
import type { RunOutcome, WorkerEvent } from './protocol'
import { chain, closeAll, setup } from './serviceHarness'

afterEach(closeAll)

type Service = Awaited<ReturnType<typeof setup>>

/** UUIDs by order of first appearance, timestamps and run ids out: what two runs share. */
function canonical(value: unknown): unknown {
  const ids = new Map<string, string>()
  // Checkpoint ids, and the interrupt ids hashed from them.
  const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\b[0-9a-f]{32}\b/g
  const text = JSON.stringify(value, (k, v: unknown) =>
    k === 'ts' || k === 'runId' || k === 'durationMs' || k === 'at' ? undefined : v,
  )
  return JSON.parse(
    text.replace(UUID, (id) => {
      if (!ids.has(id)) ids.set(id, `id${ids.size}`)
      return ids.get(id) as string
    }),
  )
}

const RUN_EVENTS = new Set([
  'step_started',
  'task_finished',
  'task_failed',
  'task_interrupted',
  'checkpoint_saved',
  'warning',
  'run_paused',
  'run_finished',
  'run_failed',
])

/** One run of `c` on thread `threadId`: its outcome, the thread's checkpoints and the events. */
async function runCase(t: Service, c: DiffCase, threadId: string) {
  const graphId = await t.compile(c.graph)
  const from = t.events.length
  const outcome: RunOutcome = await t.client.request('run', {
    graphId,
    threadId,
    input: structuredClone(c.input) as never,
    ...(c.recursionLimit !== undefined && { recursionLimit: c.recursionLimit }),
    ...(c.configurable && { configurable: c.configurable as never }),
    mode: 'toEnd',
  })
  // Events reach the page in batches: the run's last one is there once the outcome is.
  await vi.waitFor(() =>
    expect(
      t.events.slice(from).some((e) => e.type.startsWith('run_') && e.type !== 'run_started'),
    ).toBe(true),
  )
  return { outcome, thread: await threadOf(t, threadId), events: runEvents(t.events.slice(from)) }
}

async function threadOf(t: Service, threadId: string): Promise<CheckpointTuple[]> {
  const out: CheckpointTuple[] = []
  for await (const tuple of t.storage().saver.list({ threadId })) out.push(tuple)
  return out
}

/**
 * The run's events; those of one super-step's tasks in task order (parallel tasks finish in
 * the order their code does, in LangGraph too: beside the code, a task's reply no longer
 * waits for the other's to be handled first).
 */
function runEvents(events: WorkerEvent[]) {
  const ofTask = (e: WorkerEvent) =>
    'taskId' in e ? e.taskId : e.type === 'warning' ? (e.warning as { node?: string }).node : null
  const out = events.filter((e) => RUN_EVENTS.has(e.type))
  // Sort each run of consecutive task events by task (stable: a task's own order stays).
  for (let i = 0; i < out.length;) {
    let j = i
    while (j < out.length && ofTask(out[j]!) !== null) j++
    const run = out.slice(i, j).sort((a, b) => String(ofTask(a)).localeCompare(String(ofTask(b))))
    out.splice(i, run.length, ...run)
    i = j + 1
  }
  return out
}

/**
 * The loop program, counting the runs it starts (the sandboxes run in this realm here, so
 * the count is this realm's).
 */
async function countedLoopProgram(): Promise<string> {
  const { default: source } = await import('virtual:sandbox-loop')
  return `${source}
;__superstepLoop = ((m) => ({ startLoop(api) {
  globalThis.__besideRuns = (globalThis.__besideRuns ?? 0) + 1
  return m.startLoop(api)
} }))(__superstepLoop);`
}

const besideRuns = () => (globalThis as { __besideRuns?: number }).__besideRuns ?? 0

describe('runs beside the code (the loop in the sandbox) do what the loop in the worker does', () => {
  it('every differential case without subgraphs: the same outcome, checkpoints and events', async () => {
    const cases = loadCases().filter(
      (c) => !hasSubgraphs(c.graph) && !c.graph.nodes.some((n) => n.kind === 'model'),
    )
    expect(cases.length).toBeGreaterThan(150)
    const beside = await setup({ realSandbox: true, loopProgram: countedLoopProgram })
    const worker = await setup({ realSandbox: true, loopProgram: false })
    for (const [i, c] of cases.entries()) {
      const before = besideRuns()
      const ours = await runCase(beside, c, `t${i}`)
      expect(besideRuns(), c.file).toBe(before + 1)
      const theirs = await runCase(worker, c, `t${i}`)
      expect(besideRuns(), c.file).toBe(before + 1)
      expect(canonical(ours), c.file).toEqual(canonical(theirs))
    }
  }, 180_000)
})

/**
 * A differential session's ops as the page makes them (runs to the end, state updates), on
 * thread `threadId`; the thread and the events after each op. Ops address checkpoints by
 * their index in the thread's history, oldest first.
 */
async function runSession(t: Service, c: SessionCase, threadId: string) {
  const graphId = await t.compile(c.graph)
  const out: unknown[] = []
  for (const op of c.ops) {
    const history = (await threadOf(t, threadId)).filter((x) => !x.config.checkpointNs).reverse()
    const checkpointId =
      op.checkpoint === undefined ? undefined : history[op.checkpoint]?.config.checkpointId
    const from = t.events.length
    const base = { graphId, threadId, ...(checkpointId && { checkpointId }) }
    const run = (p: Record<string, unknown>) =>
      t.client.request('run', {
        ...base,
        input: null,
        ...(c.recursionLimit !== undefined && { recursionLimit: c.recursionLimit }),
        mode: 'toEnd',
        ...p,
      })
    let outcome: unknown
    if (op.op === 'invoke') outcome = await run({ input: structuredClone(op.input) })
    else if (op.op === 'resume' && 'value' in op)
      outcome = await run({ command: { resume: op.value } })
    else if (op.op === 'command') {
      const { op: _op, checkpoint: _c, continueOnError: _e, ...command } = op
      outcome = await run({ command })
    } else if (op.op === 'update') {
      outcome = await t.client
        .request('updateState', {
          ...base,
          values: op.values as never,
          ...(op.asNode !== undefined && { asNode: op.asNode }),
        })
        .then(
          () => 'updated',
          (e: Error) => e.message,
        )
    }
    if (op.op !== 'update')
      await vi.waitFor(() =>
        expect(
          t.events.slice(from).some((e) => e.type.startsWith('run_') && e.type !== 'run_started'),
        ).toBe(true),
      )
    out.push({ outcome, events: runEvents(t.events.slice(from)) })
  }
  return { ops: out, thread: await threadOf(t, threadId) }
}

/** Whether the page's requests can make `c`'s ops (a resume map by node, a bulk update cannot). */
function pageCanRun(c: SessionCase): boolean {
  return (
    !hasSubgraphs(c.graph) &&
    !c.graph.nodes.some((n) => n.kind === 'model') &&
    c.ops.every(
      (op) =>
        op.subgraphCheckpoint === undefined &&
        (op.op === 'invoke' ||
          op.op === 'command' ||
          op.op === 'update' ||
          (op.op === 'resume' && 'value' in op)),
    )
  )
}

describe('sessions beside the code (resumes, commands, forks, updates) do what the loop in the worker does', () => {
  it('every differential session the page can make: the same outcomes, thread and events', async () => {
    const sessions = loadSessions().filter(pageCanRun)
    expect(sessions.length).toBeGreaterThan(100)
    const beside = await setup({ realSandbox: true, loopProgram: countedLoopProgram })
    const worker = await setup({ realSandbox: true, loopProgram: false })
    const started = besideRuns()
    for (const [i, c] of sessions.entries()) {
      const ours = await runSession(beside, c, `s${i}`)
      const theirs = await runSession(worker, c, `s${i}`)
      expect(canonical(ours), c.file).toEqual(canonical(theirs))
    }
    expect(besideRuns() - started).toBeGreaterThan(200)
  }, 300_000)
})

/**
 * The service over real sandboxes with a code call's time limit of `ms`, and the loop
 * program given (its text, or how to load it; default the real one).
 */
async function withTimeLimit(ms: number, program?: string | (() => Promise<string>)) {
  const loopProgram = typeof program === 'string' ? () => Promise.resolve(program) : program
  const t = await setup({ realSandbox: true, init: false, ...(loopProgram && { loopProgram }) })
  await t.client.request('init', { dbName: t.dbName, sandboxTimeoutMs: ms })
  return t
}

/** Runs graph `graphId` from `{}` to its end on thread `h` of `t`: the outcome. */
const runToEnd = (t: Awaited<ReturnType<typeof setup>>, graphId: string) =>
  t.client.request('run', { graphId, threadId: 'h', input: {}, mode: 'toEnd' })

describe('a run beside the code', () => {
  it('takes the sandbox path only where it can: to the end, unwatched', async () => {
    const t = await setup()
    const graphId = await t.compile()
    expect(
      await t.client.request('run', { graphId, threadId: 'a', input: { x: 1 }, mode: 'toEnd' }),
    ).toMatchObject({ status: 'done' })
    const loops = () => t.hosts.reduce((n, h) => n + h.loopsStarted, 0)
    expect(loops()).toBe(1)
    expect(t.host.calls.node).toBe(0) // the code ran in the sandbox's own sandboxMain
    // A step runs the loop here, calling the sandbox per task.
    await t.client.request('run', { graphId, threadId: 'b', input: { x: 1 }, mode: 'step' })
    await t.client.request('continue', { threadId: 'b', mode: 'toEnd' })
    expect(loops()).toBe(1)
    expect(t.host.calls.node).toBe(2)
    // A watched thread streams from the loop here too.
    await t.client.request('watchStream', { threadId: 'c', on: true })
    await t.client.request('run', { graphId, threadId: 'c', input: { x: 1 }, mode: 'toEnd' })
    expect(loops()).toBe(1)
    expect(t.host.calls.node).toBe(4)
  })

  it('shows which node runs while its code waits, before the step ends', async () => {
    const t = await setup({ realSandbox: true, loopProgram: countedLoopProgram })
    const graphId = await t.compile({
      ...chain,
      nodes: [
        chain.nodes[0],
        {
          id: 'b',
          code: 'async () => { await new Promise((r) => setTimeout(r, 400)); return {} }',
        },
      ],
    })
    const started = besideRuns()
    const outcome = t.client.request('run', { graphId, threadId: 'w', input: {}, mode: 'toEnd' })
    await vi.waitFor(() =>
      expect(t.events).toContainEqual(
        expect.objectContaining({
          type: 'step_started',
          tasks: [expect.objectContaining({ name: 'b' })],
        }),
      ),
    )
    expect(t.events.some((e) => e.type === 'task_finished' && e.name === 'b')).toBe(false)
    expect(await outcome).toMatchObject({ status: 'done' })
    expect(besideRuns()).toBe(started + 1)
  })

  it('is stopped with its sandbox while its code runs; what it saved stays', async () => {
    const stopped = async (loopProgram?: false) => {
      const t = await setup({ realSandbox: true, ...(loopProgram === false && { loopProgram }) })
      const graphId = await t.compile({
        ...chain,
        nodes: [chain.nodes[0], { id: 'b', code: 'async () => { await new Promise(() => {}) }' }],
      })
      const outcome = t.client.request('run', { graphId, threadId: 'h', input: {}, mode: 'toEnd' })
      await vi.waitFor(() =>
        expect(t.events).toContainEqual(
          expect.objectContaining({ type: 'checkpoint_saved', step: 1 }),
        ),
      )
      await new Promise((r) => setTimeout(r, 20))
      expect(await t.client.request('stop', { threadId: 'h' })).toEqual({
        stopped: true,
        sandboxRestarted: true,
      })
      expect(await outcome).toMatchObject({ status: 'stopped' })
      return (await threadOf(t, 'h')).map((c) => c.metadata.step)
    }
    const steps = await stopped()
    expect(steps).toEqual([1, 0, -1])
    expect(steps).toEqual(await stopped(false))
  })

  it('a node that never answers fails the run with its name and destroys the sandbox', async () => {
    const t = await withTimeLimit(200)
    const graphId = await t.compile({
      ...chain,
      nodes: [{ id: 'a', code: 'async () => { await new Promise(() => {}) }' }, chain.nodes[1]],
    })
    const outcome = await runToEnd(t, graphId)
    expect(outcome).toMatchObject({
      status: 'failed',
      error: {
        name: 'NodeTimeoutError',
        message: expect.stringMatching(/^Node `a` did not finish within 0.2 s/),
      },
    })
  })

  it('a sandbox that says nothing is taken for hung: the run fails and the page hears it', async () => {
    // A loop program that never posts: what a `while (true)` in the code looks like from here.
    const t = await withTimeLimit(100, 'var __superstepLoop = { startLoop() {} }')
    const graphId = await t.compile()
    const outcome = await runToEnd(t, graphId)
    expect(outcome).toMatchObject({
      status: 'failed',
      error: {
        name: 'NodeTimeoutError',
        message: expect.stringMatching(/did not finish within 0.1 s/),
      },
    })
    await vi.waitFor(() =>
      expect(t.events).toContainEqual(
        expect.objectContaining({ type: 'sandbox_hung', reason: 'timeout', threadIds: ['h'] }),
      ),
    )
  })

  it('a sandbox that stops answering mid-run fails the node of the next step, as a timeout does', async () => {
    // The real program, its posts cut after node `a`'s step (its third): from here, a
    // `while (true)` in node `b`.
    const cut = async () => `${await countedLoopProgram()}
;__superstepLoop = ((m) => ({ startLoop(api) {
  return m.startLoop({ ...api, post: (msg) => {
    if (msg.kind === 'loop' && msg.steps.some((s) => s.n > 2)) return
    api.post(msg)
  } })
} }))(__superstepLoop);`
    const t = await withTimeLimit(100, cut)
    const graphId = await t.compile()
    const outcome = await runToEnd(t, graphId)
    expect(outcome).toMatchObject({
      status: 'failed',
      error: {
        name: 'NodeTimeoutError',
        node: 'b',
        message: expect.stringMatching(/^Node `b` did not finish within 0.1 s/),
      },
    })
    await vi.waitFor(() =>
      expect(t.events).toContainEqual(
        expect.objectContaining({ type: 'task_failed', step: 2, name: 'b' }),
      ),
    )
    expect(t.events.filter((e) => e.type === 'step_started').map((e) => e.step)).toEqual([0, 1, 2])
    expect((await threadOf(t, 'h')).map((c) => c.metadata.step)).toEqual([1, 0, -1])
  })

  it('paused, it waits as long as it likes, then goes on to the same end', async () => {
    const t = await withTimeLimit(100, countedLoopProgram)
    const graphId = await t.compile({
      superstep: 1,
      name: 'slow-cycle',
      state: [{ name: 'n', reducer: 'add', default: 0 }],
      nodes: [
        {
          id: 'inc',
          code: 'async () => { await new Promise((r) => setTimeout(r, 2)); return { n: 1 } }',
        },
      ],
      edges: [{ from: '__start__', to: 'inc' }],
      branches: [
        { from: 'inc', router: "(s) => s.n < 200 ? 'inc' : '__end__'", paths: ['inc', '__end__'] },
      ],
    })
    const started = besideRuns()
    const outcome = t.client.request('run', {
      graphId,
      threadId: 'p',
      input: {},
      recursionLimit: 300,
      mode: 'toEnd',
    })
    await vi.waitFor(() =>
      expect(t.events).toContainEqual(
        expect.objectContaining({ type: 'checkpoint_saved', step: 5 }),
      ),
    )
    await t.client.request('pause', { threadId: 'p' })
    expect(await outcome).toMatchObject({ status: 'paused', reason: 'pause' })
    expect(besideRuns()).toBe(started + 1)
    await new Promise((r) => setTimeout(r, 1500)) // past the time limit and its second
    expect(t.events.some((e) => e.type === 'sandbox_hung')).toBe(false)
    expect(await t.client.request('continue', { threadId: 'p', mode: 'toEnd' })).toMatchObject({
      status: 'done',
    })
    const values = await t.client.request('getState', { graphId, threadId: 'p' })
    expect(values).toMatchObject({ values: { n: 200 } })
  })

  it('blames a hang after a step that left a timer on that timer', async () => {
    const leftTimer = `var __superstepLoop = { startLoop(api) {
      api.post({ id: api.request.id, kind: 'loop', steps: [{ n: 0, ops: [], leftover: true }] })
    } }`
    const t = await withTimeLimit(100, leftTimer)
    const graphId = await t.compile()
    const outcome = await runToEnd(t, graphId)
    expect(outcome).toMatchObject({
      status: 'failed',
      error: {
        name: 'NodeTimeoutError',
        message: expect.stringContaining(
          'code left running in its sandbox (a timer set by an earlier step) held it',
        ),
      },
    })
  })

  it('refuses a step that writes another thread', async () => {
    const forged = `var __superstepLoop = { startLoop(api) {
      api.post({ id: api.request.id, kind: 'loop', steps: [{ n: 0, ops: [['writes', { threadId: 'other', checkpointId: 'x' }, [], 't']] }] })
    } }`
    const t = await setup({ realSandbox: true, loopProgram: () => Promise.resolve(forged) })
    const graphId = await t.compile()
    const outcome = await runToEnd(t, graphId)
    expect(outcome).toMatchObject({
      status: 'failed',
      error: { name: 'SandboxProtocolError', message: expect.stringContaining('another thread') },
    })
    expect(await threadOf(t, 'other')).toEqual([])
  })
})
