import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  loadView,
  loadViewport,
  saveView,
  saveViewport,
  viewportKey,
  withGraphView,
} from './viewMemory'
import { fakeLocalStorage } from './fakeLocalStorage'

const KEY = 'superstep.view.v1'
let items: Map<string, string>
let restore: () => void

beforeEach(() => {
  items = new Map()
  restore = fakeLocalStorage(items)
})
afterEach(() => restore())

describe('where each canvas was left', () => {
  it('keeps a pan and zoom per graph and per subgraph level, and forgets it when fitted', () => {
    const root = viewportKey('g1', [])
    const team = viewportKey('g1', ['team'])
    expect(root).not.toBe(team)
    expect(loadViewport(root)).toBeUndefined()
    saveViewport(root, { x: 10, y: -20, zoom: 1.5 })
    saveViewport(team, { x: 1, y: 2, zoom: 0.5 })
    expect(loadViewport(root)).toEqual({ x: 10, y: -20, zoom: 1.5 })
    expect(loadViewport(team)).toEqual({ x: 1, y: 2, zoom: 0.5 })
    saveViewport(root, null)
    expect(loadViewport(root)).toBeUndefined()
    expect(loadViewport(team)).toEqual({ x: 1, y: 2, zoom: 0.5 })
  })

  it('survives the rest of the view memory being saved (the tab, a graph view)', () => {
    const key = viewportKey('g1', [])
    saveViewport(key, { x: 3, y: 4, zoom: 2 })
    saveView({ ...loadView(), tab: 'Writes' })
    saveView(withGraphView(loadView(), 'g1', { thread: 'g1:main' }))
    expect(loadViewport(key)).toEqual({ x: 3, y: 4, zoom: 2 })
    expect(loadView().tab).toBe('Writes')
  })

  it('drops a damaged entry and keeps the most recent hundred', () => {
    items.set(
      KEY,
      JSON.stringify({
        graphs: {},
        viewports: { a: { x: 1, y: 2, zoom: 0 }, b: { x: 'no' }, c: { x: 1, y: 2, zoom: 1 } },
      }),
    )
    expect(loadViewport('a')).toBeUndefined()
    expect(loadViewport('b')).toBeUndefined()
    expect(loadViewport('c')).toEqual({ x: 1, y: 2, zoom: 1 })
    for (let i = 0; i < 120; i++) saveViewport(`k${i}`, { x: i, y: 0, zoom: 1 })
    expect(Object.keys(loadView().viewports ?? {})).toHaveLength(100)
    expect(loadViewport('k19')).toBeUndefined()
    expect(loadViewport('k119')).toEqual({ x: 119, y: 0, zoom: 1 })
  })
})
