import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import type { GraphSpec } from '../../core/graph/schema'
import { completionsAt, languageService } from './completionKit'
import { codeContextType, jsonType, stateType, typingsFor, type CodeKind } from './typings'

const state: GraphSpec['state'] = [
  { name: 'count', reducer: 'add', default: 0 },
  { name: 'log', reducer: 'append', default: [] },
  { name: 'title', default: 'draft', description: 'Shown */ on top' },
  { name: 'meta', reducer: 'merge', default: { a: 1, tags: ['x'] } },
  { name: 'messages', reducer: 'add_messages' },
  { name: 'answer' },
  { name: 'events', channel: 'topic' },
  { name: 'my key', reducer: 'union' },
]

describe('stateType', () => {
  it('infers from the default: number, string, array, object', () => {
    expect(stateType({ name: 'x', default: 3 })).toBe('number')
    expect(stateType({ name: 'x', default: 'a' })).toBe('string')
    expect(stateType({ name: 'x', default: true })).toBe('boolean')
    expect(stateType({ name: 'x', reducer: 'append', default: [] })).toBe('unknown[]')
    expect(stateType({ name: 'x', default: [1, 2] })).toBe('number[]')
    expect(stateType({ name: 'x', default: [1, 'a'] })).toBe('unknown[]')
    expect(stateType({ name: 'x', default: { a: 1, 'b c': [true] } })).toBe(
      '{ a: number; "b c": boolean[]; [key: string]: unknown }',
    )
    expect(stateType({ name: 'x', default: {} })).toBe('Record<string, unknown>')
  })

  it('types messages, falls back on the reducer, and is unknown otherwise', () => {
    expect(stateType({ name: 'x', reducer: 'add_messages', default: [] })).toBe('Message[]')
    expect(stateType({ name: 'x', reducer: 'append' })).toBe('unknown[]')
    expect(stateType({ name: 'x', reducer: 'add' })).toBe('number')
    expect(stateType({ name: 'x', reducer: 'merge' })).toBe('Record<string, unknown>')
    expect(stateType({ name: 'x', channel: 'topic', default: 1 })).toBe('unknown[]')
    expect(stateType({ name: 'x' })).toBe('unknown')
    expect(stateType({ name: 'x', default: null })).toBe('unknown')
    expect(stateType({ name: 'x', reducer: 'custom', code: '(a, b) => b' })).toBe('unknown')
  })

  it('stops nesting at a depth limit', () => {
    expect(jsonType({ a: { b: { c: { d: 1 } } } }, 0)).toBe(
      '{ a: { b: { c: Record<string, unknown>; [key: string]: unknown }; [key: string]: unknown }; [key: string]: unknown }',
    )
  })
})

describe('typingsFor', () => {
  const dts = typingsFor({ state })

  it('declares the LangGraph globals and the state, optional unless always set', () => {
    for (const decl of [
      "declare const START: '__start__'",
      "declare const END: '__end__'",
      'declare class Send',
      'declare class Command',
      'declare function interrupt',
    ]) {
      expect(dts).toContain(decl)
    }
    const stateBlock = /interface State \{\n([\s\S]*?)\n\}/.exec(dts)?.[1] ?? ''
    expect(stateBlock.split('\n').filter((l) => !l.includes('/**'))).toEqual([
      '  count: number',
      '  log: unknown[]',
      '  title?: string',
      '  meta: { a: number; tags: string[]; [key: string]: unknown }',
      '  messages?: Message[]',
      '  answer?: unknown',
      '  events?: unknown[]',
      '  "my key"?: unknown[]',
    ])
    expect(dts).toContain('/** Shown *\\/ on top */')
    expect(dts).toContain('  messages?: MessageLike | MessageLike[]')
  })

  it('names the context type of each kind of code', () => {
    expect(codeContextType({ kind: 'node' })).toBe('NodeFn')
    expect(codeContextType({ kind: 'router' })).toBe('RouterFn')
    expect(codeContextType({ kind: 'reducer', field: 'my key' })).toBe('ReducerFn<"my key">')
  })

  it('is a valid .d.ts, and types wrapped code so `state.` completes the fields', () => {
    const service = languageService({ '/graph.d.ts': dts })
    const diagnostics = [
      ...service.getSyntacticDiagnostics('/graph.d.ts'),
      ...service.getSemanticDiagnostics('/graph.d.ts'),
    ]
    expect(diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))).toEqual([])
    const names = completions(dts, { kind: 'node' }, '(state) => state.')
    expect(names).toEqual(
      expect.arrayContaining(['count', 'log', 'title', 'meta', 'messages', 'answer', 'events']),
    )
    expect(names).not.toContain('NodeFn')
    expect(completions(dts, { kind: 'router' }, 'function (s) { return s.messages[0].')).toEqual(
      expect.arrayContaining(['type', 'content', 'tool_calls']),
    )
    expect(completions(dts, { kind: 'node' }, '(s) => ({ co')).toEqual(
      expect.arrayContaining(['count', 'log']),
    )
    expect(completions(dts, { kind: 'reducer', field: 'meta' }, '(cur, b) => cur.')).toEqual(
      expect.arrayContaining(['a', 'tags']),
    )
    expect(completions(dts, { kind: 'node' }, '(s) => new Command({ go')).toContain('goto')
  })
})

/** Completion names at the end of `code`, wrapped as the editor's shadow model does. */
function completions(dts: string, kind: CodeKind, code: string): string[] {
  return completionsAt(codeContextType(kind), code, code.length, { '/graph.d.ts': dts })
}
