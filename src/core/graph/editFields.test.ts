import { describe, expect, it } from 'vitest'
import { START } from './constants'
import type { GraphSpec } from './schema'
import { edit, refused } from './editTestKit'

const doc: GraphSpec = Object.freeze({
  superstep: 1,
  name: 'g',
  state: Object.freeze([
    { name: 'x' },
    { name: 'log', reducer: 'append', default: [] },
    { name: 'events', channel: 'topic', accumulate: true },
  ]) as GraphSpec['state'],
  nodes: [{ id: 'a', code: '(s) => ({})' }],
  edges: [{ from: START, to: 'a' }],
})

describe('state fields', () => {
  it('addField appends; a custom reducer without code gets (a, b) => b', () => {
    const d = edit(doc, { type: 'addField', field: { name: 'best', reducer: 'custom' } })
    expect(d.state.at(-1)).toEqual({ name: 'best', reducer: 'custom', code: '(a, b) => b' })
  })

  it('addField refuses existing, reserved and node names, and reducer plus channel', () => {
    expect(refused(doc, { type: 'addField', field: { name: 'x' } })).toContain('already exists')
    expect(refused(doc, { type: 'addField', field: { name: 'join:q' } })).toContain('reserved')
    expect(refused(doc, { type: 'addField', field: { name: START } })).toContain('reserved')
    expect(refused(doc, { type: 'addField', field: { name: 'a' } })).toContain('node')
    expect(
      refused(doc, { type: 'addField', field: { name: 'y', reducer: 'add', channel: 'topic' } }),
    ).toContain('both')
  })

  it('updateField renames in place and refuses a name that exists', () => {
    const d = edit(doc, { type: 'updateField', name: 'log', patch: { name: 'history' } })
    expect(d.state.map((f) => f.name)).toEqual(['x', 'history', 'events'])
    expect(d.state[0]).toBe(doc.state[0])
    expect(refused(doc, { type: 'updateField', name: 'log', patch: { name: 'x' } })).toContain(
      'already exists',
    )
    expect(refused(doc, { type: 'updateField', name: 'q', patch: {} })).toContain('`q`')
  })

  it('a reducer replaces the channel and a channel replaces the reducer', () => {
    const r = edit(doc, { type: 'updateField', name: 'events', patch: { reducer: 'union' } })
    expect(r.state[2]).toEqual({ name: 'events', reducer: 'union', accumulate: true })
    const c = edit(doc, { type: 'updateField', name: 'log', patch: { channel: 'ephemeral' } })
    expect(c.state[1]).toEqual({ name: 'log', channel: 'ephemeral', default: [] })
  })

  it('a key patched to undefined is removed: { reducer: undefined } makes a LastValue', () => {
    const d = edit(doc, { type: 'updateField', name: 'log', patch: { reducer: undefined } })
    expect(d.state[1]).toEqual({ name: 'log', default: [] })
  })

  it('switching to custom adds default code; a patch that changes nothing is a no-op', () => {
    const d = edit(doc, { type: 'updateField', name: 'x', patch: { reducer: 'custom' } })
    expect(d.state[0]).toEqual({ name: 'x', reducer: 'custom', code: '(a, b) => b' })
    expect(edit(doc, { type: 'updateField', name: 'log', patch: { reducer: 'append' } })).toBe(doc)
    expect(edit(doc, { type: 'updateField', name: 'x', patch: { channel: undefined } })).toBe(doc)
  })

  it('deleteField removes a field and refuses one that is not there', () => {
    expect(edit(doc, { type: 'deleteField', name: 'x' }).state.map((f) => f.name)).toEqual([
      'log',
      'events',
    ])
    expect(refused(doc, { type: 'deleteField', name: 'x2' })).toBe('There is no state field `x2`.')
  })
})
