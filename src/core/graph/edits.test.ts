import { describe, expect, it } from 'vitest'
import { END, START } from './constants'
import { applyEdit, applyEdits } from './edits'
import type { GraphSpec } from './schema'
import { validateGraph } from './validate'
import { edit, refused } from './editTestKit'

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    Object.values(value).forEach(deepFreeze)
    Object.freeze(value)
  }
  return value
}

/**
 * START → a → b, a join [a, b] → c, c → END; b routes back to a or ends; a may also route
 * to b or c (a list-form path map); `ends` and breakpoints name a, b and c. Frozen, so an
 * edit that mutates it throws.
 */
const doc: GraphSpec = deepFreeze({
  superstep: 1,
  name: 'g',
  state: [{ name: 'x' }, { name: 'log', reducer: 'append', default: [] }],
  nodes: [
    { id: 'a', code: "(s) => ({ x: 'a' })", position: { x: 0, y: 0 }, ends: ['c'] },
    { id: 'b', code: "(s) => ({ log: ['b'] })", position: { x: 100, y: 0 } },
    { id: 'c', code: '(s) => ({})', position: { x: 200, y: 0 }, ends: ['a', END] },
  ],
  edges: [
    { from: START, to: 'a' },
    { from: 'a', to: 'b' },
    { from: ['a', 'b'], to: 'c' },
    { from: 'c', to: END },
  ],
  branches: [
    { from: 'b', router: "(s) => 'again'", paths: { again: 'a', done: END } },
    { from: 'a', router: "(s) => ['b', 'c']", paths: ['b', 'c'] },
  ],
  interruptBefore: ['a'],
  interruptAfter: ['a', 'b'],
})

const errors = (d: GraphSpec) => validateGraph(d).filter((i) => i.severity === 'error')

describe('renameNode', () => {
  it('updates every reference to a: edges, join, branches, paths, ends, breakpoints', () => {
    const d = edit(doc, { type: 'renameNode', from: 'a', to: 'first' })
    expect(d.nodes.map((n) => n.id)).toEqual(['first', 'b', 'c'])
    expect(d.edges).toEqual([
      { from: START, to: 'first' },
      { from: 'first', to: 'b' },
      { from: ['first', 'b'], to: 'c' },
      { from: 'c', to: END },
    ])
    expect(d.branches?.[0]?.paths).toEqual({ again: 'first', done: END })
    expect(d.branches?.[1]?.from).toBe('first')
    expect(d.nodes[2]?.ends).toEqual(['first', END])
    expect(d.interruptBefore).toEqual(['first'])
    expect(d.interruptAfter).toEqual(['first', 'b'])
    expect(errors(d)).toEqual([])
  })

  it('turns a list-form path map into an object map so the router still routes', () => {
    const d = edit(doc, { type: 'renameNode', from: 'b', to: 'bee' })
    expect(d.branches?.[1]?.paths).toEqual({ b: 'bee', c: 'c' })
    expect(d.branches?.[0]?.from).toBe('bee')
    expect(d.edges[2]).toEqual({ from: ['a', 'bee'], to: 'c' })
    expect(d.interruptAfter).toEqual(['a', 'bee'])
    expect(errors(d)).toEqual([])
  })

  it('renames join targets and ends of the node itself, but never code', () => {
    const d = edit(doc, { type: 'renameNode', from: 'c', to: 'last' })
    expect(d.edges[2]).toEqual({ from: ['a', 'b'], to: 'last' })
    expect(d.nodes[0]?.ends).toEqual(['last'])
    expect(d.branches?.[1]?.router).toBe("(s) => ['b', 'c']")
    expect(d.branches?.[1]?.paths).toEqual({ b: 'b', c: 'last' })
  })

  it('renaming to the same name returns the very same document', () => {
    expect(applyEdit(doc, { type: 'renameNode', from: 'a', to: 'a' })).toEqual({ ok: true, doc })
    expect(edit(doc, { type: 'renameNode', from: 'a', to: 'a' })).toBe(doc)
  })

  it('refuses the names validation refuses, with its messages', () => {
    const cases: [string, string][] = [
      ['b', 'Node `b` already present.'],
      [END, 'Node `__end__` is reserved.'],
      ['x:y', '":" is a reserved character'],
      ['x|y', '"|" is a reserved character'],
      ['', 'cannot be empty'],
      ['x', 'x is already being used as a state attribute'],
    ]
    for (const [to, message] of cases) {
      expect(refused(doc, { type: 'renameNode', from: 'a', to })).toContain(message)
      // The same name put in by hand is an error with the same message.
      const byHand = { ...doc, nodes: doc.nodes.map((n) => (n.id === 'c' ? { ...n, id: to } : n)) }
      expect(errors(byHand).map((i) => i.message)).toContainEqual(expect.stringContaining(message))
    }
    expect(refused(doc, { type: 'renameNode', from: 'zz', to: 'q' })).toBe('There is no node `zz`.')
  })
})

describe('deleteNodes', () => {
  it('deleting b cleans its edges, turns the join into a plain edge, drops its branch', () => {
    const d = edit(doc, { type: 'deleteNodes', ids: ['b'] })
    expect(d.nodes.map((n) => n.id)).toEqual(['a', 'c'])
    expect(d.edges).toEqual([
      { from: START, to: 'a' },
      { from: 'a', to: 'c' },
      { from: 'c', to: END },
    ])
    expect(d.branches).toEqual([{ from: 'a', router: "(s) => ['b', 'c']", paths: ['c'] }])
    expect(d.interruptAfter).toEqual(['a'])
    expect(errors(d)).toEqual([])
  })

  it('deleting a cleans path entries, ends and breakpoints, removing emptied lists', () => {
    const d = edit(doc, { type: 'deleteNodes', ids: ['a'] })
    expect(d.edges).toEqual([
      { from: 'b', to: 'c' },
      { from: 'c', to: END },
    ])
    expect(d.branches).toEqual([{ from: 'b', router: "(s) => 'again'", paths: { done: END } }])
    expect(d.nodes.find((n) => n.id === 'c')?.ends).toEqual([END])
    expect('interruptBefore' in d).toBe(false)
    expect(d.interruptAfter).toEqual(['b'])
  })

  it('deleting both sources removes the join and every branch', () => {
    const d = edit(doc, { type: 'deleteNodes', ids: ['a', 'b'] })
    expect(d.edges).toEqual([{ from: 'c', to: END }])
    expect('branches' in d).toBe(false)
    expect(d.nodes).toEqual([
      { id: 'c', code: '(s) => ({})', position: { x: 200, y: 0 }, ends: [END] },
    ])
  })

  it('a join that becomes an edge already drawn is not drawn twice', () => {
    const d0 = { ...doc, edges: [...doc.edges, { from: 'b', to: 'c' }] }
    const d = edit(d0, { type: 'deleteNodes', ids: ['a'] })
    expect(d.edges.filter((e) => e.from === 'b' && e.to === 'c')).toHaveLength(1)
  })

  it('refuses unknown nodes; deleting nothing returns the same document', () => {
    expect(refused(doc, { type: 'deleteNodes', ids: ['b', 'nope'] })).toContain('`nope`')
    expect(edit(doc, { type: 'deleteNodes', ids: [] })).toBe(doc)
  })
})

describe('moving and changing nodes', () => {
  it('moveNodes keeps untouched nodes and no-op moves identical', () => {
    expect(edit(doc, { type: 'moveNodes', moves: [{ id: 'a', position: { x: 0, y: 0 } }] })).toBe(
      doc,
    )
    const d = edit(doc, {
      type: 'moveNodes',
      moves: [
        { id: 'a', position: { x: 5, y: 6 } },
        { id: 'b', position: { x: 100, y: 0 } },
      ],
    })
    expect(d.nodes[0]).toEqual({ ...doc.nodes[0], position: { x: 5, y: 6 } })
    expect(d.nodes[1]).toBe(doc.nodes[1])
    expect(d.edges).toBe(doc.edges)
    expect(refused(doc, { type: 'moveNodes', moves: [{ id: 'q', position: { x: 0, y: 0 } }] }))
  })

  it('setNodeCode accepts code that does not parse (validation reports it)', () => {
    expect(edit(doc, { type: 'setNodeCode', id: 'b', code: doc.nodes[1]?.code ?? '' })).toBe(doc)
    const d = edit(doc, { type: 'setNodeCode', id: 'b', code: '(s) =>' })
    expect(d.nodes[1]?.code).toBe('(s) =>')
    expect(errors(d).map((i) => i.code)).toEqual(['CODE_SYNTAX'])
  })

  it('setNodeEnds drops duplicates, removes empty ends and refuses unknown targets', () => {
    expect(edit(doc, { type: 'setNodeEnds', id: 'a', ends: ['c'] })).toBe(doc)
    expect(
      edit(doc, { type: 'setNodeEnds', id: 'b', ends: ['c', 'c', END] }).nodes[1]?.ends,
    ).toEqual(['c', END])
    expect('ends' in (edit(doc, { type: 'setNodeEnds', id: 'a', ends: [] }).nodes[0] ?? {})).toBe(
      false,
    )
    expect(refused(doc, { type: 'setNodeEnds', id: 'a', ends: ['zz'] })).toContain('`zz`')
    expect(refused(doc, { type: 'setNodeEnds', id: 'a', ends: [START] })).toContain('START')
  })

  it("setNodeKind swaps a node's kind and settings, and back to code", () => {
    const tools = [{ name: 'echo', code: '({ t }) => t' }]
    const d = edit(doc, { type: 'setNodeKind', id: 'b', kind: 'tools', settings: { tools, x: 1 } })
    expect(d.nodes[1]).toEqual({ ...doc.nodes[1], kind: 'tools', tools })
    expect(edit(d, { type: 'setNodeKind', id: 'b', kind: 'tools', settings: { tools } })).toBe(d)
    const h = edit(d, {
      type: 'setNodeKind',
      id: 'b',
      kind: 'human',
      settings: { show: 'x', writeTo: 'x' },
    })
    expect(h.nodes[1]).toMatchObject({ kind: 'human', show: 'x', writeTo: 'x' })
    expect('tools' in (h.nodes[1] ?? {})).toBe(false)
    const back = edit(h, { type: 'setNodeKind', id: 'b', kind: 'code', settings: {} })
    expect(back.nodes[1]).toEqual(doc.nodes[1])
    expect(refused(doc, { type: 'setNodeKind', id: 'zz', kind: 'code', settings: {} })).toContain(
      'zz',
    )
  })

  it('addNode picks node_1, node_2… past taken names, with default code and position', () => {
    const d0 = { ...doc, state: [...doc.state, { name: 'node_2' }] }
    const d1 = edit(d0, { type: 'addNode' })
    const d2 = edit(d1, { type: 'addNode', position: { x: 3, y: 4 } })
    expect(d1.nodes.at(-1)).toEqual({
      id: 'node_1',
      code: '(state) => ({})',
      position: { x: 0, y: 0 },
    })
    expect(d2.nodes.at(-1)).toMatchObject({ id: 'node_3', position: { x: 3, y: 4 } })
    expect(refused(doc, { type: 'addNode', id: 'a' })).toBe('Node `a` already present.')
    expect(edit(doc, { type: 'addNode', id: 'z', code: '() => null' }).nodes.at(-1)?.code).toBe(
      '() => null',
    )
  })

  it('setName returns the same document for the same name', () => {
    expect(edit(doc, { type: 'setName', name: 'g' })).toBe(doc)
    expect(edit(doc, { type: 'setName', name: 'h' }).name).toBe('h')
  })
})

describe('setBreakpoint', () => {
  it('creates and removes the lists tidily', () => {
    const d = edit(doc, { type: 'setBreakpoint', node: 'a', when: 'before', on: false })
    expect('interruptBefore' in d).toBe(false)
    const back = edit(d, { type: 'setBreakpoint', node: 'c', when: 'before', on: true })
    expect(back.interruptBefore).toEqual(['c'])
    expect(edit(doc, { type: 'setBreakpoint', node: 'b', when: 'after', on: true })).toBe(doc)
    expect(edit(doc, { type: 'setBreakpoint', node: 'c', when: 'after', on: false })).toBe(doc)
    expect(
      edit(doc, { type: 'setBreakpoint', node: '*', when: 'after', on: true }).interruptAfter,
    ).toEqual(['a', 'b', '*'])
    expect(refused(doc, { type: 'setBreakpoint', node: 'q', when: 'after', on: true })).toContain(
      '`q`',
    )
  })
})

describe('paste', () => {
  const clip = {
    type: 'paste' as const,
    nodes: [doc.nodes[0], doc.nodes[1]].filter((n) => n !== undefined),
    edges: doc.edges,
    branches: doc.branches ?? [],
    offset: { x: 10, y: 20 },
  }

  it('copies a and b with fresh ids, offset, and only the wiring among them', () => {
    const d = edit(doc, clip)
    expect(d.nodes.slice(3).map((n) => [n.id, n.position])).toEqual([
      ['a_copy', { x: 10, y: 20 }],
      ['b_copy', { x: 110, y: 20 }],
    ])
    // START → a and the join to c (not pasted) are dropped; a → b is remapped.
    expect(d.edges.slice(4)).toEqual([{ from: 'a_copy', to: 'b_copy' }])
    expect(d.branches?.slice(2)).toEqual([
      { from: 'b_copy', router: "(s) => 'again'", paths: { again: 'a_copy', done: END } },
      { from: 'a_copy', router: "(s) => ['b', 'c']", paths: { b: 'b_copy' } },
    ])
    expect('ends' in (d.nodes[3] ?? {})).toBe(false)
    expect(errors(d)).toEqual([])
  })

  it('pasting again counts on: a_copy_2; into a document where ids are free they stay', () => {
    const twice = edit(edit(doc, clip), clip)
    expect(twice.nodes.slice(5).map((n) => n.id)).toEqual(['a_copy_2', 'b_copy_2'])
    const empty: GraphSpec = { superstep: 1, name: 'e', state: [], nodes: [], edges: [] }
    expect(edit(empty, clip).nodes.map((n) => n.id)).toEqual(['a', 'b'])
    expect(edit(doc, { ...clip, nodes: [] })).toBe(doc)
  })
})

describe('applyEdits', () => {
  it('applies a batch in order, or refuses all of it naming the failing edit', () => {
    const d = applyEdits(doc, [
      { type: 'addNode', id: 'n' },
      { type: 'addEdge', from: 'c', to: 'n' },
    ])
    expect(d.ok && d.doc.edges.at(-1)).toEqual({ from: 'c', to: 'n' })
    const bad = applyEdits(doc, [
      { type: 'addNode', id: 'n' },
      { type: 'addEdge', from: 'c', to: 'm' },
    ])
    expect(bad).toEqual({
      ok: false,
      doc,
      error: 'Edit 2 of 2 (addEdge): There is no node `m` to end an edge at.',
    })
    expect(applyEdits(doc, []).doc).toBe(doc)
    expect(applyEdits(doc, [{ type: 'renameNode', from: 'a', to: 'a' }]).doc).toBe(doc)
  })
})

describe('batch', () => {
  const base = {
    superstep: 1 as const,
    name: 'b',
    state: [],
    nodes: [
      { id: 'a', code: '(s) => ({})' },
      { id: 'b', code: '(s) => ({})' },
    ],
    edges: [{ from: '__start__', to: 'a' }],
  }
  it('applies several edits as one, or none of them', () => {
    const both = applyEdit(base, {
      type: 'batch',
      edits: [
        { type: 'deleteEdges', indexes: [0] },
        { type: 'deleteNodes', ids: ['a'] },
      ],
    })
    expect(both.ok && both.doc.nodes.map((n) => n.id)).toEqual(['b'])
    const refused = applyEdit(base, {
      type: 'batch',
      edits: [
        { type: 'deleteNodes', ids: ['a'] },
        { type: 'renameNode', from: 'b', to: '__end__' },
      ],
    })
    expect(refused.ok).toBe(false)
    expect(refused.doc).toBe(base)
  })
})
