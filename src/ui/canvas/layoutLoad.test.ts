import type * as LayoutModule from './layout'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { GraphSpec } from '../../core/graph/schema'

// A fresh copy of layout.ts each test: the test setup hands the shared one dagre at once.
let layout: typeof LayoutModule
beforeEach(async () => {
  vi.resetModules()
  layout = await import('./layout')
})

const chain = (n: number, placed: boolean): GraphSpec => ({
  superstep: 1,
  name: 'chain',
  state: [],
  nodes: Array.from({ length: n }, (_, i) => ({
    id: `n${i}`,
    code: '(s) => ({})',
    ...(placed && { position: { x: i * 200, y: 0 } }),
  })),
  edges: [
    { from: '__start__', to: 'n0' },
    ...Array.from({ length: n - 1 }, (_, i) => ({ from: `n${i}`, to: `n${i + 1}` })),
    { from: `n${n - 1}`, to: '__end__' },
  ],
})

describe('dagre, loaded when a graph first needs it', () => {
  it('is not needed by a graph whose nodes all have positions, nor by a big one (a grid)', () => {
    expect(layout.canLayOut(chain(3, true))).toBe(true)
    expect(layout.canLayOut(chain(layout.DAGRE_MAX_NODES + 1, false))).toBe(true)
    expect(layout.layoutPositions(chain(layout.DAGRE_MAX_NODES + 1, false), 'LR').size).toBe(
      layout.DAGRE_MAX_NODES + 3,
    )
  })

  it('is waited for by a graph with a node without a position, then lays it out in ranks', async () => {
    const doc = chain(3, false)
    expect(layout.canLayOut(doc)).toBe(false)
    expect(() => layout.layoutPositions(doc, 'LR')).toThrow(/loadDagre/)
    await layout.loadDagre()
    expect(layout.canLayOut(doc)).toBe(true)
    const at = layout.layoutPositions(doc, 'LR')
    const xs = ['__start__', 'n0', 'n1', 'n2', '__end__'].map((id) => at.get(id)!.x)
    expect(xs).toEqual([...xs].sort((a, b) => a - b))
    expect(new Set(xs).size).toBe(5)
  })

  it('is fetched by Auto layout itself', async () => {
    const edit = await layout.autoLayoutEdit(chain(2, true), 'TB')
    expect(edit.type).toBe('moveNodes')
    expect(layout.canLayOut(chain(2, false))).toBe(true)
  })

  it('failing to load (offline): nodes go on a grid, Auto layout says so, and a later try loads it', async () => {
    vi.doMock('./dagreLayout', () => {
      throw new Error('offline')
    })
    vi.resetModules()
    layout = await import('./layout')
    const doc = chain(3, false)
    expect(await layout.loadDagre()).toBeNull()
    expect(layout.canLayOut(doc)).toBe(true)
    const grid = layout.layoutPositions(doc, 'LR') // one row, in document order
    expect(grid.get('n2')).toEqual({ x: 3 * grid.get('n0')!.x, y: 0 })
    await expect(layout.autoLayoutEdit(doc, 'LR')).rejects.toThrow(/could not be loaded/)
    vi.doUnmock('./dagreLayout')
    expect(await layout.loadDagre()).not.toBeNull()
  })
})
