import { afterEach, describe, expect, it } from 'vitest'
import { foldWrites } from '../../core/channels/binaryOperatorAggregate'
import type { SandboxReply, SandboxRequest, SandboxStarted } from './sandboxProtocol'
import { SANDBOX_STARTED_MESSAGE } from './sandboxProtocol'
import { sandboxPrelude, sandboxWorkerSource } from './sandboxWorkerSource'
import { fakeSelf, startSandboxInProcess } from './testSandbox'

type Body<T> = T extends unknown ? Omit<T, 'id'> : never

const ports: MessagePort[] = []
afterEach(() => {
  for (const p of ports.splice(0)) p.close()
})

/**
 * A raw client of the sandbox protocol (no host): one request, its reply. `said` lists the
 * `started` and `routing` messages in the order they came, as `started 3`, `routing 3`.
 */
function client(port: MessagePort) {
  ports.push(port)
  let nextId = 1
  const waiting = new Map<number, (r: SandboxReply) => void>()
  const said: string[] = []
  port.onmessage = (e: MessageEvent<SandboxReply | SandboxStarted>) => {
    const m = e.data
    if (m.kind === 'started' || m.kind === 'routing') said.push(`${m.kind} ${m.id}`)
    else waiting.get(m.id)?.(m as SandboxReply)
  }
  const ask = (req: Body<SandboxRequest>): Promise<SandboxReply> =>
    new Promise((resolve) => {
      const id = nextId++
      waiting.set(id, resolve)
      port.postMessage({ ...req, id })
    })
  return Object.assign(ask, { said })
}

const sandbox = (timersPending?: () => boolean) => client(startSandboxInProcess(timersPending))
const node = (code: string, input: unknown = {}, pad: { resume: unknown[] } = { resume: [] }) =>
  ({ type: 'runNode', owner: 'n', code, input, pad }) as const

describe('sandboxMain', () => {
  it('runs a node, sync or async, and returns its output and no resume', async () => {
    const ask = sandbox()
    expect(await ask(node('(s) => ({ count: s.count + 1 })', { count: 1 }))).toMatchObject({
      kind: 'ok',
      output: { count: 2 },
      resume: null,
      logs: [],
    })
    const reply = await ask(node('async (s) => { await null; return START + END }'))
    expect(reply).toMatchObject({ kind: 'ok', output: '__start____end__' })
  })

  it('returns Send and Command as plain objects with lg_name', async () => {
    const ask = sandbox()
    const code = "() => new Command({ update: { a: 1 }, goto: [new Send('w', { x: 1 })] })"
    const reply = await ask(node(code))
    expect(reply).toMatchObject({
      kind: 'ok',
      output: { lg_name: 'Command', update: { a: 1 }, goto: [{ lg_name: 'Send', node: 'w' }] },
    })
    const routed = await ask({
      type: 'runRouter',
      owner: 'r',
      code: "(s) => s.items.map((x) => new Send('w', x)).concat(['end'])",
      state: { items: [1] },
    })
    expect(routed).toMatchObject({
      kind: 'value',
      value: [{ lg_name: 'Send', node: 'w', args: 1 }, 'end'],
    })
  })

  it('folds reducer writes exactly as core foldWrites', async () => {
    const ask = sandbox()
    const code = '(a, b) => [...(Array.isArray(a) ? a : [a]), b]'
    const reducer = (a: unknown, b: unknown) => [...(Array.isArray(a) ? a : [a]), b]
    const cases: [unknown, unknown[]][] = [
      [undefined, [1, 2, 3]], // first write raw
      [[0], [1, 2]],
      [[0], [1, { __overwrite__: ['o'] }, 2]], // writes after an Overwrite are dropped
      [undefined, [{ __overwrite__: 'x' }, 4]],
      [undefined, []],
    ]
    for (const [current, values] of cases) {
      const expected = foldWrites(reducer, current, values, (m) => {
        throw new Error(m)
      })
      const reply = await ask({ type: 'foldReducer', field: 'f', code, current, values })
      expect(reply).toMatchObject({ kind: 'value', value: expected })
    }
    const twice = await ask({
      type: 'foldReducer',
      field: 'f',
      code,
      current: [0],
      values: [{ __overwrite__: 1 }, { __overwrite__: 2 }],
    })
    expect(twice).toMatchObject({
      kind: 'error',
      error: {
        name: 'InvalidUpdateError',
        message: 'Can receive only one Overwrite value per step.',
      },
    })
  })

  it('pauses at each unanswered interrupt and replays answers from resume, then nullResume', async () => {
    const ask = sandbox()
    const code =
      "(s) => { const a = interrupt('first?'); const b = interrupt('second?'); return { a, b } }"
    expect(await ask(node(code))).toMatchObject({
      kind: 'interrupt',
      value: 'first?',
      resume: null,
    })
    const r2 = await ask({ ...node(code), pad: { resume: [], nullResume: { value: 'A' } } })
    expect(r2).toMatchObject({ kind: 'interrupt', value: 'second?', resume: ['A'] })
    const r3 = await ask({ ...node(code), pad: { resume: ['A'], nullResume: { value: 'B' } } })
    expect(r3).toMatchObject({ kind: 'ok', output: { a: 'A', b: 'B' }, resume: ['A', 'B'] })
    const r4 = await ask(node(code, {}, { resume: ['A', 'B'] }))
    expect(r4).toMatchObject({ kind: 'ok', output: { a: 'A', b: 'B' }, resume: ['A', 'B'] })
    // A later call of the same task goes on from the task's interrupt count.
    const one = "() => interrupt('third?')"
    const r5 = await ask({ ...node(one), pad: { resume: ['A', 'B'], counter: 1 } })
    expect(r5).toMatchObject({ kind: 'interrupt', value: 'third?', resume: null })
    const r6 = await ask({ ...node(one), pad: { resume: ['A', 'B'], counter: 0 } })
    expect(r6).toMatchObject({ kind: 'ok', output: 'B', resume: ['A', 'B'] })
    const router = await ask({
      type: 'runRouter',
      owner: 'r',
      code: '() => interrupt(1)',
      state: {},
    })
    expect(router).toMatchObject({
      kind: 'error',
      error: { message: 'Called interrupt() outside the context of a graph.' },
    })
  })

  it('captures console output per call, also after an await in overlapping calls', async () => {
    const ask = sandbox()
    const code = `async (s) => {
      console.log('start', s.n)
      await new Promise((r) => setTimeout(r, s.wait))
      console.warn('end', s.n, { deep: [s.n] })
      console.info(() => 1)
      return s.n
    }`
    const [slow, fast] = await Promise.all([
      ask(node(code, { n: 1, wait: 40 })),
      ask(node(code, { n: 2, wait: 5 })),
    ])
    for (const [reply, n] of [
      [slow, 1],
      [fast, 2],
    ] as const) {
      expect(reply.kind).toBe('ok')
      const logs = reply.kind === 'ok' ? reply.logs : []
      expect(logs.map((l) => [l.level, l.args])).toEqual([
        ['log', ['start', n]],
        ['warn', ['end', n, { deep: [n] }]],
        ['info', ['() => 1']],
      ])
      expect(logs[1]!.at).toBeGreaterThanOrEqual(logs[0]!.at)
    }
  })

  it('reports errors with their line and column inside the code', async () => {
    const ask = sandbox()
    const cases: [string, number, number][] = [
      ['(s) => s.missing.deep', 1, 18],
      ['(s) => {\n  const x = 1\n  throw new RangeError("bad " + x)\n}', 3, 9],
      ['(s) =>\n      null.x', 2, 12],
    ]
    for (const [code, line, column] of cases) {
      const reply = await ask(node(code))
      expect(reply.kind).toBe('error')
      if (reply.kind === 'error')
        expect([reply.error.line, reply.error.column]).toEqual([line, column])
    }
    const thrown = await ask(node('() => { throw new RangeError("bad 1") }'))
    expect(thrown).toMatchObject({ kind: 'error', error: { name: 'RangeError', message: 'bad 1' } })
    const notError = await ask(node("() => { throw 'plain' }"))
    expect(notError).toMatchObject({ kind: 'error', error: { name: 'Error', message: 'plain' } })
  })

  it('refuses outputs that hold functions, naming the path', async () => {
    const ask = sandbox()
    const reply = await ask(node('() => ({ a: { b: () => 1 } })'))
    expect(reply).toMatchObject({
      kind: 'error',
      error: {
        name: 'DataCloneError',
        message: 'Node `n` returned a function at path a.b, which cannot leave the sandbox.',
      },
    })
    const listed = await ask({
      type: 'runRouter',
      owner: 'r',
      code: '() => [1, Symbol()]',
      state: 0,
    })
    expect(listed).toMatchObject({
      kind: 'error',
      error: {
        message: 'The router of `r` returned a symbol at path [1], which cannot leave the sandbox.',
      },
    })
  })

  it('checks that code evaluates to a function', async () => {
    const ask = sandbox()
    const check = (code: string) => ask({ type: 'check', owner: 'n', kind: 'node', code })
    expect(await check('(s) => s')).toMatchObject({ kind: 'value', value: null })
    expect(await check('42')).toMatchObject({
      kind: 'value',
      value: 'TypeError: The node code of `n` evaluates to number, not a function.',
    })
    const syntax = await check('(s) => {')
    expect(syntax.kind === 'value' && String(syntax.value)).toMatch(/^SyntaxError: /)
    expect(await check('(() => { throw new Error("boom") })()')).toMatchObject({
      value: 'Error: boom',
    })
  })

  it('says `started` only when the host cannot know: another call under way, or a timer left', async () => {
    let timers = false
    const ask = sandbox(() => timers)
    // Alone on an idle sandbox: it begins as it arrives, unannounced.
    expect(await ask(node('(s) => 1'))).toMatchObject({ kind: 'ok', output: 1 })
    expect(ask.said).toEqual([])
    // Two at once, the first awaiting a macrotask: the second begins while the first is out.
    const slow = "async () => { await new Promise((r) => setImmediate(r)); return 'a' }"
    const both = await Promise.all([ask(node(slow)), ask(node('() => "b"'))])
    expect(both.map((r) => r.kind === 'ok' && r.output)).toEqual(['a', 'b'])
    expect(ask.said).toEqual(['started 3'])
    // Two at once, the first synchronous: it is answered before the second begins.
    await Promise.all([ask(node('() => 1')), ask(node('() => 2'))])
    expect(ask.said).toEqual(['started 3'])
    // A call that leaves a timer: its reply says so, and the next call is announced.
    timers = true
    const left = await ask(node('() => 5'))
    expect(left).toMatchObject({ kind: 'ok', output: 5, leftover: true })
    timers = false
    const next = await ask(node('() => 6'))
    expect(next).not.toHaveProperty('leftover')
    expect(ask.said).toEqual(['started 3', 'started 7'])
    await ask(node('() => 7'))
    expect(ask.said).toEqual(['started 3', 'started 7'])
  })

  it('says `routing` only where a router could hang: slow node, a loop in the code, an await', async () => {
    const ask = sandbox()
    const route = (routers: string[]) => ({ routers, fields: [['n', 'last']] })
    const routed = (code: string, routers: string[]) =>
      ask({ ...node(code, { n: 1 }), route: route(routers) } as Body<SandboxRequest>)
    const answers = (r: SandboxReply) =>
      r.kind === 'ok' ? r.routes?.map((x) => (x.ok ? x.value : x.error.name)) : r.kind
    expect(answers(await routed('(s) => ({ n: 2 })', ["(s) => s.n > 1 ? 'end' : 'a'"]))).toEqual([
      'end',
    ])
    expect(ask.said).toEqual([])
    const loop = '(s) => { let i = 0; for (const x of [1, 2]) i += x; return i }'
    expect(answers(await routed('(s) => ({ n: 2 })', ['() => 0', loop]))).toEqual([0, 3])
    expect(ask.said).toEqual(['routing 2'])
    expect(answers(await routed('(s) => ({ n: 2 })', ['async (s) => s.n']))).toEqual([2])
    expect(ask.said).toEqual(['routing 2', 'routing 3'])
    const busy =
      '(s) => { const end = Date.now() + 150; while (Date.now() < end) {} return { n: 3 } }'
    expect(answers(await routed(busy, ['(s) => s.n']))).toEqual([3])
    expect(ask.said).toEqual(['routing 2', 'routing 3', 'routing 4'])
  })

  it('the worker prelude counts pending timers: one-shot until it fires or is cleared, intervals until cleared', async () => {
    const scope: Record<string, unknown> = {
      setTimeout: globalThis.setTimeout,
      setInterval: globalThis.setInterval,
      clearTimeout: globalThis.clearTimeout,
      clearInterval: globalThis.clearInterval,
    }
    const pending = sandboxPrelude(scope)
    type Timer = (f: unknown, ms?: number, ...args: unknown[]) => ReturnType<typeof setTimeout>
    const setT = scope.setTimeout as Timer
    const setI = scope.setInterval as Timer
    const clear = scope.clearTimeout as (id: unknown) => void
    expect(pending()).toBe(false)
    const got: unknown[] = []
    setT((x: unknown) => got.push(x), 1, 'fired')
    expect(pending()).toBe(true)
    await new Promise((r) => setTimeout(r, 20))
    expect([got, pending()]).toEqual([['fired'], false])
    clear(setT(() => got.push('never'), 1))
    expect(pending()).toBe(false)
    const every = setI(() => {}, 1)
    await new Promise((r) => setTimeout(r, 10))
    expect(pending()).toBe(true)
    ;(scope.clearInterval as (id: unknown) => void)(every)
    expect([pending(), got]).toEqual([false, ['fired']])
  })

  it('runs from its source text alone and says when it started', async () => {
    const self = fakeSelf()
    new Function('self', sandboxWorkerSource())(self)
    expect(self.posted).toEqual([{ type: SANDBOX_STARTED_MESSAGE }])
    const ask = client(self.connect())
    const code = "(s) => new Command({ goto: new Send('x', interrupt('q')) })"
    const reply = await ask({ ...node(code), pad: { resume: ['yes'] } })
    expect(reply).toMatchObject({
      kind: 'ok',
      output: { lg_name: 'Command', goto: [{ lg_name: 'Send', node: 'x', args: 'yes' }] },
      resume: ['yes'],
    })
  })
})
