import { describe, expect, it } from 'vitest'
import { createDecorator } from './decorate'
import type { FlowEdge } from './flowTypes'

const edge = (id: string): FlowEdge => ({ id, source: 'a', target: 'b', type: 'graph' }) as FlowEdge

describe('fired edges', () => {
  const base = [edge('e:a:b'), edge('e:b:c')]
  const fired = new Set(['e:a:b'])

  it('are drawn animated when the run is not going', () => {
    const [a, b] = createDecorator().edges(base, new Set(), fired)
    expect(a).toMatchObject({ animated: true, className: expect.stringContaining('ss-fired') })
    expect(b?.animated).toBeUndefined()
  })

  it('are highlighted but still while a run is going (no repaint every frame)', () => {
    const d = createDecorator()
    const [live] = d.edges(base, new Set(), fired, true)
    expect(live).toMatchObject({ animated: false, className: expect.stringContaining('ss-fired') })
    // The run ends: the same edge starts moving; the untouched one keeps its object.
    const [after, other] = d.edges(base, new Set(), fired, false)
    expect(after?.animated).toBe(true)
    expect(other).toBe(d.edges(base, new Set(), fired, true)[1])
  })
})
