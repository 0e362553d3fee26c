import { describe, expect, it } from 'vitest'
import { mergeDocs } from './mergeDocs'

const base = {
  superstep: 1,
  name: 'g',
  state: [{ name: 'count', reducer: 'add' }],
  nodes: [
    { id: 'a', code: '() => ({})' },
    { id: 'b', code: '() => ({})' },
  ],
  edges: [
    { from: '__start__', to: 'a' },
    { from: 'a', to: 'b' },
  ],
}

const renamed = {
  ...base,
  nodes: [{ id: 'first', code: '() => ({})' }, base.nodes[1]],
  edges: [
    { from: '__start__', to: 'first' },
    { from: 'first', to: 'b' },
  ],
}

describe('mergeDocs', () => {
  it('keeps a field added in one tab and a node renamed in the other', () => {
    const added = { ...base, state: [...base.state, { name: 'log', reducer: 'append' }] }
    const r = mergeDocs(base, added, renamed)
    expect(r.conflicts).toEqual([])
    expect(r.doc).toEqual({ ...renamed, state: added.state })
    // The same either way round.
    expect(mergeDocs(base, renamed, added).doc).toEqual(r.doc)
  })

  it('merges edits of two different nodes and two new edges', () => {
    const mine = {
      ...base,
      nodes: [{ id: 'a', code: '() => ({ count: 1 })' }, base.nodes[1]],
      edges: [...base.edges, { from: 'b', to: '__end__' }],
    }
    const theirs = {
      ...base,
      nodes: [base.nodes[0], { id: 'b', code: '() => ({ count: 2 })' }],
      edges: [...base.edges, { from: 'b', to: 'a' }],
    }
    const r = mergeDocs(base, mine, theirs)
    expect(r.conflicts).toEqual([])
    expect((r.doc as typeof base).nodes.map((n) => n.code)).toEqual([
      '() => ({ count: 1 })',
      '() => ({ count: 2 })',
    ])
    expect((r.doc as typeof base).edges).toEqual([
      ...base.edges,
      // Mine's new edge after the one it follows in mine, then theirs.
      { from: 'b', to: '__end__' },
      { from: 'b', to: 'a' },
    ])
  })

  it('names a conflict where both tabs changed the same thing differently', () => {
    const mine = { ...base, nodes: [{ id: 'a', code: 'mine' }, base.nodes[1]] }
    const theirs = { ...base, nodes: [{ id: 'a', code: 'theirs' }, base.nodes[1]] }
    const r = mergeDocs(base, mine, theirs)
    expect(r.conflicts).toEqual(['nodes › a › code'])
    expect(r.doc).toEqual(mine)
  })

  it('calls a node edited in one tab and renamed (removed) in the other a conflict', () => {
    const mine = { ...base, nodes: [{ id: 'a', code: 'edited' }, base.nodes[1]] }
    const r = mergeDocs(base, mine, renamed)
    expect(r.conflicts).toContain('nodes › a')
  })

  it('takes the same change made in both tabs once', () => {
    const r = mergeDocs(base, renamed, structuredClone(renamed))
    expect(r).toEqual({ doc: renamed, conflicts: [] })
  })

  it('keeps a delete in one tab when the other did not touch the item', () => {
    const mine = { ...base, nodes: [base.nodes[0]], edges: [base.edges[0]] }
    const theirs = { ...base, name: 'renamed graph' }
    const r = mergeDocs(base, mine, theirs)
    expect(r.conflicts).toEqual([])
    expect(r.doc).toEqual({ ...mine, name: 'renamed graph' })
  })
})
