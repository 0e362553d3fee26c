import { describe, expect, it } from 'vitest'
import { parseGraph } from '../graph/validate'
import type { GraphSpec } from '../graph/schema'
import { runGraph } from '../run'
import { createCountingEnv } from '../../lib/env'

function spec(doc: unknown): GraphSpec {
  const parsed = parseGraph(doc)
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues))
  return parsed.spec
}

const typed = (types: boolean) =>
  spec({
    superstep: 1,
    name: 'typed',
    state: [
      { name: 'title', ...(types ? { type: 'string' } : {}) },
      {
        name: 'tags',
        reducer: 'append',
        default: [],
        ...(types ? { type: { type: 'array', items: 'string' } } : {}),
      },
    ],
    nodes: [{ id: 'write', code: "(s) => ({ title: 42, tags: 'ok' })" }],
    edges: [
      { from: '__start__', to: 'write' },
      { from: 'write', to: '__end__' },
    ],
  })

describe('typed fields at run time', () => {
  it('warns about a write that does not fit, naming node, field, type and value', async () => {
    const r = await runGraph(typed(true), { input: { title: 7 }, env: createCountingEnv() })
    expect(r.warnings).toEqual([
      {
        code: 'VALUE_TYPE_MISMATCH',
        node: '__start__',
        field: 'title',
        message: 'The input wrote number `7` to `title`, which is typed string.',
      },
      {
        code: 'VALUE_TYPE_MISMATCH',
        node: 'write',
        field: 'title',
        message: 'Node `write` wrote number `42` to `title`, which is typed string.',
      },
    ])
  })

  it('changes no checkpoint', async () => {
    const run = async (types: boolean) => {
      const { warnings, ...report } = await runGraph(typed(types), {
        input: { title: 7 },
        env: createCountingEnv(),
      })
      return { report, warnings: warnings.length }
    }
    const withTypes = await run(true)
    const without = await run(false)
    expect(withTypes.warnings).toBe(2)
    expect(without.warnings).toBe(0)
    expect(withTypes.report).toEqual(without.report)
  })
})
