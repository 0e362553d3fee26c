import { describe, expect, it } from 'vitest'
import type { ThreadInfo } from '../worker/protocol'
import { followRunSettings } from './settingsSlice'

const thread = (threadId: string, settings?: ThreadInfo['settings']): ThreadInfo => ({
  threadId,
  name: threadId,
  graph: 'g',
  count: 0,
  ...(settings && { settings }),
})

describe("the open thread's run settings", () => {
  it('a thread list read before the save landed does not undo what the user just set', () => {
    const typed = { recursionLimit: 1000, timeoutMs: 0 }
    const page = {
      threadId: 'g:main',
      recursionLimit: 1000,
      timeoutMs: 0,
      localRunSettings: { 'g:main': typed },
    }
    // Stale: the list still has the thread without settings.
    expect(followRunSettings({ ...page, threads: [thread('g:main')] })).toBeNull()
    // Seen back: the page's own is dropped, nothing else changes.
    expect(followRunSettings({ ...page, threads: [thread('g:main', typed)] })).toEqual({
      localRunSettings: {},
      ...typed,
    })
  })

  it('opening a thread shows the settings it keeps (the defaults when none)', () => {
    const page = { recursionLimit: 1000, timeoutMs: 0, localRunSettings: {} }
    const threads = [thread('g:a', { recursionLimit: 50 }), thread('g:b')]
    expect(followRunSettings({ ...page, threadId: 'g:a', threads })).toEqual({
      recursionLimit: 50,
      timeoutMs: 0,
    })
    expect(followRunSettings({ ...page, threadId: 'g:b', threads })).toEqual({
      recursionLimit: 25,
      timeoutMs: 0,
    })
  })
})
