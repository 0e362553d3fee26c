import { describe, expect, it } from 'vitest'
import { applyEdit } from './edits'
import type { GraphIssue } from './issues'
import { issuesAt, levelOf, levelOfIssue, setLevel, subgraphNamesAt } from './levels'
import type { GraphSpec } from './schema'

const leaf = {
  state: [{ name: 'notes', reducer: 'append' as const }],
  nodes: [{ id: 'write', code: '() => ({ notes: ["x"] })' }],
  edges: [
    { from: '__start__', to: 'write' },
    { from: 'write', to: '__end__' },
  ],
}

const doc: GraphSpec = {
  superstep: 1,
  name: 'parent',
  state: [{ name: 'notes', reducer: 'append' }],
  nodes: [{ id: 'team', kind: 'graph', graph: 'team' }],
  edges: [
    { from: '__start__', to: 'team' },
    { from: 'team', to: '__end__' },
  ],
  subgraphs: {
    team: {
      ...leaf,
      nodes: [{ id: 'inner', kind: 'graph', graph: 'researcher' }],
      edges: [
        { from: '__start__', to: 'inner' },
        { from: 'inner', to: '__end__' },
      ],
      subgraphs: { researcher: leaf },
    },
    writer: leaf,
  },
} as GraphSpec

describe('levels of a document', () => {
  it('hands out a subgraph as a document and writes an edit of it back where it is', () => {
    const team = levelOf(doc, ['team'])
    expect(team?.spec).toMatchObject({ superstep: 1, name: 'team', nodes: [{ id: 'inner' }] })
    expect(team?.at).toEqual(['subgraphs', 'team'])
    const nested = levelOf(doc, ['team', 'researcher'])
    expect(nested?.at).toEqual(['subgraphs', 'team', 'subgraphs', 'researcher'])
    const r = applyEdit(nested!.spec, { type: 'renameNode', from: 'write', to: 'draft' })
    expect(r.ok).toBe(true)
    const next = setLevel(doc, ['team', 'researcher'], r.doc)
    const sub = next.subgraphs?.team?.subgraphs?.researcher
    expect(sub?.nodes.map((n) => n.id)).toEqual(['draft'])
    // Handed-out keys do not leak into the stored subgraph; the rest is untouched.
    expect(sub).not.toHaveProperty('superstep')
    expect(sub).not.toHaveProperty('name')
    expect(next.subgraphs?.writer).toBe(doc.subgraphs?.writer)
    expect(next.nodes).toBe(doc.nodes)
  })

  it('resolves a name in the nearest enclosing subgraphs, then outwards', () => {
    // `writer` is the root's: reachable from inside `team` too, and written back at the root.
    const w = levelOf(doc, ['team', 'writer'])
    expect(w?.at).toEqual(['subgraphs', 'writer'])
    const r = applyEdit(w!.spec, { type: 'addField', field: { name: 'extra' } })
    const next = setLevel(doc, ['team', 'writer'], r.doc)
    expect(next.subgraphs?.writer?.state.map((f) => f.name)).toEqual(['notes', 'extra'])
    expect(levelOf(doc, ['nowhere'])).toBeNull()
    expect(subgraphNamesAt(doc, ['team'])).toEqual(['researcher', 'team', 'writer'])
  })

  it("places each level's problems on it, and tells a problem's level", () => {
    const issue = (path: GraphIssue['path']): GraphIssue => ({
      code: 'UNREACHABLE_NODE',
      severity: 'warning',
      message: 'm',
      path,
    })
    const all = [
      issue(['nodes', 0]),
      issue(['subgraphs', 'team', 'nodes', 0, 'code']),
      issue(['subgraphs', 'team', 'subgraphs', 'researcher', 'edges', 1]),
    ]
    expect(issuesAt(all, []).map((i) => i.path)).toEqual([['nodes', 0]])
    expect(issuesAt(all, ['subgraphs', 'team']).map((i) => i.path)).toEqual([['nodes', 0, 'code']])
    expect(levelOfIssue(all[2]!)).toEqual(['team', 'researcher'])
    expect(levelOfIssue(all[0]!)).toEqual([])
  })
})
