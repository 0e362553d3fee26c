import { describe, expect, it } from 'vitest'
import { completionsAt } from '../editor/completionKit'
import { codeContextType } from '../editor/typings'
import {
  argsTypeOf,
  fieldTypeSchema,
  freshName,
  paramForm,
  paramNameProblem,
  parametersOf,
  schemaFieldType,
  withDescription,
  withType,
} from './paramRows'

const weather = {
  type: 'object',
  properties: {
    city: { type: 'string', description: 'The city.' },
    days: { type: 'integer', minimum: 1 },
  },
  required: ['city'],
}

describe('parameters rows <-> JSON Schema', () => {
  it('reads one row per property, required from `required`, and writes the same schema back', () => {
    const form = paramForm(weather)
    expect(form?.rows).toEqual([
      { name: 'city', schema: { type: 'string', description: 'The city.' }, required: true },
      { name: 'days', schema: { type: 'integer', minimum: 1 }, required: false },
    ])
    expect(JSON.stringify(parametersOf(form!))).toBe(JSON.stringify(weather))
  })

  it('keeps the object schema’s other keys, drops an empty `required`, starts from nothing', () => {
    const form = paramForm({ type: 'object', properties: {}, additionalProperties: false })
    expect(form).toEqual({ rows: [], rest: { additionalProperties: false } })
    const added = { ...form!, rows: [{ name: 'n', schema: { type: 'number' }, required: false }] }
    expect(parametersOf(added)).toEqual({
      type: 'object',
      properties: { n: { type: 'number' } },
      additionalProperties: false,
    })
    expect(paramForm(undefined)).toEqual({ rows: [], rest: {} })
    expect(parametersOf({ rows: [], rest: {} })).toEqual({ type: 'object', properties: {} })
  })

  it('refuses what the form cannot show: not an object schema, odd properties or required', () => {
    expect(paramForm({ type: 'string' })).toBeNull()
    expect(paramForm({ properties: {} })).toBeNull()
    expect(paramForm({ type: 'object', properties: { a: true } })).toBeNull()
    expect(paramForm({ type: 'object', properties: [] })).toBeNull()
    expect(paramForm({ type: 'object', required: 'a' })).toBeNull()
  })

  it('maps a property’s type to the field types TypeSelect edits, and back', () => {
    expect(schemaFieldType({})).toBeUndefined()
    expect(schemaFieldType({ type: 'integer' })).toBe('integer')
    expect(schemaFieldType({ type: 'array' })).toBe('array')
    expect(schemaFieldType({ type: 'array', items: { type: 'string' } })).toEqual({
      type: 'array',
      items: 'string',
    })
    expect(schemaFieldType({ type: 'array', items: {} })).toBe('array')
    expect(schemaFieldType({ type: 'null' })).toBeNull()
    expect(schemaFieldType({ type: ['string', 'null'] })).toBeNull()
    expect(schemaFieldType({ items: { type: 'string' } })).toBeNull()
    expect(fieldTypeSchema(undefined)).toEqual({})
    expect(fieldTypeSchema('any')).toEqual({})
    expect(fieldTypeSchema('number')).toEqual({ type: 'number' })
    expect(fieldTypeSchema({ type: 'array', items: { type: 'array', items: 'boolean' } })).toEqual({
      type: 'array',
      items: { type: 'array', items: { type: 'boolean' } },
    })
    expect(fieldTypeSchema('messages')).toEqual({ type: 'array', items: { type: 'object' } })
  })

  it('changes a type or a description and keeps the property’s other keys', () => {
    const s = { type: 'array', items: { type: 'string' }, description: 'Tags.', maxItems: 3 }
    expect(withType(s, 'number')).toEqual({ type: 'number', description: 'Tags.', maxItems: 3 })
    expect(withType(s, undefined)).toEqual({ description: 'Tags.', maxItems: 3 })
    expect(withDescription(s, '')).toEqual({
      type: 'array',
      items: { type: 'string' },
      maxItems: 3,
    })
    expect(withDescription({ type: 'string' }, 'x')).toEqual({ type: 'string', description: 'x' })
  })

  it('names: no empty name, no clash; a fresh name is free', () => {
    expect(paramNameProblem('', ['a'])).toContain('needs a name')
    expect(paramNameProblem('  ', ['a'])).toContain('needs a name')
    expect(paramNameProblem('a', ['a'])).toBe('Another parameter is named a.')
    expect(paramNameProblem('b', ['a'])).toBeNull()
    expect(freshName('param', [])).toBe('param')
    expect(freshName('param', ['param', 'param_2'])).toBe('param_3')
  })
})

describe('the arguments type of tool code', () => {
  it('is an object type of the parameters, optional unless required', () => {
    expect(argsTypeOf(weather)).toBe('{ city: string; days?: number }')
    expect(argsTypeOf(undefined)).toBe('{}')
    expect(argsTypeOf({ type: 'string' })).toBe('Record<string, unknown>')
    expect(
      argsTypeOf({
        type: 'object',
        properties: {
          'a b': { type: 'array', items: { type: 'array', items: { type: 'boolean' } } },
          '*/x': { type: 'object' },
          any: {},
        },
      }),
    ).toBe('{ "a b"?: boolean[][]; "*\\u002fx"?: Record<string, unknown>; any?: unknown }')
  })

  it('types the code in the editor: destructuring and `args.` complete the parameter names', () => {
    const kind = { kind: 'tool', args: argsTypeOf(weather) } as const
    expect(completions(codeContextType(kind), '({ c| }) => null')).toEqual(
      expect.arrayContaining(['city', 'days']),
    )
    expect(completions(codeContextType(kind), '(args) => args.')).toEqual(['city', 'days'])
    expect(completions(codeContextType(kind), '({ city }) => city.to')).toEqual(
      expect.arrayContaining(['toUpperCase', 'toLowerCase']),
    )
    // A name that would end the JSDoc comment stays inside it: still typed.
    const odd = argsTypeOf({
      type: 'object',
      properties: { '*/x': { type: 'string' }, ok: { type: 'number' } },
    })
    expect(completions(codeContextType({ kind: 'tool', args: odd }), '(a) => a.')).toContain('ok')
  })
})

/** Completion names at `|` in `code` (else at its end), as the editor would offer them. */
function completions(contextType: string, source: string): string[] {
  const at = source.includes('|') ? source.indexOf('|') : source.length
  return completionsAt(contextType, source.replace('|', ''), at)
}
