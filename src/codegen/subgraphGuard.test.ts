import { describe, expect, it } from 'vitest'
import type { GraphSpec } from '../core/graph/schema'
import { emitPython } from './python'
import { emitTypeScript } from './typescript'

const withSubgraph: GraphSpec = {
  superstep: 1,
  name: 'crew',
  state: [{ name: 'x' }],
  nodes: [{ id: 'team', kind: 'graph', graph: 'team' }],
  edges: [{ from: '__start__', to: 'team' }],
  subgraphs: {
    team: {
      state: [{ name: 'x' }],
      nodes: [{ id: 'w', code: '(s) => s' }],
      edges: [{ from: '__start__', to: 'w' }],
    },
  },
}

describe('exports of a document with subgraphs', () => {
  it('are refused with a clear error instead of wrong code', () => {
    for (const emit of [emitTypeScript, emitPython]) {
      expect(() => emit(withSubgraph)).toThrow(
        /uses subgraphs, which the .* export does not write yet/,
      )
    }
  })

  it('still export a document without subgraphs', () => {
    const plain: GraphSpec = {
      ...withSubgraph,
      nodes: [{ id: 'w', code: '(s) => s' }],
      edges: [{ from: '__start__', to: 'w' }],
      subgraphs: {},
    }
    expect(emitTypeScript(plain)).toContain('StateGraph')
    expect(emitPython(plain)).toContain('StateGraph')
  })
})
