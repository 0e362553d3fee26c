import { BinaryOperatorAggregate, EphemeralValue, LastValue, Topic } from '../../core/channels'
import type { Channel } from '../../core/channels'
import { EMPTY } from '../../core/channels'
import type { FieldSpec } from '../../core/graph/schema'
import { createAddMessages, NAMED_REDUCERS } from '../../core/reducers'
import { channelChoice, type ChannelChoice } from './fieldEdits'

/** What a field's channel does with two writes in one super-step, as one line of text. */
export interface ReducerPreview {
  /**
   * `value`: the real result; `refused`: the channel allows one write per step, as designed
   * (LastValue, EphemeralValue), so two fail the step; `error`: the channel failed otherwise;
   * `code`: custom code, not run.
   */
  kind: 'value' | 'refused' | 'error' | 'code'
  text: string
  /** The error code LangGraph reports, when there is one. */
  code?: string
  /** What the preview means, for its tooltip. */
  note?: string
}

/**
 * The one-line preview shown beside a field's reducer, computed by really running the
 * channel the runtime would build for it on two concurrent writes (sample values). Custom
 * reducer code is never run here (it is untrusted and this is the main thread): its
 * preview is its own text.
 */
export function reducerPreview(field: FieldSpec): ReducerPreview {
  const choice = channelChoice(field)
  try {
    return previewOf(choice, field)
  } catch (e) {
    return failure(e, '1, 2')
  }
}

function previewOf(choice: ChannelChoice, field: FieldSpec): ReducerPreview {
  switch (choice) {
    case 'overwrite':
      return twoWrites(new LastValue(), 1, 2, `1, 2`)
    case 'ephemeral':
      return twoWrites(new EphemeralValue(true), 1, 2, `1, 2`)
    case 'append':
      return twoWrites(aggregate(NAMED_REDUCERS.append), [1], [2], '[1] + [2]')
    case 'add':
      return typeof field.default === 'string'
        ? twoWrites(aggregate(NAMED_REDUCERS.add), 'a', 'b', "'a' + 'b'")
        : twoWrites(aggregate(NAMED_REDUCERS.add), 1, 2, '1 + 2')
    case 'union':
      return twoWrites(aggregate(NAMED_REDUCERS.union), [1, 2], [2, 3], '[1, 2] ∪ [2, 3]')
    case 'merge':
      return twoWrites(aggregate(NAMED_REDUCERS.merge), { a: 1 }, { b: 2 }, '{a:1} ⊕ {b:2}')
    case 'add_messages':
      return addMessagesPreview()
    case 'topic':
      return topicPreview(field.accumulate ?? false)
    case 'custom':
      return { kind: 'code', text: oneLine(field.code ?? '') || '(a, b) => …' }
  }
}

function aggregate(reducer: (a: unknown, b: unknown) => unknown): Channel {
  // No default: the first write is stored as is and the second folds into it, which is
  // what two concurrent writes to a fresh field do.
  return new BinaryOperatorAggregate(reducer)
}

function twoWrites(channel: Channel, a: unknown, b: unknown, writes: string): ReducerPreview {
  try {
    channel.update([a, b])
  } catch (e) {
    return failure(e, writes)
  }
  return { kind: 'value', text: `${writes} → ${formatValue(channel.get())}` }
}

function addMessagesPreview(): ReducerPreview {
  let n = 0
  const channel = aggregate(createAddMessages(() => `m${++n}`))
  channel.update([[{ type: 'human', content: 'hi' }], [{ type: 'ai', content: 'hello' }]])
  const out = channel.get()
  const count = Array.isArray(out) ? out.length : 0
  return {
    kind: 'value',
    text: `[human hi] + [ai hello] → ${count} message${count === 1 ? '' : 's'}`,
  }
}

function topicPreview(accumulate: boolean): ReducerPreview {
  const topic = new Topic(accumulate)
  topic.update([1, 2])
  const first = formatValue(topic.get())
  topic.update([3])
  return { kind: 'value', text: `1, 2 → ${first}, then 3 → ${formatValue(topic.get())}` }
}

function failure(e: unknown, writes: string): ReducerPreview {
  const err = e as { name?: string; message?: string; lc_error_code?: string }
  const concurrent =
    err.name === 'InvalidUpdateError' && /one value per step/.test(err.message ?? '')
  // One write per step is what the channel is for, not a fault of the graph: said plainly.
  const preview: ReducerPreview = concurrent
    ? { kind: 'refused', text: `${writes} → InvalidUpdateError` }
    : { kind: 'error', text: `${writes} → error: ${firstLine(err.message)}` }
  if (err.lc_error_code) preview.code = err.lc_error_code
  if (concurrent) {
    const code = err.lc_error_code ? ` (${err.lc_error_code})` : ''
    preview.note = `One write per super-step: two writes in one step fail it${code}. A reducer lets a field take several.`
  }
  return preview
}

/** A short rendering of a sample value: `[1, 2]`, `{a:1, b:2}`, `'x'`, `3`. */
export function formatValue(v: unknown): string {
  if (v === EMPTY) return '(empty)'
  if (Array.isArray(v)) return `[${v.map(formatValue).join(', ')}]`
  if (typeof v === 'string') return `'${v}'`
  if (typeof v === 'object' && v !== null) {
    const entries = Object.entries(v).map(([k, x]) => `${k}:${formatValue(x)}`)
    return `{${entries.join(', ')}}`
  }
  return String(v)
}

const MAX_CODE = 48

function oneLine(code: string): string {
  const flat = code.replace(/\s+/g, ' ').trim()
  return flat.length > MAX_CODE ? `${flat.slice(0, MAX_CODE - 1)}…` : flat
}

function firstLine(message: string | undefined): string {
  return (message ?? 'failed').split('\n')[0] ?? 'failed'
}
