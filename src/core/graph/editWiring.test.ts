import { describe, expect, it } from 'vitest'
import { END, START } from './constants'
import type { GraphSpec } from './schema'
import { validateGraph } from './validate'
import { edit, refused } from './editTestKit'

/** START → a → b, a branch from b with a path map, one with a list; frozen. */
const doc: GraphSpec = Object.freeze({
  superstep: 1,
  name: 'g',
  state: [{ name: 'x' }],
  nodes: [
    { id: 'a', code: '(s) => ({})' },
    { id: 'b', code: '(s) => ({})' },
    { id: 'c', code: '(s) => ({})' },
  ],
  edges: Object.freeze([
    { from: START, to: 'a' },
    { from: 'a', to: 'b' },
    { from: ['a', 'b'], to: 'c' },
  ]) as GraphSpec['edges'],
  branches: Object.freeze([
    Object.freeze({
      from: 'b',
      router: "(s) => 'go'",
      paths: Object.freeze({ go: 'c', stop: END }),
    }),
    Object.freeze({ from: 'c', router: "(s) => 'a'", paths: Object.freeze(['a', 'b']) }),
  ]) as GraphSpec['branches'],
})

const errors = (d: GraphSpec) => validateGraph(d).filter((i) => i.severity === 'error')

describe('edges and joins', () => {
  it('addEdge appends; an edge already drawn is a no-op', () => {
    expect(edit(doc, { type: 'addEdge', from: 'c', to: END }).edges.at(-1)).toEqual({
      from: 'c',
      to: END,
    })
    expect(edit(doc, { type: 'addEdge', from: 'a', to: 'b' })).toBe(doc)
  })

  it('addEdge refuses missing nodes, edges from END and edges to START', () => {
    expect(refused(doc, { type: 'addEdge', from: 'a', to: 'zz' })).toBe(
      'There is no node `zz` to end an edge at.',
    )
    expect(refused(doc, { type: 'addEdge', from: 'zz', to: 'a' })).toContain('`zz`')
    expect(refused(doc, { type: 'addEdge', from: END, to: 'a' })).toContain(
      'END cannot be the start',
    )
    expect(refused(doc, { type: 'addEdge', from: 'a', to: START })).toContain(
      'START cannot be the end',
    )
  })

  it('addJoin needs two distinct node sources; the same set again is a no-op', () => {
    expect(refused(doc, { type: 'addJoin', from: ['a'], to: 'c' })).toContain('at least two')
    expect(refused(doc, { type: 'addJoin', from: ['a', 'a'], to: 'c' })).toContain('got 1')
    expect(refused(doc, { type: 'addJoin', from: [START, 'a'], to: 'c' })).toContain('START')
    expect(refused(doc, { type: 'addJoin', from: ['a', 'q'], to: 'c' })).toContain('`q`')
    expect(refused(doc, { type: 'addJoin', from: ['a', 'b'], to: 'q' })).toContain('`q`')
    expect(edit(doc, { type: 'addJoin', from: ['b', 'a'], to: 'c' })).toBe(doc)
    const d = edit(doc, { type: 'addJoin', from: ['a', 'b', 'c'], to: END })
    expect(d.edges.at(-1)).toEqual({ from: ['a', 'b', 'c'], to: END })
    expect(errors(d)).toEqual([])
  })

  it('deleteEdges removes by index and refuses indexes out of range', () => {
    expect(edit(doc, { type: 'deleteEdges', indexes: [2, 1] }).edges).toEqual([
      { from: START, to: 'a' },
    ])
    expect(edit(doc, { type: 'deleteEdges', indexes: [] })).toBe(doc)
    expect(refused(doc, { type: 'deleteEdges', indexes: [3] })).toBe('There is no edge at index 3.')
  })
})

describe('branches', () => {
  it('addBranch without router or paths validates: done → END', () => {
    const d = edit(doc, { type: 'addBranch', from: 'a' })
    expect(d.branches?.at(-1)).toEqual({
      from: 'a',
      router: "(state) => 'done'",
      paths: { done: END },
    })
    expect(errors(d)).toEqual([])
  })

  it('addBranch with paths routes to the first key; with a router only, it has no map', () => {
    const d = edit(doc, { type: 'addBranch', from: START, paths: { "it's": 'a' } })
    expect(d.branches?.at(-1)?.router).toBe("(state) => 'it\\'s'")
    const r = edit(doc, { type: 'addBranch', from: 'a', router: "() => 'b'" })
    expect(r.branches?.at(-1)).toEqual({ from: 'a', router: "() => 'b'" })
    expect(refused(doc, { type: 'addBranch', from: 'q' })).toContain('`q`')
    expect(refused(doc, { type: 'addBranch', from: 'a', paths: { y: 'q' } })).toContain('path `y`')
  })

  it('setBranchRouter replaces the router; the same router is a no-op', () => {
    expect(edit(doc, { type: 'setBranchRouter', index: 0, router: "(s) => 'go'" })).toBe(doc)
    const d = edit(doc, { type: 'setBranchRouter', index: 0, router: "(s) => 'stop'" })
    expect(d.branches?.[0]?.router).toBe("(s) => 'stop'")
    expect(d.branches?.[1]).toBe(doc.branches?.[1])
    expect(refused(doc, { type: 'setBranchRouter', index: 7, router: '' })).toContain('index 7')
  })

  it('setBranchPath sets a key; a list-form map becomes an object map first', () => {
    const d = edit(doc, { type: 'setBranchPath', index: 1, key: 'out', to: END })
    expect(d.branches?.[1]?.paths).toEqual({ a: 'a', b: 'b', out: END })
    expect(edit(doc, { type: 'setBranchPath', index: 1, key: 'a', to: 'a' })).toBe(doc)
    expect(edit(doc, { type: 'setBranchPath', index: 0, key: 'go', to: 'c' })).toBe(doc)
    const m = edit(doc, { type: 'setBranchPath', index: 0, key: 'go', to: 'a' })
    expect(m.branches?.[0]?.paths).toEqual({ go: 'a', stop: END })
    expect(refused(doc, { type: 'setBranchPath', index: 0, key: 'go', to: 'q' })).toContain('`q`')
    expect(refused(doc, { type: 'setBranchPath', index: 0, key: '', to: 'a' })).toContain('name')
  })

  it('deleteBranchPath keeps an emptied map, and validation warns about it', () => {
    const once = edit(doc, { type: 'deleteBranchPath', index: 0, key: 'go' })
    expect(once.branches?.[0]?.paths).toEqual({ stop: END })
    const twice = edit(once, { type: 'deleteBranchPath', index: 0, key: 'stop' })
    expect(twice.branches?.[0]?.paths).toEqual({})
    expect(validateGraph(twice).map((i) => i.code)).toContain('EMPTY_PATH_MAP')
    expect(
      edit(doc, { type: 'deleteBranchPath', index: 1, key: 'b' }).branches?.[1]?.paths,
    ).toEqual(['a'])
    expect(refused(doc, { type: 'deleteBranchPath', index: 0, key: 'nope' })).toContain('`nope`')
  })

  it('deleteBranch removes one; removing the last removes `branches`', () => {
    const one = edit(doc, { type: 'deleteBranch', index: 0 })
    expect(one.branches).toEqual([doc.branches?.[1]])
    expect('branches' in edit(one, { type: 'deleteBranch', index: 0 })).toBe(false)
    expect(refused(doc, { type: 'deleteBranch', index: 2 })).toContain('index 2')
  })
})
