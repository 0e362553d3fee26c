import { describe, expect, it } from 'vitest'
import { createCountingEnv } from './lib/env'
import { parseGraph } from './core/graph/validate'
import { runGraph, runSession } from './core/run'
import { TEMPLATES } from './templates'

describe('templates', () => {
  for (const t of TEMPLATES) {
    it(`${t.id} validates without errors and runs offline`, async () => {
      const parsed = parseGraph(t.doc)
      expect(parsed.issues.filter((i) => i.severity === 'error')).toEqual([])
      if (!parsed.ok) return
      const r = await runGraph(parsed.spec, { input: t.input, env: createCountingEnv() })
      expect(r.error).toBeNull()
      expect(r.warnings).toEqual([])
    })
  }

  it('the approval gate pauses for a human and loops on a rejection', async () => {
    const t = TEMPLATES.find((x) => x.id === 'approval')
    const parsed = parseGraph(t?.doc)
    if (!parsed.ok) throw new Error('invalid template')
    const r = await runSession(
      parsed.spec,
      [
        { op: 'invoke', input: t?.input },
        { op: 'resume', value: false },
        { op: 'resume', value: true },
      ],
      { env: createCountingEnv() },
    )
    expect(r.status).toBe('done')
    expect(r.values).toMatchObject({ approved: true, revisions: 2 })
    expect(r.checkpoints.flatMap((c) => c.interrupts)).toHaveLength(2)
  })

  it('the map-reduce template runs one task per subject', async () => {
    const t = TEMPLATES.find((x) => x.id === 'map-reduce')
    const parsed = parseGraph(t?.doc)
    if (!parsed.ok) throw new Error('invalid template')
    const r = await runGraph(parsed.spec, { input: t?.input, env: createCountingEnv() })
    expect(r.values.jokes).toHaveLength(3)
    expect(r.checkpoints[1]?.next).toEqual(['joke', 'joke', 'joke'])
  })
})

describe('templates are clean', () => {
  it('no template has warnings either', () => {
    for (const t of TEMPLATES) expect([t.id, parseGraph(t.doc).issues]).toEqual([t.id, []])
  })
})
