import { describe, expect, it } from 'vitest'
import type { GraphEntry } from './appTypes'
import { cannotRun } from './runActions'

const trusted = { id: 'g', name: 'g', trusted: true } as unknown as GraphEntry

describe('cannotRun', () => {
  it('says the first problem once, with its node and line, and one full stop before "Fix it"', () => {
    const error = cannotRun(trusted, [
      {
        code: 'CODE_SYNTAX',
        severity: 'error',
        message: 'Code must be a single expression (a function), not statements.',
        path: ['nodes', 0, 'code'],
        nodeId: 'inc',
        line: 1,
        column: 1,
      },
    ])
    expect(error).toMatchObject({ name: 'GraphProblemsError', node: 'inc', line: 1, column: 1 })
    expect(error?.message).toBe(
      'The graph has a problem, so it cannot run: Code must be a single expression (a function), not statements. Fix it; the Problems list shows each one.',
    )
  })

  it('says nothing for an untrusted graph (its banner says why)', () => {
    expect(cannotRun({ ...trusted, trusted: false }, [])).toBeNull()
  })
})
