import { describe, expect, it } from 'vitest'
import { validateJson } from './jsonSchema'

const add = {
  type: 'object',
  properties: { a: { type: 'number' }, b: { type: 'number' } },
  required: ['a', 'b'],
  additionalProperties: false,
}

describe('validateJson', () => {
  it('accepts a value that matches', () => {
    expect(validateJson({ a: 1, b: 2 }, add)).toEqual({ valid: true, errors: [] })
  })

  it("reports @cfworker/json-schema's errors: a missing required argument", () => {
    const r = validateJson({ a: 1 }, add)
    expect(r.valid).toBe(false)
    expect(r.errors.map((e) => e.keywordLocation)).toContain('#/required')
  })

  it('rejects a wrong type and an extra key under additionalProperties: false', () => {
    expect(validateJson({ a: '1', b: 2 }, add).valid).toBe(false)
    expect(validateJson({ a: 1, b: 2, c: 3 }, add).valid).toBe(false)
  })

  it('a schema without type or properties accepts anything', () => {
    expect(validateJson(5, {}).valid).toBe(true)
    expect(validateJson([1], { description: 'x' }).valid).toBe(true)
  })

  it('leaves the schema alone (the library marks what it walks), so a frozen one works', () => {
    const schema = Object.freeze({ type: 'object', $ref: '#/$defs/x', $defs: { x: {} } })
    expect(validateJson({}, schema).valid).toBe(true)
    expect(Object.getOwnPropertyNames(schema)).toEqual(['type', '$ref', '$defs'])
  })

  it('throws what the library throws for a value JSON cannot hold', () => {
    expect(() => validateJson(undefined, add)).toThrow(
      'Instances of "undefined" type are not supported.',
    )
  })
})
