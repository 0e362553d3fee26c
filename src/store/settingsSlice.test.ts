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
  it('a thread list asked for before the save landed does not undo what the user just set', () => {
    const typed = { recursionLimit: 1000, timeoutMs: 0 }
    const page = { threadId: 'g:main', recursionLimit: 1000, timeoutMs: 0 }
    // Not landed yet: neither a stale list nor the page's own patch of it settles anything.
    const unsaved = { 'g:main': typed }
    expect(
      followRunSettings({
        ...page,
        threads: [thread('g:main')],
        threadsRead: 7,
        localRunSettings: unsaved,
      }),
    ).toBeNull()
    expect(
      followRunSettings({
        ...page,
        threads: [thread('g:main', typed)],
        threadsRead: 7,
        localRunSettings: unsaved,
      }),
    ).toBeNull()
    // Landed when 3 lists had been asked for: list 3, whatever it shows, is older than the save.
    const landed = { 'g:main': { ...typed, savedBy: 3 } }
    expect(
      followRunSettings({
        ...page,
        threads: [thread('g:main')],
        threadsRead: 3,
        localRunSettings: landed,
      }),
    ).toBeNull()
    // List 4 was asked for after: what it shows stands, and the page's own is dropped.
    expect(
      followRunSettings({
        ...page,
        threads: [thread('g:main', typed)],
        threadsRead: 4,
        localRunSettings: landed,
      }),
    ).toEqual({ localRunSettings: {}, ...typed })
  })

  it("a stale list shown while the user's value is on screen puts the user's value back", () => {
    const typed = { recursionLimit: 1000, timeoutMs: 0 }
    expect(
      followRunSettings({
        threadId: 'g:main',
        recursionLimit: 25,
        timeoutMs: 0,
        threads: [thread('g:main')],
        threadsRead: 2,
        localRunSettings: { 'g:main': { ...typed, savedBy: 2 } },
      }),
    ).toEqual(typed)
  })

  it('opening a thread shows the settings it keeps (the defaults when none)', () => {
    const page = { recursionLimit: 1000, timeoutMs: 0, localRunSettings: {}, threadsRead: 1 }
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
