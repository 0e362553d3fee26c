import { describe, expect, it } from 'vitest'
import reactAgent from '../../examples/react-agent.json'
import { modelEndpoints } from './endpoints'

describe('modelEndpoints', () => {
  it("lists the endpoints a document's model nodes call, and nothing for scripted models", () => {
    expect(modelEndpoints(reactAgent)).toEqual([])
    const doc = {
      ...reactAgent,
      nodes: [
        ...reactAgent.nodes,
        { id: 'remote', kind: 'model', model: { provider: 'openai', baseUrl: 'http://x:1/v1' } },
      ],
    }
    expect(modelEndpoints(doc)).toEqual([{ node: 'remote', baseUrl: 'http://x:1/v1' }])
    expect(modelEndpoints({ nodes: 'nope' })).toEqual([])
    expect(modelEndpoints(null)).toEqual([])
  })
})
