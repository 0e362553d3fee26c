import { describe, expect, it } from 'vitest'
import type { GraphSpec } from '../../core/graph/schema'
import { createLineCache, handlePoint, viewOf } from './detail'
import type { FlowNode } from './flowTypes'
import { toFlow } from './toFlow'

/** 100 nodes, 25 to a row (240 x 90 apart), a chain and a branch every tenth node. */
const doc: GraphSpec = {
  superstep: 1,
  name: 'grid',
  state: [],
  nodes: Array.from({ length: 100 }, (_, i) => ({
    id: `n${i}`,
    code: '(s) => ({})',
    position: { x: (i % 25) * 240, y: Math.floor(i / 25) * 90 },
  })),
  edges: [
    { from: '__start__', to: 'n0' },
    ...Array.from({ length: 99 }, (_, i) => ({ from: `n${i}`, to: `n${i + 1}` })),
  ],
  branches: Array.from({ length: 10 }, (_, i) => ({
    from: `n${i * 10}`,
    router: "(s) => 'a'",
    paths: { a: `n${(i * 10 + 30) % 100}` },
  })),
}
const { nodes, edges } = toFlow(doc, [])
const everything = { x: -1e6, y: -1e6, width: 2e6, height: 2e6 }

describe('zoomed-out edges', () => {
  it('join the right of the source to the left of the target, left to right', () => {
    const lines = createLineCache()(edges, nodes, 'LR', everything, new Set())
    const n0n1 = edges.find((e) => e.source === 'n0' && e.target === 'n1')
    const line = lines.find((l) => l.id === n0n1?.id)
    // n0 at (0, 0), n1 at (240, 0), boxes 180 x 45 (benchDoc, flowTypes.ts).
    expect(line).toMatchObject({ x1: 180, y1: 22.5, x2: 240, y2: 22.5, arrow: true })
    expect(line?.className).toBe('ss-edge-fixed')
    // Every edge between two nodes has its line (START's too); self-loops are left out.
    const loops = edges.filter((e) => e.source === e.target).length
    expect(lines).toHaveLength(edges.length - loops)
  })

  it('top to bottom: from the bottom middle to the top middle', () => {
    const n1 = nodes.find((n) => n.id === 'n1') as FlowNode
    expect(handlePoint(n1, true, 'TB')).toEqual({ x: 240 + 90, y: 45 })
    expect(handlePoint(n1, false, 'TB')).toEqual({ x: 240 + 90, y: 0 })
  })

  it('only those with a part in view (and a margin round it)', () => {
    // The first row only: y from 0 to 45, x from 0 to 1,000 (n0 to n4); the margin takes
    // a quarter more each way.
    const view = viewOf([0, 0, 1], 1000, 45)
    const lines = createLineCache()(edges, nodes, 'LR', view, new Set())
    expect(lines.length).toBeGreaterThan(0)
    expect(lines.length).toBeLessThan(edges.length / 2)
    expect(lines.map((l) => l.id)).toContain(
      edges.find((e) => e.source === 'n0' && e.target === 'n1')?.id,
    )
    // n50 to n51 is two rows down: out of view.
    const far = edges.find((e) => e.source === 'n50' && e.target === 'n51')
    expect(lines.map((l) => l.id)).not.toContain(far?.id)
  })

  it('follow a node moved in a new array, and show selection and firing', () => {
    const moved = nodes.map((n) => (n.id === 'n1' ? { ...n, position: { x: 300, y: 60 } } : n))
    const first = edges.find((e) => e.source === 'n0' && e.target === 'n1')
    if (!first) throw new Error('no n0 → n1')
    const selected = edges.map((e) => (e === first ? { ...e, selected: true } : e))
    const marked = createLineCache()(selected, nodes, 'LR', everything, new Set([first.id]))
    expect(marked.find((l) => l.id === first.id)?.className).toBe(
      'ss-edge-fixed ss-selected ss-fired',
    )
    const lines = createLineCache()
    const before = lines(edges, nodes, 'LR', everything, new Set())
    const again = lines(edges, moved, 'LR', everything, new Set())
    expect(again.find((l) => l.id === first.id)).toMatchObject({ x2: 300, y2: 82.5 })
    // The lines of the edges of unmoved nodes are the same objects (nothing to redraw).
    const far = before.find((l) => l.id === edges.find((e) => e.source === 'n50')?.id)
    expect(far).toBeDefined()
    expect(again.find((l) => l.id === far?.id)).toBe(far)
  })
})

describe('the line cache', () => {
  it('finds the nodes again when their order changes or a node goes', () => {
    const lines = createLineCache()
    const id = edges.find((e) => e.source === 'n7' && e.target === 'n8')?.id
    const first = lines(edges, nodes, 'LR', everything, new Set()).find((l) => l.id === id)
    const reversed = [...nodes].reverse().map((n) => ({ ...n }))
    const again = lines(edges, reversed, 'LR', everything, new Set()).find((l) => l.id === id)
    expect(again).toEqual(first)
    const without = reversed.filter((n) => n.id !== 'n8')
    const gone = lines(edges, without, 'LR', everything, new Set()).find((l) => l.id === id)
    expect(gone).toBeUndefined()
  })
})
