import { DEFAULT_REDUCER_CODE } from '../../core/graph/editFields'
import type { FieldSpec } from '../../core/graph/schema'

/** What the reducer select of a field offers: the named reducers, then the special channels. */
export const CHANNEL_CHOICES = [
  'overwrite',
  'append',
  'add',
  'add_messages',
  'union',
  'merge',
  'custom',
  'topic',
  'ephemeral',
] as const

export type ChannelChoice = (typeof CHANNEL_CHOICES)[number]

/** The select's value for a field: its channel, else its reducer, else `overwrite`. */
export function channelChoice(field: FieldSpec): ChannelChoice {
  return field.channel ?? field.reducer ?? 'overwrite'
}

/**
 * The `updateField` patch that switches a field to `choice`, clearing what belongs only to
 * the old choice (a channel when picking a reducer, `accumulate` off topics, `code` off
 * custom reducers) so the document never carries keys the validator warns about.
 * Returns null when the field already has that choice.
 */
export function choicePatch(field: FieldSpec, choice: ChannelChoice): Partial<FieldSpec> | null {
  if (channelChoice(field) === choice) return null
  const patch: Partial<FieldSpec> = {}
  const clear = (key: 'reducer' | 'channel' | 'accumulate' | 'code') => {
    if (field[key] !== undefined) patch[key] = undefined
  }
  if (choice === 'topic' || choice === 'ephemeral') {
    patch.channel = choice
    clear('reducer')
    clear('code')
    if (choice === 'ephemeral') clear('accumulate')
    return patch
  }
  patch.reducer = choice
  clear('channel')
  clear('accumulate')
  if (choice === 'custom') patch.code = field.code ?? DEFAULT_REDUCER_CODE
  else clear('code')
  return patch
}

/** A field name not used yet: `field`, `field2`, `field3`, … */
export function freshFieldName(fields: readonly FieldSpec[], base = 'field'): string {
  const taken = new Set(fields.map((f) => f.name))
  if (!taken.has(base)) return base
  let n = 2
  while (taken.has(`${base}${n}`)) n++
  return `${base}${n}`
}
