import { describe, expect, it } from 'vitest'
import { createCountingEnv } from '../lib/env'
import { parseGraph } from '../core/graph/validate'
import { runSession, type SessionReport } from '../core/run'
import { canonicalizeSession, loadSessions, runSessionOnLangGraph } from './session'
import { CloneCodeHost } from './cloneHost'

/** What must agree: every checkpoint's step, source, next, parent, values, versions, interrupts; errors by name and code. */
function comparable(r: Omit<SessionReport, 'warnings'>) {
  const c = canonicalizeSession(JSON.parse(JSON.stringify({ ...r, warnings: undefined })))
  const err = (e: SessionReport['error']) => e && { name: e.name, code: e.code }
  return {
    status: c.status,
    values: c.values,
    checkpoints: c.checkpoints,
    error: err(c.error),
    opErrors: c.opErrors.map((o) => ({ op: o.op, error: err(o.error) })),
    subgraphCheckpoints: c.subgraphCheckpoints,
  }
}

describe('differential sessions: operations on one thread agree with LangGraph.js', () => {
  const sessions = loadSessions()
  it('has at least 30 sessions', () => expect(sessions.length).toBeGreaterThanOrEqual(30))
  for (const s of sessions) {
    it(s.file ?? s.description, async () => {
      const parsed = parseGraph(s.graph)
      expect(parsed.issues.filter((i) => i.severity === 'error')).toEqual([])
      if (!parsed.ok) return
      const theirs = comparable(await runSessionOnLangGraph(s))
      const run = (host?: CloneCodeHost) =>
        runSession(parsed.spec, structuredClone(s.ops), {
          recursionLimit: s.recursionLimit,
          env: createCountingEnv(),
          ...(host ? { host } : {}),
        })
      expect(comparable(await run())).toEqual(theirs)
      // The same through the sandbox boundary: code in a host, values cloned across it.
      expect(comparable(await run(new CloneCodeHost()))).toEqual(theirs)
    })
  }
})
