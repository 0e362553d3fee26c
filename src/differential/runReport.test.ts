import { describe, expect, it } from 'vitest'
import { createCountingEnv } from '../lib/env'
import { parseGraph } from '../core/graph/validate'
import { runGraph, writeRunReport, type RunOptions } from '../core/run'
import { loadCases } from './compare'

describe('writeRunReport: the report written as it goes is the report made whole', () => {
  const cases = loadCases()
  it('has cases with errors, interrupts and subgraphs among them', () => {
    expect(cases.length).toBeGreaterThanOrEqual(40)
  })
  for (const c of cases) {
    it(c.file ?? c.description, async () => {
      const parsed = parseGraph(c.graph)
      if (!parsed.ok) return
      const opts = (): RunOptions => ({
        input: structuredClone(c.input),
        recursionLimit: c.recursionLimit,
        env: createCountingEnv(),
      })
      const whole = `${JSON.stringify(await runGraph(parsed.spec, opts()), null, 2)}\n`
      const pieces: string[] = []
      // Small pieces, so that a report of a few checkpoints is written in several.
      await writeRunReport(parsed.spec, opts(), (text) => pieces.push(text), 200)
      expect(pieces.join('')).toBe(whole)
    })
  }

  it('writes a long run in pieces, not at once', async () => {
    const parsed = parseGraph({
      superstep: 1,
      name: 'cycle',
      state: [{ name: 'n', reducer: 'add', default: 0 }],
      nodes: [{ id: 'inc', code: '(s) => ({ n: 1 })' }],
      edges: [{ from: '__start__', to: 'inc' }],
      branches: [
        { from: 'inc', router: `(s) => s.n < 300 ? 'inc' : '__end__'`, paths: ['inc', '__end__'] },
      ],
    })
    if (!parsed.ok) throw new Error('invalid graph')
    const pieces: string[] = []
    const opts = { input: {}, recursionLimit: 400, env: createCountingEnv() }
    await writeRunReport(parsed.spec, opts, (text) => pieces.push(text), 4096)
    expect(pieces.length).toBeGreaterThan(5)
    const report = JSON.parse(pieces.join('')) as { checkpoints: unknown[]; values: unknown }
    expect(report.checkpoints).toHaveLength(302)
    expect(report.values).toEqual({ n: 300 })
  })
})
