import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { graphJsonSchemaText } from './schema'

describe('docs/graph.schema.json', () => {
  it('is the schema the validator uses (run `npm run schema` after changing schema.ts)', () => {
    const committed = readFileSync(
      new URL('../../../docs/graph.schema.json', import.meta.url),
      'utf8',
    )
    expect(committed).toBe(graphJsonSchemaText())
  })
})
