import { describe, expect, it } from 'vitest'
import { judgeMessage } from './replyCheck'

const call = { type: 'runNode' as const, ref: { kind: 'node' as const, owner: 'b' } }

describe('judgeMessage', () => {
  it('fails the call a reply answers when the reply cannot be read, instead of ignoring it', () => {
    const hostile = {
      id: 7,
      get kind(): string {
        throw new RangeError('Maximum call stack size exceeded')
      },
    }
    const verdict = judgeMessage(hostile, (id) => (id === 7 ? call : undefined), 1e6)
    expect(verdict).toMatchObject({ kind: 'fail', id: 7 })
    const error = (verdict as { error: Error }).error
    expect(error.name).toBe('SandboxReplyUnreadableError')
    expect(error.message).toContain('node `b`')
    expect(error.message).toContain('Maximum call stack size exceeded')
    // A message that answers no call is still only ignored.
    expect(judgeMessage(hostile, () => undefined, 1e6)).toMatchObject({ kind: 'ignore' })
  })
})
