import { describe, expect, it } from 'vitest'
import type { StepData } from './flowTypes'
import { stepNodeName, terminalNodeName } from './nodeName'

const data = (more: Partial<StepData> = {}): StepData => ({
  kind: 'step',
  docId: 'agent',
  index: 0,
  nodeKind: 'code',
  hitl: false,
  command: false,
  defer: false,
  branch: false,
  pauseBefore: false,
  pauseAfter: false,
  ...more,
})
const idle = { ran: false, next: false, badge: undefined }

describe('node names for screen readers', () => {
  it('say the kind, the run state and the problem count', () => {
    expect(stepNodeName('agent', data(), idle)).toBe('Node agent, code')
    const issues = { errors: 1, warnings: 0, title: 'x' }
    expect(
      stepNodeName('agent', data({ nodeKind: 'model', issues }), { ...idle, failed: 'boom' }),
    ).toBe('Node agent, model, error, 1 problem')
    expect(
      stepNodeName('inc', data({ pauseBefore: true }), { ran: true, next: true, badge: 2 }),
    ).toBe('Node inc, code, done, queued, pauses before')
    expect(stepNodeName('inc', data({ hitl: true }), { ...idle, badge: 1 })).toBe(
      'Node inc, code, calls interrupt, last ran at step 1',
    )
  })

  it('say START and END with their state', () => {
    expect(terminalNodeName('START', undefined, { ...idle, ran: true })).toBe('START, done')
    expect(terminalNodeName('END', { errors: 0, warnings: 2, title: '' }, idle)).toBe(
      'END, 2 problems',
    )
  })
})
