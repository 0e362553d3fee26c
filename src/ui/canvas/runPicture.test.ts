import { describe, expect, it } from 'vitest'
import type { TaskRun } from '../../core/debug/types'
import type { GraphSpec } from '../../core/graph/schema'
import { firedEdges, lastRunSteps } from './runPicture'

const doc: GraphSpec = {
  superstep: 1,
  name: 'g',
  state: [{ name: 'x' }],
  nodes: [
    { id: 'a', code: '() => ({})' },
    { id: 'b', code: '() => ({})' },
    { id: 'c', code: '() => ({})', ends: ['a'] },
    { id: 'd', code: '() => ({})' },
  ],
  edges: [
    { from: '__start__', to: 'a' },
    { from: 'b', to: '__end__' },
    { from: ['a', 'b'], to: 'd' },
  ],
  branches: [{ from: 'a', router: '() => "go"', paths: { go: 'b', stop: '__end__', again: 'b' } }],
}

const task = (name: string, channels: string[], extra: Partial<TaskRun> = {}): TaskRun => ({
  id: `~__pregel_pull, ${name}`,
  name,
  kind: 'pull',
  writes: channels.map((channel) => ({ channel, value: null })),
  interrupts: [],
  ...extra,
})

describe('firedEdges', () => {
  it('maps branch writes to fixed edges, every path into the target, and ends', () => {
    expect(firedEdges(doc, [task('__start__', ['branch:to:a'])])).toEqual(['e:0'])
    expect(firedEdges(doc, [task('a', ['x', 'branch:to:b', 'join:a+b:d'])]).sort()).toEqual(
      ['b:0:again', 'b:0:go', 'j:2:a'].sort(),
    )
    expect(firedEdges(doc, [task('c', ['branch:to:a'])])).toEqual(['c:c:a'])
  })

  it('fires the edges to END of a node that finished, and a join that let its target run', () => {
    expect(firedEdges(doc, [task('b', ['join:a+b:d'])]).sort()).toEqual(['e:1', 'j:2:b'])
    expect(firedEdges(doc, [task('b', [], { interrupts: [{ id: 'i', value: 1 }] })])).toEqual([])
    expect(firedEdges(doc, [task('b', [], { error: { name: 'E', message: 'm' } })])).toEqual([])
    expect(firedEdges(doc, [task('d', [])])).toEqual(['j:2'])
  })

  it('reads each document as it is: an edited copy is indexed again', () => {
    expect(firedEdges(doc, [task('d', [])])).toEqual(['j:2'])
    const edited: GraphSpec = { ...doc, edges: [...doc.edges, { from: 'd', to: '__end__' }] }
    expect(firedEdges(edited, [task('d', [])]).sort()).toEqual(['e:3', 'j:2'])
    expect(firedEdges(doc, [task('d', [])])).toEqual(['j:2'])
  })

  it('lights the edges of every task of a super-step', () => {
    const ran = [task('a', ['branch:to:b']), task('c', ['branch:to:a']), task('d', [])]
    expect(firedEdges(doc, ran).sort()).toEqual(['b:0:again', 'b:0:go', 'c:c:a', 'j:2'].sort())
  })
})

describe('lastRunSteps', () => {
  const entries = [
    { checkpointId: 'f3', parentId: 'c1', step: 2, ran: [{ name: 'b' }] },
    { checkpointId: 'c3', parentId: 'c2', step: 3, ran: [{ name: 'c' }] },
    { checkpointId: 'c2', parentId: 'c1', step: 2, ran: [{ name: 'a' }, { name: 'b' }] },
    { checkpointId: 'c1', parentId: 'c0', step: 1, ran: [{ name: 'a' }] },
    { checkpointId: 'c0', step: 0, ran: [{ name: '__start__' }] },
  ]
  it('walks the branch of the checkpoint, newest first', () => {
    expect(lastRunSteps(entries, 'c3')).toEqual({ c: 3, a: 2, b: 2 })
    expect(lastRunSteps(entries, 'f3')).toEqual({ b: 2, a: 1 })
    expect(lastRunSteps(entries, 'c0')).toEqual({})
    expect(lastRunSteps(entries, undefined)).toEqual({})
  })
})
