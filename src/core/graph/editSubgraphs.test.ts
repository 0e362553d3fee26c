import { describe, expect, it } from 'vitest'
import { applyEdit } from './edits'
import type { GraphSpec } from './schema'
import { parseGraph } from './validate'

const chain: GraphSpec = {
  superstep: 1,
  name: 'chain',
  state: [{ name: 'log', reducer: 'add_messages' }, { name: 'n' }],
  nodes: ['a', 'b', 'c', 'd'].map((id, i) => ({
    id,
    code: `(s) => ({ n: ${i} })`,
    position: { x: 0, y: i * 100 },
  })),
  edges: [
    { from: '__start__', to: 'a' },
    { from: 'a', to: 'b' },
    { from: 'b', to: 'c' },
    { from: 'c', to: 'd' },
    { from: 'd', to: '__end__' },
  ],
  interruptBefore: ['c'],
}

const errors = (doc: GraphSpec) =>
  parseGraph(doc)
    .issues.filter((i) => i.severity === 'error')
    .map((i) => i.message)

describe('group into subgraph', () => {
  it('moves a chain inside, wires the graph node where it was, and carries its breakpoints', () => {
    const r = applyEdit(chain, { type: 'groupIntoSubgraph', ids: ['b', 'c'], name: 'middle' })
    if (!r.ok) throw new Error(r.error)
    const doc = r.doc
    expect(doc.nodes.map((n) => [n.id, n.kind])).toEqual([
      ['a', undefined],
      ['d', undefined],
      ['middle', 'graph'],
    ])
    expect(doc.nodes.find((n) => n.id === 'middle')?.graph).toBe('middle')
    expect(doc.edges).toEqual([
      { from: '__start__', to: 'a' },
      { from: 'a', to: 'middle' },
      { from: 'd', to: '__end__' },
      { from: 'middle', to: 'd' },
    ])
    expect(doc.interruptBefore).toBeUndefined()
    const sub = doc.subgraphs?.middle
    expect(sub?.nodes.map((n) => n.id)).toEqual(['b', 'c'])
    expect(sub?.edges).toEqual([
      { from: '__start__', to: 'b' },
      { from: 'b', to: 'c' },
      { from: 'c', to: '__end__' },
    ])
    expect(sub?.interruptBefore).toEqual(['c'])
    // The parent's state schema, each field with its reducer.
    expect(sub?.state).toEqual(chain.state)
    expect(errors(doc)).toEqual([])
  })

  it('keeps a router whose routes stay inside (or end), and retargets one leading in', () => {
    const doc: GraphSpec = {
      ...chain,
      interruptBefore: undefined,
      edges: chain.edges.filter((e) => e.from !== 'a' && e.from !== 'b'),
      branches: [
        { from: 'a', router: '(s) => s.n', paths: { go: 'b', skip: 'd' } },
        { from: 'b', router: '(s) => s.n', paths: { more: 'c', done: '__end__' } },
      ],
    }
    delete doc.interruptBefore
    const r = applyEdit(doc, { type: 'groupIntoSubgraph', ids: ['b', 'c'], name: 'inner' })
    if (!r.ok) throw new Error(r.error)
    expect(r.doc.branches).toEqual([
      { from: 'a', router: '(s) => s.n', paths: { go: 'inner', skip: 'd' } },
    ])
    expect(r.doc.subgraphs?.inner?.branches).toEqual([doc.branches?.[1]])
    expect(r.doc.edges).toContainEqual({ from: 'inner', to: 'd' })
    expect(errors(r.doc)).toEqual([])
  })

  it('refuses what a subgraph cannot be, saying what to select instead', () => {
    const group = (doc: GraphSpec, ids: string[]) => {
      const r = applyEdit(doc, { type: 'groupIntoSubgraph', ids, name: 'g' })
      return r.ok ? 'ok' : r.error
    }
    const twoWaysIn = { ...chain, edges: [...chain.edges, { from: '__start__', to: 'c' }] }
    expect(group(twoWaysIn, ['b', 'c'])).toMatch(/entered at `b` and `c`.*one way in/)
    const twoWaysOut = { ...chain, edges: [...chain.edges, { from: 'b', to: 'd' }] }
    expect(group(twoWaysOut, ['a', 'b'])).toMatch(/left towards `c` and `d`/)
    const join = { ...chain, edges: [...chain.edges, { from: ['a', 'd'], to: 'c' }] }
    expect(group(join, ['a', 'b'])).toMatch(/join into `c` waits for nodes inside and outside/)
    const routerOut = {
      ...chain,
      branches: [{ from: 'b', router: '(s) => s.n', paths: { x: 'd' } }],
    }
    expect(group(routerOut, ['b', 'c'])).toMatch(/router of `b` may lead outside/)
    const gotoOut = {
      ...chain,
      nodes: chain.nodes.map((n) => (n.id === 'b' ? { ...n, ends: ['d'] } : n)),
    }
    expect(group(gotoOut, ['b', 'c'])).toMatch(/Command goto.*Command.PARENT/)
    expect(group(chain, [])).toMatch(/Select the nodes/)
    expect(group(chain, ['zz'])).toMatch(/no node `zz`/)
  })

  it('adds a graph as a subgraph with a node that runs it', () => {
    const r = applyEdit(chain, {
      type: 'addSubgraph',
      name: 'a',
      graph: { state: chain.state, nodes: [], edges: [] },
    })
    if (!r.ok) throw new Error(r.error)
    // `a` is a node already: the graph node is `a_2`.
    expect(r.doc.nodes.at(-1)).toEqual({ id: 'a_2', kind: 'graph', graph: 'a' })
    const again = applyEdit(r.doc, {
      type: 'addSubgraph',
      name: 'a',
      graph: { state: [], nodes: [], edges: [] },
    })
    expect(again.ok ? '' : again.error).toMatch(/already exists/)
  })
})
