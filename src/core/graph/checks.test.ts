import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { checkDesign, usesInterrupt } from './checks'
import { END, START } from './constants'
import type { GraphIssue, GraphIssueCode } from './issues'
import type { EdgeSpec, FieldSpec, GraphSpec, NodeSpec } from './schema'
import { parseGraph } from './validate'

type Over = Partial<Pick<GraphSpec, 'state' | 'branches'>>

/** A graph of `nodes` (id → code) and `edges` ([from, to] or a join), over field `answer`. */
function graph(
  nodes: Record<string, string>,
  edges: [string | string[], string][],
  over: Over = {},
) {
  const spec: GraphSpec = {
    superstep: 1,
    name: 'g',
    state: [{ name: 'answer' }, { name: 'log', reducer: 'append', default: [] }],
    nodes: Object.entries(nodes).map(([id, code]): NodeSpec => ({ id, code })),
    edges: edges.map(([from, to]): EdgeSpec => ({ from, to })),
    ...over,
  }
  return spec
}

const found = (spec: GraphSpec, code: GraphIssueCode): GraphIssue[] =>
  checkDesign(spec).filter((i) => i.code === code)

const writes = (key: string, v = "'v'") => `(s) => ({ ${key}: ${v} })`

describe('CONCURRENT_WRITE_RISK', () => {
  const fanOut = (a: string, b: string, over: Over = {}) =>
    graph(
      { a, b },
      [
        [START, 'a'],
        [START, 'b'],
      ],
      over,
    )

  it('fires when two fan-out targets write a field without a reducer', () => {
    const [issue, ...rest] = found(
      fanOut(writes('answer'), writes('answer')),
      'CONCURRENT_WRITE_RISK',
    )
    expect(rest).toEqual([])
    expect(issue).toMatchObject({
      severity: 'warning',
      nodeId: 'a',
      field: 'answer',
      path: ['nodes', 0],
    })
    expect(issue?.message).toBe(
      '`a` and `b` can both run in the step after START and both write `answer`, which has no reducer: LangGraph raises INVALID_CONCURRENT_GRAPH_UPDATE. Give `answer` a reducer, or let the writes happen in different steps.',
    )
  })

  it('counts overwrite and ephemeral fields, not reducers or topics', () => {
    const as = (f: Omit<FieldSpec, 'name'>) =>
      fanOut(writes('answer'), writes('answer'), { state: [{ name: 'answer', ...f }] })
    expect(found(as({ reducer: 'overwrite' }), 'CONCURRENT_WRITE_RISK')).toHaveLength(1)
    expect(found(as({ channel: 'ephemeral' }), 'CONCURRENT_WRITE_RISK')[0]?.message).toContain(
      'ephemeral',
    )
    expect(found(as({ reducer: 'append' }), 'CONCURRENT_WRITE_RISK')).toEqual([])
    expect(found(as({ channel: 'topic' }), 'CONCURRENT_WRITE_RISK')).toEqual([])
  })

  it('stays quiet on near misses: different fields, consecutive steps, a join', () => {
    expect(found(fanOut(writes('answer'), writes('log', '[1]')), 'CONCURRENT_WRITE_RISK')).toEqual(
      [],
    )
    const consecutive = graph({ a: writes('answer'), b: writes('answer') }, [
      [START, 'a'],
      ['a', 'b'],
    ])
    expect(found(consecutive, 'CONCURRENT_WRITE_RISK')).toEqual([])
    const joined = graph({ a: writes('answer'), b: writes('answer'), c: writes('answer') }, [
      [START, 'a'],
      ['a', 'b'],
      [['a', 'b'], 'c'],
    ])
    expect(found(joined, 'CONCURRENT_WRITE_RISK')).toEqual([])
  })

  it('reads writes from block bodies, locals, Command updates and returned arrays', () => {
    const codes = [
      '(s) => { if (s.x) return { answer: 1 }; return {} }',
      '(s) => { const out = { answer: 1 }; return out }',
      "async (s) => new Command({ update: { 'answer': 1 }, goto: END })",
      '(s) => [new Command({ update: { log: [1] } }), { answer: 2 }]',
      '(s) => s.x ? null : { answer: 3 }',
    ]
    for (const code of codes) {
      expect(found(fanOut(code, writes('answer')), 'CONCURRENT_WRITE_RISK'), code).toHaveLength(1)
    }
  })

  it('ignores keys outside the returned value: nested functions, comments, strings', () => {
    const codes = [
      '(s) => { const f = () => ({ answer: 1 }); return { log: [f] } }',
      "(s) => ({ log: ['{ answer: 1 }'] }) // return { answer: 1 }",
      '(s) => ({ [s.key]: 1 })',
    ]
    for (const code of codes) {
      expect(found(fanOut(code, writes('answer')), 'CONCURRENT_WRITE_RISK'), code).toEqual([])
    }
  })

  it('a router that may return a list makes its targets parallel; a choice does not', () => {
    const via = (router: string) =>
      graph({ r: '(s) => ({})', a: writes('answer'), b: writes('answer') }, [[START, 'r']], {
        branches: [{ from: 'r', router, paths: ['a', 'b'] }],
      })
    const [issue] = found(via("(s) => ['a', 'b']"), 'CONCURRENT_WRITE_RISK')
    expect(issue?.message).toContain('after `r` (its conditional edge may return a list of nodes)')
    expect(found(via("(s) => s.targets.map((t) => t + '')"), 'CONCURRENT_WRITE_RISK')).toHaveLength(
      1,
    )
    expect(found(via("(s) => (s.x ? 'a' : 'b')"), 'CONCURRENT_WRITE_RISK')).toEqual([])
  })

  it('an edge and a route from one node run together', () => {
    const g = graph(
      { r: '(s) => ({})', a: writes('answer'), b: writes('answer') },
      [
        [START, 'r'],
        ['r', 'a'],
      ],
      { branches: [{ from: 'r', router: "(s) => 'go'", paths: { go: 'b', stop: END } }] },
    )
    expect(found(g, 'CONCURRENT_WRITE_RISK')[0]?.message).toContain('more than one edge or route')
  })

  it('Send in a map starts copies of one node; a single Send does not', () => {
    const send = (router: string, worker: string) =>
      graph({ plan: '(s) => ({})', w: worker }, [[START, 'plan']], {
        branches: [{ from: 'plan', router }],
      })
    const mapped = "(s) => s.items.map((i) => new Send('w', { i }))"
    const [issue] = found(send(mapped, writes('answer')), 'CONCURRENT_WRITE_RISK')
    expect(issue).toMatchObject({ nodeId: 'w', field: 'answer' })
    expect(issue?.message).toContain('Several copies of `w` can run in the step after `plan`')
    expect(found(send(mapped, writes('log', '[1]')), 'CONCURRENT_WRITE_RISK')).toEqual([])
    expect(
      found(send("(s) => new Send('w', s)", writes('answer')), 'CONCURRENT_WRITE_RISK'),
    ).toEqual([])
    const twice = "(s) => [new Send('w', 1), new Send('w', 2)]"
    expect(found(send(twice, writes('answer')), 'CONCURRENT_WRITE_RISK')).toHaveLength(1)
  })

  it('Command goto a list fans out to `ends`; goto one node does not', () => {
    const go = (goto: string) => {
      const g = graph(
        { r: `(s) => new Command({ goto: ${goto} })`, a: writes('answer'), b: writes('answer') },
        [[START, 'r']],
      )
      g.nodes[0] = { ...g.nodes[0], id: 'r', code: g.nodes[0]?.code ?? '', ends: ['a', 'b'] }
      return found(g, 'CONCURRENT_WRITE_RISK')
    }
    expect(go("['a', 'b']")[0]?.message).toContain('its `Command` may go to several nodes')
    expect(go("s.x ? 'a' : 'b'")).toEqual([])
  })
})

describe('NO_WAY_OUT and NO_PATH_TO_END', () => {
  const code = '(s) => ({})'

  it('a node nothing leaves, in a graph that draws its ends, has no way out', () => {
    const g = graph({ a: code, b: code }, [
      [START, 'a'],
      ['a', END],
      ['a', 'b'],
    ])
    const [issue, ...rest] = found(g, 'NO_WAY_OUT')
    expect(rest).toEqual([])
    expect(issue).toMatchObject({ nodeId: 'b', path: ['nodes', 1], severity: 'warning' })
    expect(issue?.message).toContain('connect `b` to END')
    expect(
      found(
        { ...g, nodes: [...g.nodes.slice(0, 1), { id: 'b', code, ends: [END] }] },
        'NO_WAY_OUT',
      ),
    ).toEqual([])
  })

  it('a graph that never draws END ends after its last node without a warning', () => {
    const g = graph({ a: code, b: code }, [
      [START, 'a'],
      ['a', 'b'],
    ])
    expect(checkDesign(g)).toEqual([])
  })

  it('a loop with no way to END traps every node in it, and START too', () => {
    const g = graph({ a: code, b: code }, [
      [START, 'a'],
      ['a', 'b'],
      ['b', 'a'],
    ])
    expect(found(g, 'NO_WAY_OUT').map((i) => i.nodeId)).toEqual(['a', 'b'])
    expect(found(g, 'NO_WAY_OUT')[0]?.message).toContain('around `a`, `b` with no way to END')
    expect(found(g, 'NO_PATH_TO_END')[0]?.message).toContain('GRAPH_RECURSION_LIMIT')
  })

  it('a loop with a conditional exit, or a router that may return a list, is fine', () => {
    const exit = graph({ a: code }, [[START, 'a']], {
      branches: [{ from: 'a', router: "(s) => 'again'", paths: { again: 'a', done: END } }],
    })
    expect(checkDesign(exit)).toEqual([])
    const list = graph({ a: code }, [[START, 'a']], {
      branches: [{ from: 'a', router: "(s) => s.more ? ['a'] : []", paths: ['a'] }],
    })
    expect(checkDesign(list)).toEqual([])
  })

  it('a trap after a choice warns on the trapped node only', () => {
    const g = graph(
      { a: code, spin: code },
      [
        [START, 'a'],
        ['spin', 'spin'],
      ],
      { branches: [{ from: 'a', router: "(s) => 'done'", paths: { spin: 'spin', done: END } }] },
    )
    expect(found(g, 'NO_WAY_OUT').map((i) => i.nodeId)).toEqual(['spin'])
    expect(found(g, 'NO_PATH_TO_END')).toEqual([])
  })

  it('nothing leaving START is NO_PATH_TO_END, also for an empty document', () => {
    expect(found(graph({}, []), 'NO_PATH_TO_END')[0]?.message).toContain('Nothing leaves START')
  })
})

describe('EMPTY_PATH_MAP', () => {
  it('fires on a path map with no entries, not on one with any', () => {
    const g = (paths: Record<string, string>) =>
      graph({ a: '(s) => ({})' }, [[START, 'a']], {
        branches: [{ from: 'a', router: "() => 'x'", paths }],
      })
    expect(found(g({}), 'EMPTY_PATH_MAP')).toMatchObject([
      { path: ['branches', 0, 'paths'], nodeId: 'a' },
    ])
    expect(found(g({ x: END }), 'EMPTY_PATH_MAP')).toEqual([])
  })
})

describe('usesInterrupt', () => {
  it('finds interrupt calls by parsing, not by searching the text', () => {
    expect(usesInterrupt("(s) => { const ok = interrupt('Approve?'); return { ok } }")).toBe(true)
    expect(usesInterrupt('async (s) => ({ v: await interrupt(s.q) })')).toBe(true)
    expect(usesInterrupt('(s) => ({}) // interrupt(here)')).toBe(false)
    expect(usesInterrupt("(s) => ({ log: ['interrupt(x)'] })")).toBe(false)
    expect(usesInterrupt('(s) => s.interrupt()')).toBe(false)
    expect(usesInterrupt('(s) => interrupt(')).toBe(false)
  })
})

describe('wired into parseGraph', () => {
  it('adds the warnings without refusing the document', () => {
    const g = graph({ a: writes('answer'), b: writes('answer') }, [
      [START, 'a'],
      [START, 'b'],
    ])
    const result = parseGraph(g)
    expect(result.ok).toBe(true)
    expect(result.issues.map((i) => i.code)).toEqual(['CONCURRENT_WRITE_RISK'])
  })

  it('warns about concurrent writes in exactly the differential cases where LangGraph fails so', () => {
    const dir = new URL('../../differential/cases/', import.meta.url)
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
      const c = JSON.parse(readFileSync(new URL(file, dir), 'utf8')) as {
        description: string
        graph: GraphSpec
      }
      const expected = c.description.includes('INVALID_CONCURRENT_GRAPH_UPDATE') ? 1 : 0
      expect(found(c.graph, 'CONCURRENT_WRITE_RISK'), file).toHaveLength(expected)
    }
  })
})
