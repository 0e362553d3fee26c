import { describe, expect, it } from 'vitest'
import type { GraphSpec } from '../core/graph/schema'
import { parseGraph } from '../core/graph/validate'
import { emitTypeScript } from './typescript'
import { emitPython } from './python'

function spec(state: unknown[]): GraphSpec {
  const parsed = parseGraph({
    superstep: 1,
    name: 'typed',
    state,
    nodes: [{ id: 'a', code: '(s) => ({})' }],
    edges: [
      { from: '__start__', to: 'a' },
      { from: 'a', to: '__end__' },
    ],
  })
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues))
  return parsed.spec
}

const stateOf = (source: string, start: string) => {
  const from = source.indexOf(start)
  return source.slice(from, source.indexOf('\n\n', from))
}

describe('typed fields in the exports', () => {
  const typed = spec([
    { name: 'title', type: 'string' },
    { name: 'count', reducer: 'add', default: 0, type: 'integer' },
    { name: 'score', reducer: 'add', type: 'number' },
    { name: 'tags', reducer: 'append', default: [], type: { type: 'array', items: 'string' } },
    { name: 'messages', reducer: 'add_messages', default: [], type: 'messages' },
    { name: 'meta', reducer: 'merge', default: { a: 1 }, type: 'object' },
    { name: 'flag', channel: 'ephemeral', type: 'boolean' },
    { name: 'events', channel: 'topic', type: { type: 'array', items: 'number' } },
    { name: 'odd', reducer: 'add', default: 'x', type: 'number' },
    { name: 'free' },
  ])

  it('writes TypeScript Annotations with their types', () => {
    const source = emitTypeScript(typed)
    expect(source).toContain(
      "import { Annotation, END, MemorySaver, type Messages, START, StateGraph, messagesStateReducer } from '@langchain/langgraph'",
    )
    expect(source).toContain("import type { BaseMessage } from '@langchain/core/messages'")
    expect(stateOf(source, 'const State')).toBe(`const State = Annotation.Root({
  title: Annotation<string>(),
  count: Annotation<number>({ reducer: add, default: () => 0 }),
  score: Annotation<number>({ reducer: add }),
  tags: Annotation<string[], string | string[]>({ reducer: append, default: () => [] }),
  messages: Annotation<BaseMessage[], Messages>({
    reducer: messagesStateReducer,
    default: () => [],
  }),
  meta: Annotation<Record<string, unknown>>({
    reducer: merge,
    default: () => ({ a: 1 }),
  }),
  flag: new EphemeralValue<boolean>(),
  events: new Topic<number>({ accumulate: false }),
  // Declared number, left untyped: its default is not of that type.
  odd: Annotation({ reducer: add, default: () => 'x' }),
  free: Annotation(),
})`)
  })

  it('writes Python annotations that keep how each field starts', () => {
    const source = emitPython(typed)
    expect(stateOf(source, 'class State')).toBe(`class State(TypedDict, total=False):
    title: str
    count: Annotated[int, _add]  # reducer add, default 0
    score: Annotated[_Typed(float), _add]  # reducer add, no default (the first write is kept as is)
    tags: Annotated[list[str], _append]  # reducer append, default []
    messages: Annotated[list[AnyMessage], add_messages]  # reducer add_messages, default []
    meta: Annotated[_Typed(dict[str, Any], {"a": 1}), _merge]  # reducer merge
    flag: Annotated[bool, EphemeralValue(bool)]  # ephemeral
    events: Annotated[list[float], Topic(float)]  # topic, cleared every step
    odd: Annotated[_Typed(float, "x"), _add]  # reducer add
    free: Any`)
    expect(source).toContain('from langchain_core.messages import AnyMessage')
    expect(source).toContain('class _Typed:')
  })

  it('leaves a document without types as it was', () => {
    const untyped = spec([
      { name: 'title' },
      { name: 'count', reducer: 'add', default: 0 },
      { name: 'messages', reducer: 'add_messages', default: [] },
    ])
    const source = emitTypeScript(untyped)
    expect(source).toContain('  title: Annotation(),\n')
    expect(source).not.toContain('BaseMessage')
    expect(emitPython(untyped)).not.toContain('_Typed')
  })

  it('lets the Python translator take what a typed field settles', () => {
    const graph = (typed: boolean) => emitPython(withNodes(typed))
    const untyped = graph(false)
    expect(untyped).toContain('_js_number(state["count"], "node a") + 1')
    expect(untyped).toContain('to translate by hand: the method `.concat()`')
    const typed = graph(true)
    expect(typed).toContain('"title": state["title"] + "!" + str(state["count"])')
    expect(typed).toContain('"count": state["count"] + 1')
    expect(typed).toContain(
      '"items": (state.get("items") if state.get("items") is not None else []) + ["x"]',
    )
    expect(typed).not.toContain('by hand')
  })
})

function withNodes(typed: boolean): GraphSpec {
  const parsed = parseGraph({
    superstep: 1,
    name: 'typed code',
    state: [
      { name: 'title', reducer: 'add', default: '', ...(typed ? { type: 'string' } : {}) },
      { name: 'count', reducer: 'add', default: 0, ...(typed ? { type: 'integer' } : {}) },
      { name: 'items', ...(typed ? { type: { type: 'array', items: 'string' } } : {}) },
    ],
    nodes: [
      { id: 'a', code: '(s) => ({ title: `${s.title}!` + s.count, count: s.count + 1 })' },
      { id: 'b', code: "(s) => ({ items: (s.items ?? []).concat(['x']) })" },
    ],
    edges: [
      { from: '__start__', to: 'a' },
      { from: 'a', to: 'b' },
      { from: 'b', to: '__end__' },
    ],
  })
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues))
  return parsed.spec
}
