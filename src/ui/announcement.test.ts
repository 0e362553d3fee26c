import { describe, expect, it } from 'vitest'
import type { TimelineEntry } from '../worker/protocol'
import { announce, type AnnounceInput, type AnnounceMemory } from './announcement'

const entry = (id: string, step: number, next: string[], more: Partial<TimelineEntry> = {}) =>
  ({
    checkpointId: id,
    step,
    next,
    source: 'loop',
    createdAt: '',
    ran: [],
    ...more,
  }) as TimelineEntry

const idle: AnnounceInput = {
  threadId: 't',
  runState: 'idle',
  pausedBy: null,
  interrupts: [],
  timeline: [],
}

/** Feeds the states in order; returns what was announced at each. */
function story(...states: AnnounceInput[]): (string | null)[] {
  let memory: AnnounceMemory | null = null
  return states.map((s) => {
    const out = announce(memory, s)
    memory = out.memory
    return out.text
  })
}

describe('announce', () => {
  it('says nothing for the first state, nor while running', () => {
    const t = [entry('c1', 1, ['inc'])]
    expect(story({ ...idle, runState: 'paused', timeline: t })).toEqual([null])
    expect(story(idle, { ...idle, runState: 'running', timeline: t })).toEqual([null, null])
  })

  it('says each Step where it paused and what is next, then that the run finished', () => {
    const step0 = [entry('c0', 0, ['inc'])]
    const step1 = [entry('c1', 1, ['inc']), ...step0]
    const done = [entry('c2', 2, []), ...step1]
    const paused = (timeline: TimelineEntry[], step: number): AnnounceInput => ({
      ...idle,
      runState: 'paused',
      pausedBy: { reason: 'step', next: timeline[0]!.next, step },
      timeline,
    })
    expect(
      story(
        idle,
        { ...idle, runState: 'running' },
        paused(step0, 0),
        paused(step0, 0),
        paused(step1, 1),
        { ...idle, runState: 'done', timeline: done },
      ),
    ).toEqual([
      null,
      null,
      'Paused at step 0, next: inc',
      null,
      'Paused at step 1, next: inc',
      'Run finished at step 2',
    ])
  })

  it('names a breakpoint and an interrupt', () => {
    const t = [entry('c1', 1, ['write'])]
    const bp: AnnounceInput = {
      ...idle,
      runState: 'interrupted',
      pausedBy: { reason: 'breakpoint', next: ['write'], step: 1 },
      timeline: t,
      interruptBefore: ['write'],
    }
    expect(story(idle, bp)).toEqual([null, 'Paused before write (breakpoint)'])
    const waiting: AnnounceInput = {
      ...idle,
      runState: 'interrupted',
      pausedBy: { reason: 'interrupt', next: ['review'], step: 1 },
      interrupts: [{ node: 'review', value: 'ok?' } as AnnounceInput['interrupts'][number]],
      timeline: [entry('c1', 1, ['review'])],
    }
    expect(story(idle, waiting)).toEqual([null, 'Waiting for a reply to interrupt() in review'])
  })

  it('says a fork once, from its parent step, and not its status over it', () => {
    const before = [entry('c3', 3, []), entry('c2', 2, ['inc']), entry('c1', 1, ['inc'])]
    const fork = entry('f1', 3, ['inc'], { source: 'update', parentId: 'c2' })
    const done: AnnounceInput = { ...idle, runState: 'done', timeline: before }
    const after: AnnounceInput = { ...idle, timeline: [fork, ...before] }
    // The store then reads the fork's head as paused there: not said over the fork.
    const reread: AnnounceInput = { ...after, runState: 'interrupted' }
    expect(story(done, { ...done, runState: 'idle' }, after, after, reread)).toEqual([
      null,
      null,
      'Forked from step 2, next: inc',
      null,
      null,
    ])
    // A Step from the fork: a new head, said again.
    const stepped: AnnounceInput = {
      ...after,
      runState: 'paused',
      pausedBy: { reason: 'step', next: ['inc'], step: 4 },
      timeline: [entry('c4', 4, ['inc']), fork, ...before],
    }
    expect(story(done, after, reread, stepped)).toEqual([
      null,
      'Forked from step 2, next: inc',
      null,
      'Paused at step 4, next: inc',
    ])
    // Another thread's head is no fork: its status is said.
    expect(story(done, { ...after, threadId: 'u' })).toEqual([null, 'Paused at step 3, next: inc'])
  })
})
