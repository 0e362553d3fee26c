import { describe, expect, it } from 'vitest'
import type { GraphSpec } from '../../core/graph/schema'
import { DAGRE_MAX_NODES, autoLayoutEdit, layoutPositions } from './layout'

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

describe('layout', () => {
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
    const at = (m: Map<string, { x: number; y: number }>, id: string) => m.get(id)!
    expect(at(lr, 'a').x).toBeLessThan(at(lr, 'b').x)
    expect(at(lr, 'b').x).toBeLessThan(at(lr, 'd').x)
    expect(at(tb, 'a').y).toBeLessThan(at(tb, 'b').y)
    expect(at(tb, 'b').y).toBeLessThan(at(tb, 'd').y)
    expect(lr).not.toEqual(tb)
  })

  it('is one moveNodes edit with every document node', () => {
    const edit = autoLayoutEdit(doc, 'TB')
    expect(edit.type).toBe('moveNodes')
    if (edit.type !== 'moveNodes') return
    expect(edit.moves.map((m) => m.id)).toEqual(['a', 'b', 'c', 'd'])
    const tb = layoutPositions(doc, 'TB')
    for (const m of edit.moves) expect(m.position).toEqual(tb.get(m.id))
  })

  it('uses the linear rank layout for big graphs, still left to right', () => {
    const n = DAGRE_MAX_NODES + 50
    const big: GraphSpec = {
      superstep: 1,
      name: 'big',
      state: [],
      nodes: Array.from({ length: n }, (_, i) => ({ id: `n${i}`, code: '(s) => ({})' })),
      edges: [
        { from: '__start__', to: 'n0' },
        ...Array.from({ length: n - 1 }, (_, i) => ({ from: `n${i}`, to: `n${i + 1}` })),
      ],
    }
    const started = performance.now()
    const positions = layoutPositions(big, 'LR')
    expect(performance.now() - started).toBeLessThan(500)
    expect(positions.size).toBe(n + 2)
    expect(positions.get('n1')!.x).toBeGreaterThan(positions.get('n0')!.x)
    expect(positions.get('__end__')!.x).toBeGreaterThan(positions.get(`n${n - 1}`)!.x)
  })
})
