import { afterEach, describe, expect, it, vi } from 'vitest'
import { SandboxCodeHost, type SandboxHostOptions } from './sandboxHost'
import type { SandboxRequest } from './sandboxProtocol'
import { startSandboxInProcess } from './testSandbox'
import { runGraph, runSession, type SessionOp } from '../../core/run'
import session285 from '../../differential/sessions/285-subgraph-code-call-interrupt-resume.json'
import customWriter from '../../differential/streamCases/01-custom-writer.json'
import configurable from '../../differential/streamCases/02-configurable-settings.json'
import { streamGraph } from '../../core/stream'
import { parseGraph } from '../../core/graph/validate'
import { createCountingEnv } from '../../lib/env'

const ports: MessagePort[] = []
afterEach(() => {
  for (const p of ports.splice(0)) p.close()
  vi.useRealTimers()
})

/** A channel whose far end the test plays: it sees requests and answers by hand. */
function fakeSandbox({ autoStart = true } = {}) {
  const { port1, port2 } = new MessageChannel()
  ports.push(port1, port2)
  const requests: SandboxRequest[] = []
  let onRequest: (r: SandboxRequest) => void = () => {}
  port2.onmessage = (e: MessageEvent<SandboxRequest>) => {
    requests.push(e.data)
    if (autoStart) port2.postMessage({ id: e.data.id, kind: 'started' })
    onRequest(e.data)
  }
  return {
    port: port1,
    requests,
    reply: (message: unknown) => port2.postMessage(message),
    /** Resolves with the next request the sandbox receives. */
    next: () => new Promise<SandboxRequest>((resolve) => (onRequest = resolve)),
  }
}

function realHost(options?: SandboxHostOptions) {
  const port = startSandboxInProcess()
  ports.push(port)
  return new SandboxCodeHost(port, options)
}

/** Lets messages between ports through (setImmediate is never faked here). */
const flush = async () => {
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r))
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

const expectRejection = async (p: Promise<unknown>) => {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  )
  expect(e).toBeInstanceOf(Error)
  return e as Error & { line?: number; column?: number }
}

describe('SandboxCodeHost over the real sandbox program', () => {
  it('runs nodes, routers, reducers and checks', async () => {
    const logs: unknown[] = []
    const host = realHost({ onLogs: (ref, l) => logs.push([ref, l.map((x) => x.args)]) })
    const result = await host.runNode('inc', '(s) => ({ n: s.n + 1 })', { n: 1 }, { resume: [] })
    expect(result).toEqual({ kind: 'ok', output: { n: 2 }, resume: null, logs: [] })
    const route = await host.runRouter('r', "(s) => { console.log('routing'); return END }", {})
    expect(route).toBe('__end__')
    expect(logs).toEqual([[{ kind: 'router', owner: 'r' }, [['routing']]]])
    expect(await host.foldReducer('f', '(a, b) => a + b', undefined, [1, 2, 3])).toBe(6)
    expect(await host.check('n', 'node', '(s) => s')).toBeNull()
  })

  it('rejects with Errors carrying name, message, line and column (syntax errors too)', async () => {
    const host = realHost()
    const e = await expectRejection(
      host.runNode('n', '(s) => {\n  return s.a.b\n}', {}, { resume: [] }),
    )
    expect([e.name, e.message, e.line, e.column]).toEqual([
      'TypeError',
      "Cannot read properties of undefined (reading 'b')",
      2,
      14,
    ])
    const syntax = await expectRejection(host.runRouter('r', '(s) =>\n  s +* 2', {}))
    expect([syntax.name, syntax.line, syntax.column]).toEqual(['SyntaxError', 2, 6])
  })
})

describe('node code in the sandbox calling a subgraph (subgraphs.<name>.invoke)', () => {
  const graph = (step: string) => ({
    superstep: 1,
    name: 'caller',
    state: [{ name: 'log', reducer: 'append', default: [] }],
    nodes: [
      {
        id: 'caller',
        code: "async (s) => { const r = await subgraphs.slow.invoke({ log: ['in'] }); return { log: r.log } }",
      },
    ],
    edges: [{ from: '__start__', to: 'caller' }],
    subgraphs: {
      slow: {
        state: [{ name: 'log', reducer: 'append', default: [] }],
        nodes: ['a', 'b', 'c'].map((id) => ({ id, code: step.replace('ID', id) })),
        edges: [
          { from: '__start__', to: 'a' },
          { from: 'a', to: 'b' },
          { from: 'b', to: 'c' },
        ],
      },
    },
  })
  const run = async (doc: unknown, options?: SandboxHostOptions) => {
    const parsed = parseGraph(doc)
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues))
    const host = realHost(options)
    return runGraph(parsed.spec, { input: {}, env: createCountingEnv(), host })
  }

  it("runs the subgraph's own code there too, as a run outside the sandbox does", async () => {
    const doc = graph("(s) => ({ log: ['ID'] })")
    const parsed = parseGraph(doc)
    if (!parsed.ok) throw new Error('bad graph')
    const local = await runGraph(parsed.spec, { input: {}, env: createCountingEnv() })
    const sandboxed = await run(doc)
    expect(sandboxed.error).toBeNull()
    expect(sandboxed.values).toEqual({ log: ['in', 'a', 'b', 'c'] })
    expect(sandboxed).toEqual(local)
  })

  it("stops the calling node's clock while the subgraph runs (its own calls have theirs)", async () => {
    // Each inner node takes 120 ms, within the 250 ms a call may take; the caller waits
    // about 360 ms for all three, which would be over it if its clock ran.
    const step =
      "async (s) => { await new Promise((r) => setTimeout(r, 120)); return { log: ['ID'] } }"
    const out = await run(graph(step), { timeoutMs: 250 })
    expect(out.error).toBeNull()
    expect(out.values).toEqual({ log: ['in', 'a', 'b', 'c'] })
  })

  it("an interrupt inside the subgraph is the calling node's; the reply resumes inside", async () => {
    // Session 285 of the differential suite, through the real sandbox program.
    const parsed = parseGraph(session285.graph)
    if (!parsed.ok) throw new Error('bad graph')
    const ops = session285.ops as unknown as SessionOp[]
    const local = await runSession(parsed.spec, structuredClone(ops), { env: createCountingEnv() })
    const sandboxed = await runSession(parsed.spec, structuredClone(ops), {
      env: createCountingEnv(),
      host: realHost(),
    })
    expect(JSON.stringify(sandboxed)).toContain('interrupt')
    expect(sandboxed).toEqual(local)
  })
})

describe('config in the sandbox: (state, config) as in a run outside it', () => {
  for (const c of [customWriter, configurable]) {
    it(c.description, async () => {
      const parsed = parseGraph(c.graph)
      if (!parsed.ok) throw new Error('bad graph')
      const streamed = async (host?: SandboxCodeHost) => {
        const out: unknown[] = []
        const options = {
          env: createCountingEnv(),
          streamMode: ['updates', 'custom'] as const,
          ...((c as { configurable?: Record<string, unknown> }).configurable && {
            configurable: (c as { configurable?: Record<string, unknown> }).configurable,
          }),
          ...(host && { host }),
        }
        for await (const chunk of streamGraph(parsed.spec, structuredClone(c.input), options))
          out.push(chunk)
        return out
      }
      const local = await streamed()
      expect(local.length).toBeGreaterThan(1)
      expect(await streamed(realHost())).toEqual(local)
    })
  }
})

describe('SandboxCodeHost against a fake sandbox', () => {
  it('times out, rejects in-flight calls, asks for a new sandbox and queues calls until then', async () => {
    const hung: unknown[] = []
    const first = fakeSandbox()
    const host = new SandboxCodeHost(first.port, { timeoutMs: 40, onHung: (ref) => hung.push(ref) })
    const other = host.runRouter('r', '() => 1', {}, undefined, { timeoutMs: 10_000 })
    const spin = host.runNode('spin', '() => { while (true) {} }', {}, { resume: [] })
    const e = await expectRejection(spin)
    expect(e.name).toBe('NodeTimeoutError')
    expect(e.message).toBe(
      'Node `spin` did not finish within 0.04 s: it ran too long or used memory without bound, so its sandbox was stopped (the page and other graphs are unaffected).',
    )
    expect(hung).toEqual([{ kind: 'node', owner: 'spin' }])
    expect((await expectRejection(other)).name).toBe('SandboxRestartedError')

    const queued = host.foldReducer('f', '(a, b) => b', 1, [2])
    const second = fakeSandbox()
    const request = second.next()
    host.replacePort(second.port)
    const req = await request
    expect(req).toMatchObject({ type: 'foldReducer', field: 'f', values: [2] })
    second.reply({ id: req.id, kind: 'value', value: 2, logs: [] })
    expect(await queued).toBe(2)
  })

  it('a reply that could not be copied in (null) fails the running call at once, not by timeout', async () => {
    const sandbox = fakeSandbox()
    const host = new SandboxCodeHost(sandbox.port, { timeoutMs: 10_000 })
    const deep = host.runNode('deep', '() => ({})', {}, { resume: [] })
    await sandbox.next()
    await flush()
    sandbox.reply(null)
    const e = await expectRejection(deep)
    expect(e.name).toBe('DataCloneError')
    expect(e.message).toContain('Node `deep` returned a value that could not be copied out')
  })

  it("runs a node's routers in its call: their answers, logs and errors as router calls give them", async () => {
    const logs: unknown[] = []
    const host = realHost({ onLogs: (ref, l) => logs.push([ref, l.map((x) => x.args)]) })
    const route = {
      routers: ["(s) => { console.log('saw', s.n, s.items); return s.n > 2 ? 'end' : 'inc' }"],
      fields: [
        ['n', 'add'],
        ['items', 'append'],
      ] as [string, 'add' | 'append'][],
    }
    const code = '(s) => { s.n = 50; return { n: 2, items: [s.n] } }'
    const r = await host.runNode('inc', code, { n: 1, items: [] }, { resume: [] }, undefined, route)
    expect(r).toMatchObject({ kind: 'ok', output: { n: 2, items: [50] } })
    const routes = (r as { routes?: (() => unknown)[] }).routes ?? []
    expect(logs).toEqual([]) // reported when the runtime takes the answer
    expect(routes.map((take) => take())).toEqual(['end'])
    expect(logs).toEqual([[{ kind: 'router', owner: 'inc' }, [['saw', 3, [50]]]]])

    const failing = { ...route, routers: ['(s) => {\n  return s.missing.x\n}', '() => 1'] }
    const f = await host.runNode('inc', '() => null', {}, { resume: [] }, undefined, failing)
    const taken = (f as { routes?: (() => unknown)[] }).routes ?? []
    expect(taken).toHaveLength(1) // none after the first that failed
    const e = (() => {
      try {
        taken[0]?.()
      } catch (err) {
        return err as Error & { line?: number }
      }
      return null
    })()
    expect([e?.name, e?.line]).toEqual(['TypeError', 2])

    // A Command leaves routing to the runtime: no answers come back.
    const cmd = await host.runNode(
      'inc',
      '() => new Command({ goto: "x" })',
      {},
      { resume: [] },
      undefined,
      route,
    )
    expect(cmd).not.toHaveProperty('routes')
  })

  it("words a hang in the routers of a node call as the router's", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const sandbox = fakeSandbox()
    const host = new SandboxCodeHost(sandbox.port)
    const route = { routers: ['() => 1'], fields: [] }
    const call = expectRejection(host.runNode('a', '() => 1', {}, { resume: [] }, undefined, route))
    const req = await sandbox.next()
    await flush()
    vi.advanceTimersByTime(4000) // the node's part
    sandbox.reply({ id: req.id, kind: 'routing' })
    await flush()
    vi.advanceTimersByTime(4000) // the routers have a clock of their own
    await flush()
    vi.advanceTimersByTime(1000)
    expect((await call).message).toBe(
      'The router of `a` did not finish within 5 s: it ran too long or used memory without bound, so its sandbox was stopped (the page and other graphs are unaffected).',
    )
  })

  it('words the timeout of routers and reducers, with the default of 5 s', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const sandbox = fakeSandbox()
    const host = new SandboxCodeHost(sandbox.port)
    const router = expectRejection(host.runRouter('a', '() => 1', {}))
    await sandbox.next()
    await flush()
    vi.advanceTimersByTime(5000)
    expect((await router).message).toBe(
      'The router of `a` did not finish within 5 s: it ran too long or used memory without bound, so its sandbox was stopped (the page and other graphs are unaffected).',
    )
    const late = expectRejection(
      host.foldReducer('log', '(a, b) => a', 1, [2], { timeoutMs: 2500 }),
    )
    vi.advanceTimersByTime(2500)
    expect((await late).message).toBe(
      'The reducer of field `log` could not start within 2.5 s: the sandbox is not available.',
    )
  })

  it("starts a call's clock when the sandbox begins it, not while it waits behind another", async () => {
    const sandbox = fakeSandbox({ autoStart: false })
    const host = new SandboxCodeHost(sandbox.port, { timeoutMs: 200 })
    const a = host.runNode('a', '() => 1', {}, { resume: [] })
    const b = host.runNode('b', '() => 2', {}, { resume: [] })
    await flush()
    const [ra, rb] = sandbox.requests
    for (const [r, output] of [
      [ra!, 1],
      [rb!, 2],
    ] as const) {
      sandbox.reply({ id: r.id, kind: 'started' })
      await sleep(120) // each well within 200 ms, both together not
      sandbox.reply({ id: r.id, kind: 'ok', output, resume: null, logs: [] })
    }
    expect([await a, await b]).toMatchObject([{ output: 1 }, { output: 2 }])
  })

  it('times a call on an idle sandbox from its send; after a reply that left a timer, waits for `started`', async () => {
    const hung: unknown[] = []
    const first = fakeSandbox({ autoStart: false })
    const host = new SandboxCodeHost(first.port, { timeoutMs: 40, onHung: (r) => hung.push(r) })
    // Idle: the call begins as it arrives, unannounced; its silence is its own hang.
    const e = await expectRejection(host.runRouter('r', '() => 1', {}))
    expect([e.name, e.message]).toEqual([
      'NodeTimeoutError',
      'The router of `r` did not finish within 0.04 s: it ran too long or used memory without bound, so its sandbox was stopped (the page and other graphs are unaffected).',
    ])
    // A fresh sandbox; a node leaves a timer behind, and says so.
    const second = fakeSandbox({ autoStart: false })
    host.replacePort(second.port)
    const left = host.runNode('n', '() => 1', {}, { resume: [] })
    const req = await second.next()
    second.reply({ id: req.id, kind: 'ok', output: 1, resume: null, logs: [], leftover: true })
    expect(await left).toMatchObject({ output: 1 })
    // The next call may be held by that timer: it counts as begun only when the sandbox says.
    const late = host.runRouter('r', '() => 2', {})
    const r2 = await second.next()
    await sleep(30)
    second.reply({ id: r2.id, kind: 'started' })
    await sleep(30) // 60 ms since the send, 30 since it began
    second.reply({ id: r2.id, kind: 'value', value: 2, logs: [], leftover: true })
    expect(await late).toBe(2)
    // One that never begins is worded as held by code left running.
    const held = await expectRejection(host.runRouter('r', '() => 3', {}))
    expect([held.name, held.message]).toEqual([
      'NodeTimeoutError',
      'The router of `r` did not start within 0.04 s: code left running in its sandbox held it, so the sandbox was stopped.',
    ])
    expect(hung).toEqual([
      { kind: 'router', owner: 'r' },
      { kind: 'router', owner: 'r' },
    ])
  })

  it('ignores messages that answer no call and rejects malformed replies cleanly', async () => {
    const problems: string[] = []
    const sandbox = fakeSandbox()
    const host = new SandboxCodeHost(sandbox.port, { onProtocolError: (m) => problems.push(m) })
    const call = host.runNode('n', '() => 1', {}, { resume: [] })
    const req = await sandbox.next()
    // (null is not junk: it is how a reply that could not be copied in arrives; see above.)
    for (const junk of [42, 'x', { id: 999, kind: 'ok' }, { kind: 'ok' }, [req.id]]) {
      sandbox.reply(junk)
    }
    sandbox.reply({ id: req.id, kind: 'ok', output: 1 }) // no resume, no logs
    const e = await expectRejection(call)
    expect(e.name).toBe('SandboxProtocolError')
    expect(e.message).toMatch(/^The sandbox sent a malformed reply for node `n`: resume: /)
    expect(problems).toHaveLength(5)

    const cases: [unknown, RegExp][] = [
      [{ kind: 'value', value: 1, logs: [] }, /unexpected reply kind `value`/],
      [{ kind: 'error', error: { name: 7, message: 'x' } }, /error\.name/],
      [
        { kind: 'ok', output: 1, resume: null, logs: [{ level: 'shout', args: [], at: 0 }] },
        /logs/,
      ],
      [{ kind: 'nope' }, /kind/],
    ]
    for (const [reply, pattern] of cases) {
      const p = host.runNode('n', '() => 1', {}, { resume: [] })
      const r = await sandbox.next()
      sandbox.reply({ id: r.id, ...(reply as object) })
      expect((await expectRejection(p)).message).toMatch(pattern)
    }
    const good = host.runNode('n', '() => 1', {}, { resume: [] })
    const r = await sandbox.next()
    sandbox.reply({ id: r.id, kind: 'ok', output: 1, resume: null, logs: [], extra: 'dropped' })
    expect(await good).toEqual({ kind: 'ok', output: 1, resume: null, logs: [] })
  })

  it('rejects oversize replies, sparse giants included, quickly', async () => {
    const sandbox = fakeSandbox()
    const host = new SandboxCodeHost(sandbox.port, { maxReplyBytes: 1000 })
    for (const value of ['x'.repeat(2000), Object.assign([], { length: 2 ** 32 - 1 })]) {
      const p = host.runRouter('r', '() => 1', {})
      const r = await sandbox.next()
      const started = performance.now()
      sandbox.reply({ id: r.id, kind: 'value', value, logs: [] })
      const e = await expectRejection(p)
      expect(performance.now() - started).toBeLessThan(500)
      expect(e.name).toBe('SandboxReplyTooLargeError')
      expect(e.message).toBe(
        'The reply of the router of `r` is larger than 1 kB; values that large do not belong in graph state.',
      )
    }
  })

  it('rejects the calls pending on a port when the port is replaced, and inputs that cannot be sent', async () => {
    const sandbox = fakeSandbox()
    const host = new SandboxCodeHost(sandbox.port)
    const pending = host.runNode('a', '() => 1', {}, { resume: [] })
    await sandbox.next()
    host.replacePort(fakeSandbox().port)
    const e = await expectRejection(pending)
    expect([e.name, e.message]).toEqual([
      'SandboxRestartedError',
      'Node `a` did not finish: the sandbox was replaced before this call finished.',
    ])
    const clone = await expectRejection(
      host.runNode('a', '() => 1', { f: () => 1 }, { resume: [] }),
    )
    expect(clone.name).toBe('DataCloneError')
    host.dispose()
    expect((await expectRejection(host.runRouter('r', '() => 1', {}))).name).toBe(
      'SandboxRestartedError',
    )
  })
})
