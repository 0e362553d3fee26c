import { describe, expect, it } from 'vitest'
import { createCountingEnv } from '../lib/env'
import { parseGraph } from '../core/graph/validate'
import { runGraph } from '../core/run'
import type { RunReport } from '../core/report'
import { canonicalizeReport, loadCases, loadInvalidCases } from './compare'
import { compileOnLangGraph, runOnLangGraph } from './oracle'
import { CloneCodeHost } from './cloneHost'

/** What must agree: status, every checkpoint's step, source, next, values, versions; pending interrupts; error name+code. */
function comparable(r: RunReport) {
  const json = JSON.parse(JSON.stringify(r)) as RunReport
  const c = canonicalizeReport(json)
  return {
    status: c.status,
    values: c.values,
    checkpoints: c.checkpoints,
    interrupts: c.interrupts,
    error: c.error && { name: c.error.name, code: c.error.code },
    subgraphCheckpoints: c.subgraphCheckpoints,
    interruptNs: c.interruptNs,
  }
}

describe('differential: Superstep runs every case exactly as LangGraph.js does', () => {
  const cases = loadCases()
  it('has at least 40 cases', () => expect(cases.length).toBeGreaterThanOrEqual(40))
  for (const c of cases) {
    it(c.file ?? c.description, async () => {
      const parsed = parseGraph(c.graph)
      expect(parsed.issues.filter((i) => i.severity === 'error')).toEqual([])
      if (!parsed.ok) return
      const theirs = comparable(await runOnLangGraph(c))
      const run = (host?: CloneCodeHost) =>
        runGraph(parsed.spec, {
          input: structuredClone(c.input),
          recursionLimit: c.recursionLimit,
          env: createCountingEnv(),
          ...(host ? { host } : {}),
        })
      expect(comparable(await run())).toEqual(theirs)
      // The same through the sandbox boundary: code in a host, values cloned across it.
      expect(comparable(await run(new CloneCodeHost()))).toEqual(theirs)
    })
  }
})

describe('differential: what LangGraph.js refuses to compile is a validation problem', () => {
  for (const c of loadInvalidCases()) {
    it(`${c.file ?? ''} → ${c.invalid}`, () => {
      expect(compileOnLangGraph(c.graph)).not.toBeNull()
      const codes = parseGraph(c.graph)
        .issues.filter((i) => i.severity === 'error')
        .map((i) => i.code)
      expect(codes).toContain(c.invalid)
    })
  }
})
