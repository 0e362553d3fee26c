import { describe, expect, it } from 'vitest'
import type { GraphIssue } from '../../core/graph/issues'
import type { GraphSpec } from '../../core/graph/schema'
import { codeMarkers, inspectorTarget, issuesAt, parseEdgeId } from './selection'

const doc: GraphSpec = {
  superstep: 1,
  name: 'g',
  state: [],
  nodes: [
    { id: 'a', code: '(s) => ({})' },
    { id: 'b', code: '(s) => ({})' },
  ],
  edges: [{ from: ['a', 'b'], to: '__end__' }],
  branches: [{ from: 'a', router: '(s) => "x"', paths: { x: 'b', 'y:z': 'a' } }],
}

describe('parseEdgeId', () => {
  it('reads plain edges, branches and branch paths (keys may hold colons)', () => {
    expect(parseEdgeId('e:3')).toEqual({ kind: 'edge', index: 3 })
    expect(parseEdgeId('b:0')).toEqual({ kind: 'branch', index: 0 })
    expect(parseEdgeId('b:0:y:z')).toEqual({ kind: 'branch', index: 0, key: 'y:z' })
    expect(parseEdgeId('b:1:')).toEqual({ kind: 'branch', index: 1, key: '' })
    for (const bad of ['x:1', 'e:', 'e:1:k', 'b:a', '']) expect(parseEdgeId(bad)).toBeNull()
  })
})

describe('inspectorTarget', () => {
  it('shows one selected node, a selected branch path, else the schema', () => {
    expect(inspectorTarget(doc, { nodes: ['b'], edges: [] })).toMatchObject({
      kind: 'node',
      index: 1,
      node: { id: 'b' },
    })
    expect(inspectorTarget(doc, { nodes: [], edges: ['e:0', 'b:0:x'] })).toEqual({
      kind: 'branch',
      index: 0,
      key: 'x',
    })
    expect(inspectorTarget(doc, { nodes: [], edges: [] })).toEqual({ kind: 'schema' })
    expect(inspectorTarget(doc, { nodes: ['a', 'b'], edges: [] })).toEqual({
      kind: 'schema',
      note: '2 nodes selected.',
    })
    expect(inspectorTarget(doc, { nodes: [], edges: ['e:0'] })).toMatchObject({
      kind: 'schema',
      note: expect.stringContaining('a + b → __end__'),
    })
  })

  it('falls back to the schema for ids that are not in the document', () => {
    expect(inspectorTarget(doc, { nodes: ['gone'], edges: [] })).toEqual({ kind: 'schema' })
    expect(inspectorTarget(doc, { nodes: [], edges: ['b:7:x', 'e:9'] })).toEqual({
      kind: 'schema',
    })
  })
})

describe('issuesAt and codeMarkers', () => {
  const issue = (path: (string | number)[], extra: Partial<GraphIssue> = {}): GraphIssue => ({
    code: 'CODE_SYNTAX',
    severity: 'error',
    message: 'm',
    path,
    ...extra,
  })
  it('picks the issues under a path or naming the node, and positions for the editor', () => {
    const issues = [
      issue(['nodes', 1, 'code'], { line: 2, column: 5 }),
      issue(['nodes', 0, 'code'], { line: 1 }),
      issue(['edges', 0], { code: 'UNREACHABLE_NODE', nodeId: 'b' }),
    ]
    const ofB = issuesAt(issues, ['nodes', 1], 'b')
    expect(ofB).toEqual([issues[0], issues[2]])
    expect(codeMarkers(ofB, 'code')).toEqual([
      { message: 'm', line: 2, column: 5, severity: 'error' },
    ])
  })
})
