import { describe, expect, it } from 'vitest'
import { loadSessions } from '../differential/session'
import { parseSessionOps } from './sessionOps'

describe('parseSessionOps', () => {
  it('takes the ops of every differential session as they are', () => {
    for (const s of loadSessions()) {
      expect(parseSessionOps(s.ops), s.file).toEqual({ ops: s.ops })
    }
  })

  it('keeps continueOnError, Sends in a goto, bulk updates and updates given as a Command', () => {
    const ops = [
      { op: 'invoke', input: {}, continueOnError: true },
      { op: 'command', goto: ['a', { node: 'b', args: { n: 1 } }] },
      { op: 'update', command: { goto: { node: 'b', args: 2 } }, asNode: 'a' },
      {
        op: 'bulkUpdate',
        checkpoint: 1,
        supersteps: [{ updates: [{ values: null, asNode: '__end__' }, { values: { x: 1 } }] }],
      },
    ]
    expect(parseSessionOps(ops)).toEqual({ ops })
  })

  it('takes a resume addressed by node and position, and refuses one that gives both or neither', () => {
    const ops = [{ op: 'resume', answers: [{ node: 'work', index: 1, value: 'yes' }] }]
    expect(parseSessionOps(ops)).toEqual({ ops })
    for (const bad of [{ op: 'resume' }, { op: 'resume', value: 1, answers: ops[0]?.answers }])
      expect(parseSessionOps([bad])).toMatchObject({
        problem: expect.stringContaining('exactly one of `value`'),
      })
  })

  it('says what it found where an op is wrong', () => {
    expect(parseSessionOps([{ op: 'resum', value: 1 }])).toEqual({
      problem: expect.stringMatching(/at 0\.op: .*'resume'.* \(found "resum"\)$/),
    })
    expect(parseSessionOps([{ op: 'invoke', input: {}, checkpoint: -2 }])).toEqual({
      problem: expect.stringContaining(
        'at 0.checkpoint: Too small: expected number to be >=0 (found -2)',
      ),
    })
    expect(parseSessionOps({ ops: [] })).toEqual({
      problem: expect.stringContaining('(found {"ops":[]})'),
    })
  })

  it('names where an op is wrong', () => {
    expect(
      parseSessionOps([{ op: 'bulkUpdate', supersteps: [{ updates: [{ asNode: 3 }] }] }]),
    ).toMatchObject({ problem: expect.stringContaining('0.supersteps.0.updates.0.asNode') })
  })
})
