import { describe, expect, it } from 'vitest'
import type { GraphSpec } from '../../core/graph/schema'
import {
  addNodeEdit,
  applySelectChanges,
  connectEdit,
  copySelection,
  deletionEdits,
  freshNodeId,
  joinSources,
  joinTargets,
  moveEdit,
  nodeNameError,
  pasteEdit,
} from './interactions'

const code = '(s) => ({})'
const doc: GraphSpec = {
  superstep: 1,
  name: 'g',
  state: [{ name: 'count' }],
  nodes: [
    { id: 'a', code, position: { x: 0, y: 0 } },
    { id: 'b', code, position: { x: 200, y: 0 }, ends: ['a', '__end__'] },
    { id: 'c', code },
  ],
  edges: [
    { from: '__start__', to: 'a' },
    { from: 'a', to: 'b' },
    { from: ['a', 'b'], to: 'c' },
  ],
  branches: [
    { from: 'a', router: code, paths: { x: 'b', y: 'c' } },
    { from: 'c', router: code },
  ],
}

describe('canvas interactions as edits', () => {
  it('merges select changes into the selection, keeping order', () => {
    const next = applySelectChanges(
      ['a', 'b'],
      [
        { type: 'select', id: 'a', selected: false },
        { type: 'select', id: 'c', selected: true },
        { type: 'position', id: 'b' },
      ],
    )
    expect(next).toEqual(['b', 'c'])
  })

  it('turns a drag end into one moveNodes of the nodes that moved', () => {
    const edit = moveEdit(doc, [
      { id: 'a', position: { x: 0, y: 0 } },
      { id: 'b', position: { x: 240, y: 15 } },
      { id: 'c', position: { x: 30, y: 30 } },
      { id: '__start__', position: { x: 5, y: 5 } },
    ])
    expect(edit).toEqual({
      type: 'moveNodes',
      moves: [
        { id: 'b', position: { x: 240, y: 15 } },
        { id: 'c', position: { x: 30, y: 30 } },
      ],
    })
    expect(moveEdit(doc, [{ id: 'a', position: { x: 0, y: 0 } }])).toBeNull()
  })

  it('turns a connection into addEdge, self-loops and START/END included, markers refused', () => {
    expect(connectEdit(doc, 'a', 'a')).toEqual({ type: 'addEdge', from: 'a', to: 'a' })
    expect(connectEdit(doc, '__start__', 'c')).toEqual({
      type: 'addEdge',
      from: '__start__',
      to: 'c',
    })
    expect(connectEdit(doc, 'c', '__end__')).toEqual({ type: 'addEdge', from: 'c', to: '__end__' })
    expect(connectEdit(doc, '__end__', 'a')).toBeNull()
    expect(connectEdit(doc, 'a', 'join:2')).toBeNull()
  })

  it('deletes edges and branch paths before nodes, highest index first', () => {
    const edits = deletionEdits(doc, {
      nodes: ['c', '__start__', 'join:2'],
      edges: ['e:0', 'b:0:x', 'b:0:y', 'b:1', 'c:b:a', 'e:1'],
    })
    expect(edits).toEqual([
      { type: 'deleteBranch', index: 1 },
      { type: 'deleteBranchPath', index: 0, key: 'x' },
      { type: 'deleteBranchPath', index: 0, key: 'y' },
      { type: 'setNodeEnds', id: 'b', ends: ['__end__'] },
      { type: 'deleteEdges', indexes: [2, 1, 0] },
      { type: 'deleteNodes', ids: ['c'] },
    ])
    expect(deletionEdits(doc, { nodes: ['__end__'], edges: [] })).toEqual([])
  })

  it('offers a join of two or more selected nodes into another node or END', () => {
    const sources = joinSources(doc, { nodes: ['a', '__start__', 'b'], edges: [] })
    expect(sources).toEqual(['a', 'b'])
    expect(joinTargets(doc, sources)).toEqual(['c', '__end__'])
  })

  it('copies the selected nodes with the edges and branches among them, pastes 40 px off', () => {
    const clip = copySelection(doc, { nodes: ['a', 'b'], edges: [] })
    expect(clip?.nodes.map((n) => n.id)).toEqual(['a', 'b'])
    expect(clip?.edges).toEqual([{ from: 'a', to: 'b' }])
    expect(clip?.branches.map((b) => b.from)).toEqual(['a'])
    expect(pasteEdit(clip!)).toMatchObject({ type: 'paste', offset: { x: 40, y: 40 } })
    expect(copySelection(doc, { nodes: ['__start__'], edges: ['e:0'] })).toBeNull()
  })

  it('adds a node with a fresh id at a grid point', () => {
    expect(freshNodeId(doc)).toBe('node_1')
    expect(freshNodeId({ ...doc, nodes: [...doc.nodes, { id: 'node_1', code }] })).toBe('node_2')
    expect(addNodeEdit(doc, { x: 101, y: 8 })).toEqual({
      type: 'addNode',
      id: 'node_1',
      position: { x: 105, y: 15 },
    })
  })

  it('stops an obviously bad rename at the input', () => {
    expect(nodeNameError(doc, 'a', 'a')).toBeNull()
    expect(nodeNameError(doc, 'a', 'z')).toBeNull()
    expect(nodeNameError(doc, 'a', '')).toMatch(/empty/)
    expect(nodeNameError(doc, 'a', 'b')).toMatch(/already present/)
    expect(nodeNameError(doc, 'a', 'x:y')).toMatch(/reserved character/)
    expect(nodeNameError(doc, 'a', '__end__')).toMatch(/reserved/)
    expect(nodeNameError(doc, 'a', 'count')).toMatch(/state field/)
  })
})

describe('deletionEdit', () => {
  it('is null with nothing deletable, the edit itself for one, and a batch for several', async () => {
    const { deletionEdit, deletionEdits } = await import('./interactions')
    const doc = {
      superstep: 1 as const,
      name: 'd',
      state: [],
      nodes: [{ id: 'a', code: '(s) => ({})' }],
      edges: [{ from: '__start__', to: 'a' }],
    }
    expect(deletionEdit(doc, { nodes: ['__start__'], edges: [] })).toBeNull()
    const one = deletionEdits(doc, { nodes: ['a'], edges: [] })
    const several = deletionEdits(doc, { nodes: ['a'], edges: ['e:0'] })
    expect(deletionEdit(doc, { nodes: ['a'], edges: [] })).toEqual(
      one.length === 1 ? one[0] : { type: 'batch', edits: one },
    )
    expect(several.length).toBeGreaterThan(1)
    expect(deletionEdit(doc, { nodes: ['a'], edges: ['e:0'] })).toEqual({
      type: 'batch',
      edits: several,
    })
  })
})
