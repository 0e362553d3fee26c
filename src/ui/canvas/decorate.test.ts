import { describe, expect, it } from 'vitest'
import { createDecorator } from './decorate'
import type { FlowEdge, FlowNode } from './flowTypes'

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

describe('nodes during a drag', () => {
  const node = (id: string, x: number): FlowNode =>
    ({ id, type: 'step', position: { x, y: 0 }, data: {} }) as FlowNode
  const base = [node('a', 0), node('b', 100), node('c', 200)]
  const none = new Set<string>()
  const sizes = new Map()

  it('redo only the dragged nodes, the others keep their objects, as a fresh pass would draw them', () => {
    const d = createDecorator()
    const before = d.nodes(base, none, null, sizes)
    const frame1 = d.nodes(base, none, new Map([['b', { x: 120, y: 10 }]]), sizes)
    expect(frame1[0]).toBe(before[0])
    expect(frame1[2]).toBe(before[2])
    expect(frame1[1]?.position).toEqual({ x: 120, y: 10 })
    const drag2 = new Map([['c', { x: 240, y: 0 }]])
    const frame2 = d.nodes(base, none, drag2, sizes)
    expect(frame2.map((n) => n.position)).toEqual(
      createDecorator()
        .nodes(base, none, drag2, sizes)
        .map((n) => n.position),
    )
    expect(frame2[1]?.position).toEqual({ x: 100, y: 0 }) // b no longer dragged: back at its place
    expect(frame1[1]?.position).toEqual({ x: 120, y: 10 }) // an earlier answer is not changed
    const done = d.nodes(base, none, null, sizes)
    expect(done.map((n) => n.position)).toEqual(before.map((n) => n.position))
    expect(done[0]).toBe(before[0])
  })

  it('after any sequence of selections and drag frames, draw as a fresh pass would', () => {
    const many = Array.from({ length: 12 }, (_, i) => node(`n${i}`, i * 50))
    const d = createDecorator()
    let seed = 7
    const rand = (n: number) => (seed = (seed * 16807) % 2147483647) % n
    const drawn = (ns: FlowNode[]) => ns.map((n) => [n.id, n.selected, n.position])
    let previous = d.nodes(many, none, null, sizes)
    for (let round = 0; round < 200; round++) {
      const selected = new Set(many.filter(() => rand(4) === 0).map((n) => n.id))
      const dragged = rand(3) === 0 ? null : new Map([[`n${rand(12)}`, { x: rand(500), y: 5 }]])
      const out = d.nodes(many, selected, dragged, sizes)
      expect(drawn(out)).toEqual(drawn(createDecorator().nodes(many, selected, dragged, sizes)))
      // A node whose selection and drag did not change keeps its object.
      for (const [i, n] of out.entries())
        if (
          previous[i]?.selected === n.selected &&
          previous[i]?.position === n.position &&
          !dragged?.has(n.id)
        )
          expect(n).toBe(previous[i])
      previous = out
    }
  })
})
