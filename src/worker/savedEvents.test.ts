import { describe, expect, it } from 'vitest'
import type { WorkerEvent } from './protocol'
import { SavedEventGate } from './savedEvents'

const base = { threadId: 't', runId: 'r' }
const saved = (id: string): WorkerEvent => ({
  ...base,
  type: 'checkpoint_saved',
  checkpointId: id,
  step: 0,
  source: 'loop',
  versions: {},
})
const started = (step: number): WorkerEvent => ({ ...base, type: 'step_started', step, tasks: [] })

/** A saver's commit status driven by hand: `commit(ids)` settles a batch. */
function fakeCommits() {
  const pending = new Set<string>()
  const lost = new Set<string>()
  const listeners = new Set<() => void>()
  return {
    put: (id: string) => pending.add(id),
    settle(ids: string[], ok: boolean) {
      for (const id of ids) {
        pending.delete(id)
        if (!ok) lost.add(id)
      }
      for (const l of listeners) l()
    },
    isPending: (id: string) => pending.has(id),
    isLost: (id: string) => lost.has(id),
    onSettled: (l: () => void) => {
      listeners.add(l)
      return () => listeners.delete(l)
    },
  }
}

const label = (e: WorkerEvent) =>
  e.type === 'checkpoint_saved' ? `saved ${e.checkpointId}` : `${e.type}`

describe('SavedEventGate', () => {
  it('holds a checkpoint not yet committed, and what follows it, until its batch commits', () => {
    const commits = fakeCommits()
    const out: string[] = []
    const gate = new SavedEventGate((e) => out.push(label(e)), commits)
    gate.push(started(0))
    commits.put('a')
    gate.push(saved('a'))
    gate.push(started(1))
    commits.put('b')
    gate.push(saved('b'))
    expect(out).toEqual(['step_started'])
    commits.settle(['a'], true)
    expect(out).toEqual(['step_started', 'saved a', 'step_started'])
    commits.settle(['b'], true)
    expect(out).toEqual(['step_started', 'saved a', 'step_started', 'saved b'])
    gate.push(started(2)) // nothing waits: straight through
    expect(out.at(-1)).toBe('step_started')
  })

  it('never announces a checkpoint whose batch was lost', () => {
    const commits = fakeCommits()
    const out: string[] = []
    const gate = new SavedEventGate((e) => out.push(label(e)), commits)
    commits.put('a')
    gate.push(saved('a'))
    gate.push(started(1))
    commits.settle(['a'], false)
    expect(out).toEqual(['step_started'])
    expect(gate.pending).toBe(0)
  })

  it('lets everything through without a batching saver', () => {
    const out: string[] = []
    const gate = new SavedEventGate((e) => out.push(label(e)))
    gate.push(saved('a'))
    expect(out).toEqual(['saved a'])
  })
})
