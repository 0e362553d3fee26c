import { describe, expect, it } from 'vitest'
import { applyEdit } from '../core/graph/edits'
import type { GraphSpec } from '../core/graph/schema'
import { parseGraph } from '../core/graph/validate'
import { editDocument, parseDocument } from './documents'

const chain = (n: number): GraphSpec => ({
  superstep: 1,
  name: 'chain',
  state: [{ name: 'n', reducer: 'add', default: 0 }],
  nodes: Array.from({ length: n }, (_, i) => ({ id: `n${i}`, code: '(s) => ({ n: 1 })' })),
  edges: Array.from({ length: n }, (_, i) => ({
    from: i === 0 ? '__start__' : `n${i - 1}`,
    to: `n${i}`,
  })),
})

const specOf = (doc: unknown) => {
  const p = parseDocument(doc)
  return p.ok ? p.spec : (p.wellFormed ?? null)
}

describe('parseDocument', () => {
  it('parses a document once, as parseGraph does', () => {
    const doc = chain(5)
    expect(parseDocument(doc)).toBe(parseDocument(doc))
    expect(parseDocument(doc)).toEqual(parseGraph(doc))
  })

  it('keeps the objects of the items an edit left alone, and parses as parseGraph does', () => {
    const doc = chain(5)
    const before = specOf(doc) as GraphSpec
    const edited = editDocument(doc, { type: 'renameNode', from: 'n2', to: 'mid' }).doc
    const after = specOf(edited) as GraphSpec
    expect(parseDocument(edited)).toEqual(parseGraph(edited))
    expect(after.nodes[2]?.id).toBe('mid')
    expect(after.nodes[2]).not.toBe(before.nodes[2])
    for (const i of [0, 1, 3, 4]) expect(after.nodes[i]).toBe(before.nodes[i])
    // The edges into and out of the renamed node changed; the others are the same objects.
    expect(after.edges[0]).toBe(before.edges[0])
    expect(after.edges[2]).not.toBe(before.edges[2])
    expect(after.state[0]).toBe(before.state[0])
  })

  it('keeps them across a document read again from the same items (an undo)', () => {
    const doc = chain(3)
    const before = specOf(doc) as GraphSpec
    const next = applyEdit(before, { type: 'addField', field: { name: 'x' } })
    const undone = { ...(next.doc as GraphSpec), state: before.state }
    expect(specOf(undone)?.state[0]).toBe(before.state[0])
    expect(specOf(undone)?.nodes).toBe(before.nodes)
  })
})
