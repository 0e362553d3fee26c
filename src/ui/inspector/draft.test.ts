import { describe, expect, it } from 'vitest'
import { editDraft, rebaseDraft, shownText, type Draft } from './draft'

describe('drafts', () => {
  it('shows the document until the user types, then the draft', () => {
    expect(shownText('a', null)).toBe('a')
    const d = editDraft(null, 'a', 'ab')
    expect(shownText('a', d)).toBe('ab')
  })

  it('keeps the draft through the echo of its own commit while typing on', () => {
    let d: Draft = editDraft(null, 'a', 'ab')
    d = { ...d, committed: 'ab' }
    d = editDraft(d, 'a', 'abc') // typed before the commit came back
    expect(shownText('ab', d)).toBe('abc') // the echo arrives: the draft still wins
    expect(editDraft(d, 'ab', 'abcd')).toEqual({ text: 'abcd', origin: 'a', committed: 'ab' })
  })

  it('gives way to an undo back to where it started, once its commit was seen', () => {
    const d = { ...editDraft(null, 'a', 'ab'), committed: 'ab' }
    expect(shownText('a', d)).toBe('ab') // the echo has not come back yet: still the draft
    const seen = rebaseDraft('ab', d) // the document holds the commit
    expect(seen).toEqual({ text: 'ab', origin: 'ab', committed: 'ab' })
    expect(shownText('a', seen)).toBe('a') // undo: the document's text
    expect(rebaseDraft('x', d)).toBe(d)
  })

  it('gives way to any other document change (undo, another editor)', () => {
    const d = { ...editDraft(null, 'a', 'ab'), committed: 'ab' }
    expect(shownText('x', d)).toBe('x')
    expect(editDraft(d, 'x', 'xy')).toEqual({ text: 'xy', origin: 'x', committed: null })
  })
})
