import { describe, expect, it } from 'vitest'
import reactAgent from '../../examples/react-agent.json'
import reactCase from './cases/85-react-template.json'

/** Templates that have a differential twin must not drift from it. */
describe('template cases', () => {
  it('case 85 runs the ReAct template exactly as shipped', () => {
    expect(reactCase.graph).toEqual(reactAgent)
  })
})
