import { Position, getBezierPath } from '@xyflow/react'
import { describe, expect, it } from 'vitest'
import {
  bezier,
  cubicAt,
  edgePath,
  lanePoints,
  ownOffset,
  segmentCrossesRect,
  type Pt,
} from './edgeGeometry'

/** Points along an SVG path made of M, L, Q and C commands (enough for these shapes). */
function sample(d: string, per = 40): Pt[] {
  const nums = (s: string) =>
    s
      .trim()
      .split(/[\s,]+/)
      .map(Number)
  const out: Pt[] = []
  let at: Pt = { x: 0, y: 0 }
  for (const [, cmd, args] of d.matchAll(/([MLQC])([^MLQC]*)/g)) {
    const v = nums(args ?? '')
    if (cmd === 'M') at = { x: v[0] ?? 0, y: v[1] ?? 0 }
    else if (cmd === 'L') {
      const to = { x: v[0] ?? 0, y: v[1] ?? 0 }
      for (let k = 1; k <= per; k++)
        out.push({ x: at.x + ((to.x - at.x) * k) / per, y: at.y + ((to.y - at.y) * k) / per })
      at = to
    } else if (cmd === 'Q') {
      const c = { x: v[0] ?? 0, y: v[1] ?? 0 }
      const to = { x: v[2] ?? 0, y: v[3] ?? 0 }
      out.push(c, to)
      at = to
    } else if (cmd === 'C') {
      const cubic = [at, { x: v[0]!, y: v[1]! }, { x: v[2]!, y: v[3]! }, { x: v[4]!, y: v[5]! }]
      for (let k = 1; k <= per; k++) out.push(cubicAt(cubic as never, k / per))
      at = cubic[3]!
    }
  }
  return out
}

describe('bezier', () => {
  it('is React Flow’s own bezier when there is no offset', () => {
    const s = { x: 180, y: 22 }
    const t = { x: 400, y: 100 }
    const [path] = edgePath({ s, sPos: Position.Right, t, tPos: Position.Left, offset: 0 })
    const [rf] = getBezierPath({
      sourceX: s.x,
      sourceY: s.y,
      targetX: t.x,
      targetY: t.y,
      sourcePosition: Position.Right,
      targetPosition: Position.Left,
    })
    expect(sample(path)).toEqual(sample(rf.replace(/^M([\d.]+),/, 'M $1 ')))
  })

  it('moves the middle by the offset, to opposite sides for opposite offsets', () => {
    const s = { x: 0, y: 0 }
    const t = { x: 300, y: 0 }
    const mid = (o: number) => cubicAt(bezier(s, Position.Right, t, Position.Left, o), 0.5)
    expect(mid(0)).toEqual({ x: 150, y: 0 })
    expect(mid(18).y).toBeCloseTo(18)
    expect(mid(-18).y).toBeCloseTo(-18)
  })

  it('an edge B→A takes the other side than A→B with the same pair offset', () => {
    expect(ownOffset(18, 'a', 'b')).toBe(18)
    expect(ownOffset(18, 'b', 'a')).toBe(-18)
  })
})

describe('segmentCrossesRect', () => {
  const r = { x: 0, y: 0, w: 10, h: 10 }
  it('finds crossings, containment and misses', () => {
    expect(segmentCrossesRect({ x: -5, y: 5 }, { x: 15, y: 5 }, r)).toBe(true)
    expect(segmentCrossesRect({ x: 2, y: 2 }, { x: 3, y: 3 }, r)).toBe(true)
    expect(segmentCrossesRect({ x: -5, y: -5 }, { x: 15, y: -5 }, r)).toBe(false)
    expect(segmentCrossesRect({ x: -5, y: -5 }, { x: 15, y: -5 }, r, 6)).toBe(true)
    expect(segmentCrossesRect({ x: -10, y: 0 }, { x: 0, y: 30 }, r)).toBe(false)
  })
})

describe('lanePoints', () => {
  it('goes out, across, along the lane, across and in, without repeated points', () => {
    const pts = lanePoints({ x: 180, y: 20 }, { x: 540, y: 20 }, { at: -30, lr: true })
    expect(pts).toEqual([
      { x: 180, y: 20 },
      { x: 200, y: 20 },
      { x: 200, y: -30 },
      { x: 520, y: -30 },
      { x: 520, y: 20 },
      { x: 540, y: 20 },
    ])
    expect(lanePoints({ x: 0, y: 0 }, { x: 100, y: 0 }, { at: 0, lr: true })).toEqual([
      { x: 0, y: 0 },
      { x: 100, y: 0 },
    ])
  })
})
