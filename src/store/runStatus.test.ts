import { describe, expect, it } from 'vitest'
import type { TimelineEntry } from '../worker/protocol'
import { runStatus, type RunStatusInput } from './runStatus'

const entry = (step: number, next: string[], id = `c${step}`): TimelineEntry => ({
  checkpointId: id,
  step,
  source: 'loop',
  createdAt: '',
  next,
  ran: [],
})

const base: RunStatusInput = {
  runState: 'idle',
  pausedBy: null,
  interrupts: [],
  timeline: [],
  selectedCheckpointId: null,
}

/** The sentence with the node names put in. */
const say = (s: RunStatusInput) => {
  const r = runStatus(s)
  return { phase: r.phase, text: r.text.replace(/\{(\d+)\}/g, (_, i) => `\`${r.names[i]}\``) }
}

describe('runStatus', () => {
  it('says a run pressed and not yet started is starting, until it runs', () => {
    expect(say({ ...base, runStarting: true })).toEqual({ phase: 'starting', text: 'Starting…' })
    const done = { ...base, runState: 'done' as const, timeline: [entry(2, [])] }
    expect(say({ ...done, runStarting: true }).phase).toBe('starting')
    expect(say({ ...base, runState: 'running', runStarting: true }).phase).toBe('running')
  })

  it('says a breakpoint stop is one, before which node', () => {
    expect(
      say({
        ...base,
        runState: 'interrupted',
        pausedBy: { reason: 'breakpoint', next: ['write'] },
        timeline: [entry(1, ['write'])],
        interruptBefore: ['write'],
      }),
    ).toEqual({ phase: 'paused', text: 'Paused before `write` (breakpoint)' })
    // interruptAfter: the node after which it stopped is not next; the step and next are said
    expect(
      say({
        ...base,
        runState: 'interrupted',
        pausedBy: { reason: 'breakpoint', next: ['b'] },
        timeline: [entry(2, ['b'])],
      }),
    ).toEqual({ phase: 'paused', text: 'Paused at step 2 (breakpoint) · next: `b`' })
  })

  it('says who waits on interrupt(), once per node', () => {
    const ask = (node: string, id: string) => ({ id, node, value: '?' }) as never
    expect(
      say({
        ...base,
        runState: 'interrupted',
        pausedBy: { reason: 'interrupt', next: ['a', 'a', 'b'] },
        interrupts: [ask('a', '1'), ask('a', '2'), ask('b', '3')],
        timeline: [entry(1, ['a', 'a', 'b'])],
      }),
    ).toEqual({ phase: 'waiting', text: 'Waiting for a reply to interrupt() in `a`, `b`' })
  })

  it('a Step or a Pause: paused at the step, with what is next', () => {
    const s = {
      ...base,
      runState: 'paused' as const,
      pausedBy: { reason: 'step' as const, next: ['inc'] },
      timeline: [entry(3, ['inc'])],
    }
    expect(say(s)).toEqual({ phase: 'paused', text: 'Paused at step 3 · next: `inc`' })
    expect(runStatus({ ...s, pausedBy: { reason: 'pause', next: ['inc'] } }).detail).toMatch(
      /^You pressed Pause/,
    )
  })

  it('after a reload (idle): the latest checkpoint says paused or done', () => {
    expect(say({ ...base, timeline: [entry(1, ['b'])] })).toEqual({
      phase: 'paused',
      text: 'Paused at step 1 · next: `b`',
    })
    expect(say({ ...base, timeline: [entry(2, [])] }).phase).toBe('done')
    expect(say(base)).toEqual({ phase: 'idle', text: 'Ready' })
  })

  it('an older checkpoint selected is named as such, not as the thread being paused there', () => {
    const timeline = [entry(2, []), entry(1, ['b']), entry(0, ['a'])]
    expect(say({ ...base, runState: 'done', timeline, selectedCheckpointId: 'c1' })).toEqual({
      phase: 'done',
      text: 'Done · showing step 1 (older)',
    })
    // The latest selected is just the latest.
    expect(say({ ...base, runState: 'done', timeline, selectedCheckpointId: 'c2' }).text).toBe(
      'Done',
    )
  })
})
