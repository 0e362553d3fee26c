import { describe, expect, it } from 'vitest'
import {
  describeType,
  describeValue,
  matchesType,
  typeLabel,
  typeToDocument,
  writeMatchesType,
} from './fieldTypes'
import type { FieldSpec, FieldType } from './schema'

const t = (type: FieldType | undefined) => describeType(type)

describe('field types', () => {
  it('reads every document form, and writes back the shortest', () => {
    expect(t(undefined)).toEqual({ kind: 'any' })
    expect(t({ type: 'string' })).toEqual({ kind: 'string' })
    expect(t('array')).toEqual({ kind: 'array', items: { kind: 'any' } })
    const listOfLists = t({ type: 'array', items: { type: 'array', items: 'integer' } })
    expect(typeLabel(listOfLists)).toBe('list of list of integer')
    expect(typeToDocument(listOfLists)).toEqual({
      type: 'array',
      items: { type: 'array', items: 'integer' },
    })
    expect(typeToDocument(t({ type: 'array', items: 'any' }))).toBe('array')
    expect(typeToDocument(t('any'))).toBeUndefined()
    expect(typeToDocument(t({ type: 'boolean' }))).toBe('boolean')
  })

  it('checks values', () => {
    expect(matchesType('a', t('string'))).toBe(true)
    expect(matchesType(1, t('string'))).toBe(false)
    expect(matchesType(1.5, t('number'))).toBe(true)
    expect(matchesType(1.5, t('integer'))).toBe(false)
    expect(matchesType(2, t('integer'))).toBe(true)
    expect(matchesType(null, t('object'))).toBe(false)
    expect(matchesType([], t('object'))).toBe(false)
    expect(matchesType({}, t('object'))).toBe(true)
    expect(matchesType(false, t('boolean'))).toBe(true)
    expect(matchesType(['a', 'b'], t({ type: 'array', items: 'string' }))).toBe(true)
    expect(matchesType(['a', 1], t({ type: 'array', items: 'string' }))).toBe(false)
    expect(matchesType([{ type: 'human', content: 'hi' }], t('messages'))).toBe(true)
    expect(matchesType(['hi'], t('messages'))).toBe(false)
    expect(matchesType(undefined, t('any'))).toBe(true)
  })

  it('checks a write through the reducer', () => {
    const field = (f: Partial<FieldSpec>): FieldSpec => ({ name: 'f', ...f })
    const strings = t({ type: 'array', items: 'string' })
    expect(writeMatchesType(field({ reducer: 'append' }), strings, 'one')).toBe(true)
    expect(writeMatchesType(field({ reducer: 'append' }), strings, 1)).toBe(false)
    expect(writeMatchesType(field({ channel: 'topic' }), strings, 'one')).toBe(true)
    expect(writeMatchesType(field({}), strings, 'one')).toBe(false)
    const chat = field({ reducer: 'add_messages' })
    expect(writeMatchesType(chat, t('messages'), 'hello')).toBe(true)
    expect(writeMatchesType(chat, t('messages'), ['user', 'hello'])).toBe(true)
    expect(writeMatchesType(chat, t('messages'), { role: 'user', content: 'hi' })).toBe(true)
    expect(writeMatchesType(chat, t('messages'), 42)).toBe(false)
    expect(writeMatchesType(field({ reducer: 'custom' }), t('string'), 42)).toBe(true)
    expect(writeMatchesType(field({ reducer: 'add' }), t('integer'), 0.5)).toBe(false)
  })

  it('shows a value escaped and cut short', () => {
    expect(describeValue(5)).toBe('number `5`')
    expect(describeValue(null)).toBe('`null`')
    expect(describeValue('')).toBe('an empty string')
    expect(describeValue(undefined)).toBe('undefined')
    expect(describeValue('a\u202eb')).toBe('string `"a\\u202eb"`')
    expect(describeValue('x'.repeat(100))).toMatch(/^string `"x+…`$/)
  })
})
