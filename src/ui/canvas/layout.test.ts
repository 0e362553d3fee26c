import ELK from 'elkjs/lib/elk.bundled.js'
import { describe, expect, it, vi } from 'vitest'
import type { XY } from '../../core/graph/edits'
import type { GraphSpec } from '../../core/graph/schema'
import {
  ELK_GIVEN_RANKS_ABOVE,
  acyclicRanks,
  elkGraph,
  elkPositions,
  type RunElk,
} from './elkLayout'
import { DAGRE_MAX_NODES, autoLayoutEdit, layoutLinks, layoutPositions } from './layout'

const doc: GraphSpec = {
  superstep: 1,
  name: 'layout',
  state: [],
  nodes: ['a', 'b', 'c', 'd'].map((id) => ({ id, code: '(s) => ({})' })),
  edges: [
    { from: '__start__', to: 'a' },
    { from: 'a', to: 'b' },
    { from: 'a', to: 'c' },
    { from: ['b', 'c'], to: 'd' },
  ],
  branches: [{ from: 'd', router: '(s) => "x"', paths: { x: 'a', y: '__end__' } }],
}

/** A chain START → n0 → … → n(k-1) → END, with a loop back from the last node to n0. */
function chain(k: number): GraphSpec {
  const id = (i: number) => `n${i}`
  return {
    superstep: 1,
    name: 'big',
    state: [],
    nodes: Array.from({ length: k }, (_, i) => ({ id: id(i), code: '(s) => ({})' })),
    edges: [
      { from: '__start__', to: id(0) },
      ...Array.from({ length: k - 1 }, (_, i) => ({ from: id(i), to: id(i + 1) })),
      { from: id(k - 1), to: '__end__' },
    ],
    branches: [{ from: id(k - 1), router: '(s) => "x"', paths: { again: id(0), done: '__end__' } }],
  }
}

const elk = new ELK()
const runElk: RunElk = (graph) => elk.layout(graph)
const at = (m: ReadonlyMap<string, XY>, id: string) => m.get(id)!
const movesOf = async (d: GraphSpec, direction: 'LR' | 'TB', run: RunElk = runElk) => {
  const edit = await autoLayoutEdit(d, direction, run)
  if (edit.type !== 'moveNodes') throw new Error(`expected moveNodes, got ${edit.type}`)
  return new Map(edit.moves.map((m) => [m.id, m.position]))
}

describe('layout (dagre, small graphs)', () => {
  it('returns a position for every node, START and END included', () => {
    const positions = layoutPositions(doc, 'LR')
    expect([...positions.keys()].sort()).toEqual(['__end__', '__start__', 'a', 'b', 'c', 'd'])
    for (const p of positions.values()) {
      expect(Number.isFinite(p.x) && Number.isFinite(p.y)).toBe(true)
      expect(p.x % 15).toBe(0)
      expect(p.y % 15).toBe(0)
    }
  })

  it('follows the edges: left to right along x, top to bottom along y', () => {
    const lr = layoutPositions(doc, 'LR')
    const tb = layoutPositions(doc, 'TB')
    expect(at(lr, 'a').x).toBeLessThan(at(lr, 'b').x)
    expect(at(lr, 'b').x).toBeLessThan(at(lr, 'd').x)
    expect(at(tb, 'a').y).toBeLessThan(at(tb, 'b').y)
    expect(at(tb, 'b').y).toBeLessThan(at(tb, 'd').y)
    expect(lr).not.toEqual(tb)
  })

  it('is one moveNodes edit with every document node, without elk', async () => {
    const run = vi.fn(runElk)
    const edit = await autoLayoutEdit(doc, 'TB', run)
    expect(run).not.toHaveBeenCalled()
    expect(edit.type).toBe('moveNodes')
    if (edit.type !== 'moveNodes') return
    expect(edit.moves.map((m) => m.id)).toEqual(['a', 'b', 'c', 'd'])
    const tb = layoutPositions(doc, 'TB')
    for (const m of edit.moves) expect(m.position).toEqual(tb.get(m.id))
  })
})

describe('layout (elk, big graphs)', () => {
  it('maps ids to elk children by index, pins START and END, drops self and unknown links', () => {
    const ids = ['__start__', 'a:b', 'root', '__end__']
    const g = elkGraph(
      ids,
      [
        ['__start__', 'a:b'],
        ['a:b', 'a:b'],
        ['a:b', 'root'],
        ['root', 'ghost'],
        ['root', '__end__'],
      ],
      'TB',
    )
    expect(g.layoutOptions?.['elk.algorithm']).toBe('layered')
    expect(g.layoutOptions?.['elk.direction']).toBe('DOWN')
    expect(elkGraph(ids, [], 'LR').layoutOptions?.['elk.direction']).toBe('RIGHT')
    expect(g.children?.map((c) => c.id)).toEqual(['0', '1', '2', '3'])
    expect(g.children?.[0]?.layoutOptions).toEqual({
      'elk.layered.layering.layerConstraint': 'FIRST',
    })
    expect(g.children?.[3]?.layoutOptions).toEqual({
      'elk.layered.layering.layerConstraint': 'LAST',
    })
    expect(g.edges?.map((e) => [e.sources, e.targets])).toEqual([
      [['0'], ['1']],
      [['1'], ['2']],
      [['2'], ['3']],
    ])
  })

  it('lays a big graph out in ranks with elk: along x left to right, along y top to bottom', async () => {
    const big = chain(DAGRE_MAX_NODES + 10)
    const run = vi.fn(runElk)
    const lr = await movesOf(big, 'LR', run)
    expect(run).toHaveBeenCalledTimes(1)
    expect(lr.size).toBe(big.nodes.length)
    for (let i = 0; i + 1 < big.nodes.length; i++)
      expect(at(lr, `n${i + 1}`).x).toBeGreaterThan(at(lr, `n${i}`).x)
    for (const p of lr.values()) expect(p.x % 15 === 0 && p.y % 15 === 0).toBe(true)

    const tb = await movesOf(big, 'TB')
    for (let i = 0; i + 1 < big.nodes.length; i++)
      expect(at(tb, `n${i + 1}`).y).toBeGreaterThan(at(tb, `n${i}`).y)
  })

  it('puts START in the first rank and END in the last, whatever the loops', async () => {
    const big = chain(DAGRE_MAX_NODES + 10)
    const { ids, links } = {
      ids: ['__start__', ...big.nodes.map((n) => n.id), '__end__'],
      links: layoutLinks(big),
    }
    const positions = elkPositions(ids, await runElk(elkGraph(ids, links, 'LR')))
    const xs = [...positions.values()].map((p) => p.x)
    expect(at(positions, '__start__').x).toBe(Math.min(...xs))
    expect(at(positions, '__end__').x).toBe(Math.max(...xs))
    expect(at(positions, '__start__').x).toBeLessThan(at(positions, 'n0').x)
  })

  it('lays out a 5,000-node chain with a loop (elk once ran out of stack finding components)', async () => {
    const long = chain(5000)
    const at5000 = await movesOf(long, 'LR')
    expect(at5000.size).toBe(5000)
    expect(at(at5000, 'n4999').x).toBeGreaterThan(at(at5000, 'n0').x)
  }, 120_000)

  it('breaks loops depth first from the first node and ranks each node by its longest path', () => {
    // 0 → 1 → 2 → 3, 2 → 1 (a loop), 0 → 3 (a shortcut), 4 → 4 and 4 → 2 (4 unreachable from 0)
    const edges: [number, number][] = [
      [0, 1],
      [1, 2],
      [2, 3],
      [2, 1],
      [0, 3],
      [4, 2],
    ]
    const { rank, back } = acyclicRanks(5, edges)
    expect(back).toEqual([false, false, false, true, false, false])
    expect([...rank]).toEqual([0, 1, 2, 3, 0])
    // The first node's loops are broken first: the edge into it is the one turned back.
    expect(
      acyclicRanks(3, [
        [1, 0],
        [0, 1],
        [1, 2],
      ]).back,
    ).toEqual([true, false, false])
  })

  it('ranks a 200,000-node chain without recursion (elk ran out of stack on 5,000)', () => {
    const n = 200_000
    const edges = Array.from({ length: n - 1 }, (_, i) => [i, i + 1] as [number, number])
    edges.push([n - 1, 0])
    const { rank, back } = acyclicRanks(n, edges)
    expect(rank[n - 1]).toBe(n - 1)
    expect(back.filter(Boolean)).toHaveLength(1)
    expect(back.at(-1)).toBe(true)
  })

  it('above 1,000 nodes hands elk ranks as positions, loops turned, and no recursive strategy', () => {
    const big = chain(ELK_GIVEN_RANKS_ABOVE + 1)
    const ids = ['__start__', ...big.nodes.map((n) => n.id), '__end__']
    for (const direction of ['LR', 'TB'] as const) {
      const g = elkGraph(ids, layoutLinks(big), direction)
      expect(g.layoutOptions).toMatchObject({
        'elk.layered.cycleBreaking.strategy': 'GREEDY',
        'elk.layered.layering.strategy': 'INTERACTIVE',
      })
      const along = (i: number) => {
        const c = g.children![i]!
        return direction === 'LR' ? c.x! : c.y!
      }
      for (let i = 0; i + 1 < ids.length; i++) expect(along(i + 1)).toBeGreaterThan(along(i))
      // Every edge elk gets goes forward: the loop back to n0 arrives turned.
      for (const e of g.edges!)
        expect(along(Number(e.targets[0])), e.id).toBeGreaterThan(along(Number(e.sources[0])))
      expect(
        g.edges!.find((e) => e.sources[0] === '1' && e.targets[0] === String(ids.length - 2)),
      ).toBeDefined()
    }
    // Smaller graphs keep elk's own depth-first cycle breaking and network simplex layering.
    const small = elkGraph(ids.slice(0, 500), layoutLinks(big), 'LR').layoutOptions
    expect(small?.['elk.layered.cycleBreaking.strategy']).toBe('DEPTH_FIRST')
    expect(small?.['elk.layered.layering.strategy']).toBeUndefined()
  })

  it("hands the caller's Cancel signal and phase callback to the layout", async () => {
    const big = chain(DAGRE_MAX_NODES + 1)
    const control = { signal: new AbortController().signal, onPhase: vi.fn() }
    const run = vi.fn(runElk)
    await autoLayoutEdit(big, 'LR', run, control)
    expect(run).toHaveBeenCalledWith(expect.anything(), control)
  })

  it('reports a failed layout as a rejection, with no edit', async () => {
    const big = chain(DAGRE_MAX_NODES + 1)
    const failing: RunElk = () => Promise.reject(new Error('the layout worker could not start'))
    await expect(autoLayoutEdit(big, 'LR', failing)).rejects.toThrow('could not start')
    // elk answering without positions is a failure too, not a move to NaN
    const empty: RunElk = (g) => Promise.resolve({ ...g, children: [] })
    await expect(autoLayoutEdit(big, 'LR', empty)).rejects.toThrow('no position for __start__')
  })

  it('places a big graph without positions at once, on a grid, for the first render', () => {
    const big = chain(DAGRE_MAX_NODES + 50)
    const started = performance.now()
    const positions = layoutPositions(big, 'LR')
    expect(performance.now() - started).toBeLessThan(200)
    expect(positions.size).toBe(big.nodes.length + 2)
    const seen = new Set([...positions.values()].map((p) => `${p.x},${p.y}`))
    expect(seen.size).toBe(positions.size)
  })
})
