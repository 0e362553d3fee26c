import { describe, expect, it } from 'vitest'
import type { TimelineEntry } from '../worker/protocol'
import { selectReadOnly, threadWarnings } from './runSlice'
import type { GraphEntry } from './appStore'

const entry = (step: number, ran: TimelineEntry['ran']): TimelineEntry => ({
  checkpointId: `c${step}`,
  step,
  source: 'loop',
  createdAt: '2026-12-02T00:00:00.000Z',
  next: [],
  ran,
})

describe('threadWarnings', () => {
  it('reads the stored warnings of every step, oldest first, and keeps live ones not stored yet', () => {
    const timeline = [
      entry(2, [
        { name: 'b', warnings: [{ code: 'UNKNOWN_ROUTE_TARGET', message: 'to nowhere' }] },
      ]),
      entry(1, [
        { name: 'a', warnings: [{ code: 'UNKNOWN_UPDATE_KEY', field: 'lgo', message: 'lgo' }] },
      ]),
    ]
    const live = [
      { step: 1, node: 'a', code: 'UNKNOWN_UPDATE_KEY', message: 'lgo' }, // stored already
      { step: 3, node: 'c', code: 'VALUE_TYPE_MISMATCH', message: 'not a number' },
    ]
    expect(threadWarnings(timeline, live)).toEqual([
      { step: 1, node: 'a', code: 'UNKNOWN_UPDATE_KEY', message: 'lgo' },
      { step: 2, node: 'b', code: 'UNKNOWN_ROUTE_TARGET', message: 'to nowhere' },
      { step: 3, node: 'c', code: 'VALUE_TYPE_MISMATCH', message: 'not a number' },
    ])
  })
})

describe('selectReadOnly', () => {
  const g = { id: 'g', name: 'g', doc: {}, trusted: true, allowNetwork: false } as GraphEntry
  it('says why a graph compiled for reading only cannot run, and nothing otherwise', () => {
    expect(selectReadOnly({ graphId: 'x', graphReadOnly: true, current: g })).toBe('problems')
    const untrusted = { ...g, trusted: false }
    expect(selectReadOnly({ graphId: 'x', graphReadOnly: true, current: untrusted })).toBe(
      'untrusted',
    )
    expect(selectReadOnly({ graphId: 'x', graphReadOnly: false, current: g })).toBeNull()
    expect(selectReadOnly({ graphId: null, graphReadOnly: true, current: g })).toBeNull()
  })
})
