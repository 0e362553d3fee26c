import { describe, expect, it } from 'vitest'
import type { CheckpointSource } from '../checkpoint/types'
import { layoutHistoryTree, type HistoryItem } from './tree'

/**
 * A history from `id<parent` pairs in put order (`c2<c1`: c2's parent is c1; `c0`: a root),
 * handed over newest first as getStateHistory lists it. Steps count from the root.
 */
function history(...puts: string[]): HistoryItem[] {
  const step = new Map<string, number>()
  const items = puts.map((put): HistoryItem => {
    const [id, parentId] = put.split('<') as [string, string | undefined]
    const s = parentId === undefined ? -1 : (step.get(parentId) ?? 0) + 1
    step.set(id, s)
    const source: CheckpointSource = s === -1 ? 'input' : 'loop'
    return { checkpointId: id, ...(parentId ? { parentId } : {}), step: s, source }
  })
  return items.reverse()
}

/** Each row as `id lane [through] tip?`, newest first, to read like the picture. */
function picture(items: HistoryItem[]): string[] {
  return layoutHistoryTree(items).map(
    (r) =>
      `${r.checkpointId} ${r.lane}${r.parentLane !== undefined && r.parentLane !== r.lane ? `<${r.parentLane}` : ''}` +
      ` [${r.through.join(',')}]${r.isTip ? ' tip' : ''}`,
  )
}

describe('layoutHistoryTree', () => {
  it('puts a single line in lane 0, newest first, the newest a tip', () => {
    const rows = layoutHistoryTree(history('c0', 'c1<c0', 'c2<c1'))
    expect(rows).toEqual([
      {
        checkpointId: 'c2',
        parentId: 'c1',
        step: 1,
        source: 'loop',
        lane: 0,
        parentLane: 0,
        isTip: true,
        through: [],
      },
      {
        checkpointId: 'c1',
        parentId: 'c0',
        step: 0,
        source: 'loop',
        lane: 0,
        parentLane: 0,
        isTip: false,
        through: [],
      },
      { checkpointId: 'c0', step: -1, source: 'input', lane: 0, isTip: false, through: [] },
    ])
  })

  it('gives a fork at step 2 of a 5-step line its own lane, drawn past the newer line', () => {
    const items = history('c0', 'c1<c0', 'c2<c1', 'c3<c2', 'c4<c3', 'f3<c3', 'f4<f3')
    expect(picture(items)).toEqual([
      'f4 1 [] tip',
      'f3 1<0 []',
      'c4 0 [1] tip',
      'c3 0 []',
      'c2 0 []',
      'c1 0 []',
      'c0 0 []',
    ])
    expect(layoutHistoryTree(items).find((r) => r.checkpointId === 'f3')?.step).toBe(3)
  })

  it('gives two forks of the same checkpoint two lanes, the older fork the lower one', () => {
    const items = history('c0', 'c1<c0', 'c2<c1', 'c3<c2', 'a2<c1', 'b2<c1', 'b3<b2')
    expect(picture(items)).toEqual([
      'b3 2 [] tip',
      'b2 2<0 []',
      'a2 1<0 [2] tip',
      'c3 0 [1,2] tip',
      'c2 0 [1,2]',
      'c1 0 []',
      'c0 0 []',
    ])
  })

  it('lays out a fork of a fork; a tip continued later keeps its lane', () => {
    const items = history('c0', 'c1<c0', 'c2<c1', 'f2<c1', 'f3<f2', 'g3<f2', 'h3<c2', 'k1<c0')
    expect(picture(items)).toEqual([
      'k1 3<0 [] tip',
      'h3 0 [3] tip',
      'g3 2<1 [0,3] tip',
      'f3 1 [0,2,3] tip',
      'f2 1<0 [0,3]',
      'c2 0 [1,3]',
      'c1 0 [3]',
      'c0 0 []',
    ])
  })

  it('reuses a lane once the branch that held it has ended', () => {
    const items = history('c0', 'c1<c0', 'c2<c1', 'c3<c2', 'a2<c1', 'c4<c3', 'c5<c4', 'b5<c4')
    expect(picture(items)).toEqual([
      'b5 1<0 [] tip',
      'c5 0 [1] tip',
      'c4 0 []',
      'a2 1<0 [0] tip',
      'c3 0 [1]',
      'c2 0 [1]',
      'c1 0 []',
      'c0 0 []',
    ])
  })

  it('treats a checkpoint whose parent is cut off by a limit as a root', () => {
    const items = history('c1<gone', 'f2<gone', 'c2<c1', 'f3<f2')
    expect(picture(items)).toEqual(['f3 1 [] tip', 'c2 0 [1] tip', 'f2 1 [0]', 'c1 0 []'])
    const f2 = layoutHistoryTree(items).find((r) => r.checkpointId === 'f2')
    expect(f2).toMatchObject({ parentId: 'gone', lane: 1, isTip: false })
    expect(f2?.parentLane).toBeUndefined()
  })

  it('lays out nothing for an empty history', () => {
    expect(layoutHistoryTree([])).toEqual([])
  })
})
