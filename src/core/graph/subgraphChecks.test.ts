import { describe, expect, it } from 'vitest'
import { parseGraph } from './validate'

type Doc = Record<string, unknown>
const inner = (nodes: Doc[], extra: Doc = {}): Doc => ({
  state: [{ name: 'x' }],
  nodes,
  edges: [{ from: '__start__', to: nodes[0]?.id }],
  ...extra,
})
const doc = (subgraphs: Doc, nodes: Doc[] = [{ id: 't', kind: 'graph', graph: 'team' }]) => ({
  superstep: 1,
  name: 'g',
  state: [{ name: 'x' }],
  nodes,
  edges: [{ from: '__start__', to: nodes[0]?.id }],
  subgraphs,
})
const problems = (d: unknown) =>
  parseGraph(d).issues.map((i) => [i.code, i.severity, i.path.join(' › '), i.subgraph ?? null])

describe('subgraph checks', () => {
  it('accepts a graph node whose subgraph exists, to any depth', () => {
    const d = doc({
      team: inner([{ id: 'p', kind: 'graph', graph: 'deep' }]),
      deep: inner([{ id: 'q', code: '(s) => s' }], {
        subgraphs: { own: inner([{ id: 'r', code: '(s) => s' }]) },
      }),
    })
    expect(problems(d)).toEqual([])
    expect(parseGraph(d).ok).toBe(true)
  })

  it('runs every graph check inside each subgraph and says where', () => {
    const d = doc({
      team: inner([
        { id: 'p', code: '(s) => ({' },
        { id: 'orphan', code: '(s) => s' },
      ]),
    })
    expect(problems(d)).toEqual([
      ['CODE_SYNTAX', 'error', 'subgraphs › team › nodes › 0 › code', ['team']],
      ['UNREACHABLE_NODE', 'error', 'subgraphs › team › nodes › 1', ['team']],
    ])
    expect(parseGraph(d).issues[0]?.message).toMatch(/^In subgraph `team`: Code of node `p`/)
  })

  it('locates problems of a nested subgraph by its whole chain', () => {
    const d = doc({
      team: inner([{ id: 'p', code: '(s) => s' }], {
        subgraphs: { mini: inner([{ id: 'bad', kind: 'graph' }]) },
      }),
    })
    expect(problems(d)).toEqual([
      [
        'MISSING_NODE_SETTING',
        'error',
        'subgraphs › team › subgraphs › mini › nodes › 0 › graph',
        ['team', 'mini'],
      ],
    ])
  })

  it('finds names that do not resolve: an error on a graph node, a warning in code', () => {
    expect(problems(doc({}, [{ id: 't', kind: 'graph', graph: 'nope' }]))).toEqual([
      ['UNKNOWN_SUBGRAPH', 'error', 'nodes › 0 › graph', null],
    ])
    expect(
      problems(doc({ team: inner([{ id: 'p', code: '(s) => subgraphs.zzz.invoke(s)' }]) })),
    ).toEqual([['UNKNOWN_SUBGRAPH', 'warning', 'subgraphs › team › nodes › 0 › code', ['team']]])
  })

  it('finds a subgraph that uses itself, through graph nodes or code', () => {
    const viaNodes = doc({
      team: inner([{ id: 'p', kind: 'graph', graph: 'b' }]),
      b: inner([{ id: 'q', kind: 'graph', graph: 'team' }]),
    })
    expect(problems(viaNodes)).toEqual([
      ['SUBGRAPH_CYCLE', 'error', 'subgraphs › b › nodes › 0', ['b']],
    ])
    expect(parseGraph(viaNodes).issues[0]?.message).toContain('team → b → team')
    const viaCode = doc({ team: inner([{ id: 'p', code: '(s) => subgraphs.team.invoke(s)' }]) })
    expect(problems(viaCode)).toEqual([
      ['SUBGRAPH_CYCLE', 'error', 'subgraphs › team › nodes › 0', ['team']],
    ])
  })
})
