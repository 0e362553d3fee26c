import { describe, expect, it } from 'vitest'
import { applyEdit } from '../../core/graph/edits'
import type { FieldSpec, GraphSpec } from '../../core/graph/schema'
import { validateGraph } from '../../core/graph/validate'
import { CHANNEL_CHOICES, channelChoice, choicePatch, freshFieldName } from './fieldEdits'

const docWith = (field: FieldSpec): GraphSpec => ({
  superstep: 1,
  name: 'g',
  state: [field],
  nodes: [],
  edges: [],
})

describe('choicePatch', () => {
  it('reaches every choice from every choice, leaving no key the validator warns about', () => {
    const starts: FieldSpec[] = [
      { name: 'f' },
      { name: 'f', channel: 'topic', accumulate: true },
      { name: 'f', reducer: 'custom', code: '(a, b) => a' },
      { name: 'f', channel: 'ephemeral' },
    ]
    for (const start of starts) {
      for (const choice of CHANNEL_CHOICES) {
        const patch = choicePatch(start, choice)
        if (channelChoice(start) === choice) {
          expect(patch).toBeNull()
          continue
        }
        const result = applyEdit(docWith(start), { type: 'updateField', name: 'f', patch: patch! })
        expect(result.ok).toBe(true)
        const field = result.doc.state[0]!
        expect(channelChoice(field)).toBe(choice)
        expect(validateGraph(result.doc).filter((i) => i.field === 'f')).toEqual([])
        if (choice !== 'custom') expect(field.code).toBeUndefined()
        if (choice !== 'topic') expect(field.accumulate).toBeUndefined()
      }
    }
  })

  it('keeps custom code when switching back to custom', () => {
    const field: FieldSpec = { name: 'f', reducer: 'add', code: '(a, b) => a * b' }
    expect(choicePatch(field, 'custom')).toEqual({ reducer: 'custom', code: '(a, b) => a * b' })
  })
})

describe('freshFieldName', () => {
  it('numbers the base name past the taken ones', () => {
    expect(freshFieldName([])).toBe('field')
    expect(freshFieldName([{ name: 'field' }, { name: 'field2' }])).toBe('field3')
  })
})
