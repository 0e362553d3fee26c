import { describe, expect, it } from 'vitest'
import type { CheckpointReport } from './report'
import { CheckpointsText } from './reportText'

const entry = (step: number): CheckpointReport => ({
  step,
  source: step < 0 ? 'input' : 'loop',
  next: step % 3 === 0 ? [] : ['inc', 'other'],
  values: step % 5 === 0 ? {} : { n: step, list: [{ deep: [step] }], text: 'a\nb' },
  versions: step < 0 ? {} : { n: step + 2 },
})

/** The `checkpoints` array as it stands in `JSON.stringify(report, null, 2)`. */
const whole = (entries: CheckpointReport[]) =>
  JSON.stringify({ checkpoints: entries }, null, 2).slice('{\n  "checkpoints": '.length, -2)

describe('CheckpointsText', () => {
  for (const count of [0, 1, 2, 3, 50, 300]) {
    for (const chunk of [1, 200, 4096, 1 << 16]) {
      it(`writes ${count} entries in pieces of ${chunk} as JSON.stringify does`, () => {
        const entries = Array.from({ length: count }, (_, i) => entry(i - 1))
        const text = new CheckpointsText(chunk)
        for (const e of entries) text.add(e)
        expect(text.end().join('')).toBe(whole(entries))
      })
    }
  }

  it('makes pieces of about the size asked for', () => {
    const text = new CheckpointsText(4096)
    for (let i = 0; i < 2000; i++) text.add(entry(i))
    const pieces = text.end()
    expect(pieces.length).toBeGreaterThan(20)
    // All but the last: at least the size asked for, and not a batch of MAX_BATCH more.
    for (const p of pieces.slice(0, -1)) {
      expect(p.length).toBeGreaterThanOrEqual(4096)
      expect(p.length).toBeLessThan(3 * 4096)
    }
  })
})
