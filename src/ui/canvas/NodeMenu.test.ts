import { describe, expect, it } from 'vitest'
import { clampToWindow } from './NodeMenu'

describe('clampToWindow', () => {
  const view = { width: 1280, height: 800 }
  const size = { width: 150, height: 60 }
  it('opens at the pointer when it fits', () => {
    expect(clampToWindow({ x: 300, y: 200 }, size, view)).toEqual({ left: 300, top: 200 })
  })
  it('opens to the left of, or above, a pointer near the right or bottom edge', () => {
    expect(clampToWindow({ x: 1200, y: 780 }, size, view)).toEqual({ left: 1050, top: 720 })
  })
  it('stays inside a window smaller than the way it would open', () => {
    expect(clampToWindow({ x: 100, y: 30 }, size, { width: 200, height: 70 })).toEqual({
      left: 4,
      top: 4,
    })
  })
})
