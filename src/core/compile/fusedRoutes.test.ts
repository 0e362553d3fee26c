import { describe, expect, it } from 'vitest'
import { createCountingEnv } from '../../lib/env'
import { CloneCodeHost } from '../../differential/cloneHost'
import { foldWrites } from '../channels/binaryOperatorAggregate'
import { parseGraph } from '../graph/validate'
import { NAMED_REDUCERS } from '../reducers/named'
import { runGraph } from '../run'
import type { NodeHostCalls, RemoteNodeResult, ScratchpadData } from './host'
import { routerState, type FieldFold, type RouteRequest } from './fusedRoutes'

/** CloneCodeHost counting its calls: node calls, router calls, routers answered with a node. */
class CountingHost extends CloneCodeHost {
  nodes = 0
  routers = 0
  fused = 0
  constructor(private readonly fuse = true) {
    super()
  }
  override async runNode(
    owner: string,
    code: string,
    input: unknown,
    pad: ScratchpadData,
    calls?: NodeHostCalls,
    route?: RouteRequest,
  ): Promise<RemoteNodeResult> {
    this.nodes += 1
    const r = await super.runNode(owner, code, input, pad, calls, this.fuse ? route : undefined)
    if (r.kind === 'ok') this.fused += r.routes?.length ?? 0
    return r
  }
  override runRouter(
    owner: string,
    code: string,
    state: unknown,
    configurable?: Record<string, unknown>,
  ): Promise<unknown> {
    this.routers += 1
    return super.runRouter(owner, code, state, configurable)
  }
}

function specOf(doc: Record<string, unknown>) {
  const parsed = parseGraph({ superstep: 1, name: 'f', ...doc })
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues))
  return parsed.spec
}

async function both(doc: Record<string, unknown>, input: unknown = {}) {
  const spec = specOf(doc)
  const local = await runGraph(spec, { input, env: createCountingEnv() })
  const host = new CountingHost()
  const remote = await runGraph(spec, { input, env: createCountingEnv(), host })
  // Today's two calls (the node, then its router), for what differs from a local run.
  const twoCalls = await runGraph(spec, {
    input,
    env: createCountingEnv(),
    host: new CountingHost(false),
  })
  expect(remote).toEqual(twoCalls)
  return { local, remote, host }
}

const cycle = (code: string, router: string, state: unknown[]) => ({
  state,
  nodes: [{ id: 'inc', code }],
  edges: [{ from: '__start__', to: 'inc' }],
  branches: [{ from: 'inc', router, paths: ['inc', '__end__'] }],
})

describe('a node and its routers in one host call', () => {
  it('routes a cycle with one call per task, as the runtime routes it', async () => {
    const { local, remote, host } = await both(
      cycle('(s) => ({ n: 1, log: [s.n] })', "(s) => s.n < 4 ? 'inc' : '__end__'", [
        { name: 'n', reducer: 'add', default: 0 },
        { name: 'log', reducer: 'append', default: [] },
      ]),
    )
    expect(remote).toEqual(local)
    expect(remote.values).toEqual({ n: 4, log: [0, 1, 2, 3] })
    expect(host).toMatchObject({ nodes: 4, routers: 0, fused: 4 })
  })

  it('gives the routers the state before the node changed its input', async () => {
    // Unlike a local run (and LangGraph.js), where a node changing its input changes state.
    const { remote, host } = await both(
      cycle(
        '(s) => { s.n = 100; s.items.push(9); return { items: [s.n] } }',
        "(s) => s.n === 0 && s.items.length === 1 ? '__end__' : 'inc'",
        [
          { name: 'n', reducer: 'add', default: 0 },
          { name: 'items', reducer: 'append', default: [] },
        ],
      ),
    )
    expect(remote.status).toBe('done')
    expect(host.fused).toBe(1)
  })

  it('falls back to a router call for a Command, a messages field or a Send task', async () => {
    const command = await both(
      cycle('(s) => new Command({ update: { n: 1 } })', "(s) => s.n < 2 ? 'inc' : '__end__'", [
        { name: 'n', reducer: 'add', default: 0 },
      ]),
    )
    expect(command.remote).toEqual(command.local)
    expect(command.host).toMatchObject({ routers: 2, fused: 0 })

    const messages = await both(
      cycle(
        "(s) => ({ messages: [{ type: 'ai', content: 'x' }] })",
        "(s) => s.messages.length < 2 ? 'inc' : '__end__'",
        [{ name: 'messages', reducer: 'add_messages', default: [] }],
      ),
    )
    expect(messages.remote.values).toMatchObject({ messages: [{}, {}] })
    expect(messages.host).toMatchObject({ routers: 2, fused: 0 })

    const sends = await both(
      {
        state: [
          { name: 'items', reducer: 'overwrite' },
          { name: 'out', reducer: 'append', default: [] },
        ],
        nodes: [{ id: 'w', code: '(s) => ({ out: [s.x] })' }],
        edges: [],
        branches: [
          { from: '__start__', router: "(s) => s.items.map((x) => new Send('w', { x }))" },
          { from: 'w', router: "(s) => '__end__'", paths: ['__end__'] },
        ],
      },
      { items: [1, 2] },
    )
    expect(sends.remote).toEqual(sends.local)
    expect(sends.remote.values.out).toEqual([1, 2])
    expect(sends.host).toMatchObject({ fused: 0 })
  })

  it("reports a router's error from the node's call as the router call would", async () => {
    const { local, remote, host } = await both(
      cycle('(s) => ({ n: 1 })', "(s) => { throw new Error('no route') }", [
        { name: 'n', reducer: 'add', default: 0 },
      ]),
    )
    expect(remote.error).toMatchObject({ message: 'no route' })
    expect(remote.status).toBe(local.status)
    expect(host).toMatchObject({ routers: 0, fused: 1 })
  })
})

describe('routerState', () => {
  const fields: [string, FieldFold][] = [
    ['a', 'last'],
    ['n', 'add'],
    ['m', null],
  ]
  const state = (s: Record<string, unknown>, out: unknown) =>
    routerState(s, out, fields, NAMED_REDUCERS, foldWrites)

  it('writes an update in field order, reducers folding, unwritten fields as they were', () => {
    expect(Object.keys(state({ n: 1, a: 'x', m: 3 }, { n: 2, a: undefined }) ?? {})).toEqual([
      'a',
      'n',
      'm',
    ])
    expect(state({ n: 1 }, { n: 2, other: 1 })).toEqual({ n: 3 })
    expect(state({ n: 1 }, null)).toEqual({ n: 1 })
    // An Overwrite replaces the reducer's value.
    expect(state({ n: 1 }, { n: { __overwrite__: 7 } })).toEqual({ n: 7 })
  })

  it('leaves to the runtime what only it can write', () => {
    expect(state({}, { m: 1 })).toBeNull()
    expect(state({}, [{ n: 1 }])).toBeNull()
    expect(state({}, 5)).toBeNull()
    expect(state({}, { lg_name: 'Command', update: { n: 1 } })).toBeNull()
  })
})
