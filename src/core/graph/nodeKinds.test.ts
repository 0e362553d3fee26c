import { describe, expect, it } from 'vitest'
import { validateGraph } from './validate'

const messages = { name: 'messages', reducer: 'add_messages', default: [] }
const scripted = { provider: 'scripted', replies: [{ content: 'hi' }] }
const tool = { name: 't', parameters: { type: 'object' }, code: '(args) => 1' }

function doc(over: Record<string, unknown>) {
  return {
    superstep: 1,
    name: 'kinds',
    state: [messages],
    nodes: [{ id: 'agent', kind: 'model', model: scripted }],
    edges: [
      { from: '__start__', to: 'agent' },
      { from: 'agent', to: '__end__' },
    ],
    ...over,
  }
}

const codes = (d: unknown) => validateGraph(d).map((i) => [i.code, i.path.join('.')])

describe('node kinds: validation', () => {
  it('accepts a model node without code', () => expect(codes(doc({}))).toEqual([]))

  it('reports an unknown kind with its path', () => {
    const d = doc({ nodes: [{ id: 'agent', kind: 'robot' }] })
    expect(codes(d)).toEqual([['UNKNOWN_NODE_KIND', 'nodes.0.kind']])
  })

  it('a code node still needs code', () => {
    const d = doc({ nodes: [{ id: 'agent' }] })
    expect(codes(d)).toEqual([['MISSING_NODE_SETTING', 'nodes.0.code']])
  })

  it('a model needs its settings and a messages field; code on it is ignored', () => {
    expect(codes(doc({ nodes: [{ id: 'agent', kind: 'model', code: '(s) => 1' }] }))).toEqual([
      ['CODE_IGNORED', 'nodes.0.code'],
      ['MISSING_NODE_SETTING', 'nodes.0.model'],
    ])
    expect(codes(doc({ state: [{ name: 'x' }] }))).toEqual([
      ['MESSAGES_FIELD_MISSING', 'nodes.0.kind'],
    ])
    const named = { id: 'agent', kind: 'model', model: scripted, messagesField: 'chat' }
    expect(codes(doc({ nodes: [named] }))).toEqual([
      ['MESSAGES_FIELD_MISSING', 'nodes.0.messagesField'],
    ])
    expect(codes(doc({ state: [{ name: 'messages' }] }))).toEqual([
      ['MESSAGES_FIELD_NOT_MESSAGES', 'nodes.0.kind'],
    ])
  })

  it('a model binds the tools of a tools node only', () => {
    const d = doc({
      nodes: [
        { id: 'agent', kind: 'model', model: scripted, bindTools: 'other' },
        { id: 'other', code: '(s) => ({})' },
      ],
      edges: [
        { from: '__start__', to: 'agent' },
        { from: 'agent', to: 'other' },
        { from: 'other', to: '__end__' },
      ],
    })
    expect(codes(d)).toEqual([['BIND_TOOLS_NOT_TOOLS_NODE', 'nodes.0.bindTools']])
  })

  it('tools: unique names, object parameters, code that parses', () => {
    const d = doc({
      nodes: [
        {
          id: 'agent',
          kind: 'tools',
          tools: [tool, { ...tool, parameters: { type: 'string' } }, { name: 'u', code: '(a) =>' }],
        },
      ],
    })
    expect(codes(d)).toEqual([
      ['CODE_SYNTAX', 'nodes.0.tools.2.code'],
      ['DUPLICATE_TOOL', 'nodes.0.tools.1.name'],
      ['TOOL_PARAMETERS_NOT_OBJECT', 'nodes.0.tools.1.parameters'],
    ])
  })

  it('a tools node on a field without add_messages: a warning that the node will fail', () => {
    const concat = { name: 'messages', reducer: 'custom', code: '(a, b) => a.concat(b)' }
    const edges = [
      { from: '__start__', to: 'act' },
      { from: 'act', to: '__end__' },
    ]
    const d = doc({ state: [concat], nodes: [{ id: 'act', kind: 'tools', tools: [tool] }], edges })
    const [issue, ...rest] = validateGraph(d)
    expect(rest).toEqual([])
    expect(issue).toMatchObject({ code: 'MESSAGES_FIELD_NOT_MESSAGES', severity: 'warning' })
    expect(issue?.message).toContain('`act`')
    expect(issue?.message).toContain(
      'fails as LangGraph\'s ToolNode does ("ToolNode only accepts BaseMessage[]',
    )
  })

  it('human: show and writeTo name state fields', () => {
    const d = doc({ nodes: [{ id: 'agent', kind: 'human', show: 'messages', writeTo: 'reply' }] })
    expect(codes(d)).toEqual([['HUMAN_FIELD_MISSING', 'nodes.0.writeTo']])
    expect(codes(doc({ nodes: [{ id: 'agent', kind: 'human' }] }))).toEqual([
      ['MISSING_NODE_SETTING', 'nodes.0.show'],
      ['MISSING_NODE_SETTING', 'nodes.0.writeTo'],
    ])
  })

  it('tools_condition needs `messages`, a "tools" route and an END route', () => {
    const nodes = [
      { id: 'agent', kind: 'model', model: scripted },
      { id: 'act', kind: 'tools', tools: [tool] },
    ]
    const edges = [
      { from: '__start__', to: 'agent' },
      { from: 'act', to: 'agent' },
    ]
    const branch = (b: Record<string, unknown>) =>
      codes(doc({ nodes, edges, branches: [{ from: 'agent', router: 'tools_condition', ...b }] }))
    expect(branch({ paths: { tools: 'act', __end__: '__end__' } })).toEqual([])
    expect(branch({})).toContainEqual(['TOOLS_CONDITION_NO_TOOLS_ROUTE', 'branches.0.router'])
    expect(branch({ paths: ['act', '__end__'] })).toContainEqual([
      'TOOLS_CONDITION_NO_TOOLS_ROUTE',
      'branches.0.paths',
    ])
    expect(branch({ paths: { tools: 'act' } })).toContainEqual([
      'TOOLS_CONDITION_NO_END_ROUTE',
      'branches.0.paths',
    ])
  })

  it('the timeoutMs of an OpenAI model is a positive number of milliseconds', () => {
    const openai = (timeoutMs: unknown) =>
      doc({
        nodes: [
          {
            id: 'agent',
            kind: 'model',
            model: { provider: 'openai', baseUrl: 'http://x/v1', model: 'm', timeoutMs },
          },
        ],
      })
    expect(codes(openai(1500))).toEqual([])
    expect(codes(openai(0.5))).toEqual([])
    for (const bad of [0, -1000]) {
      expect(codes(openai(bad))).toEqual([['INVALID_NODE_SETTING', 'nodes.0.model.timeoutMs']])
    }
    const [issue] = validateGraph(openai(0))
    expect(issue).toMatchObject({ severity: 'error', nodeId: 'agent' })
    expect(issue?.message).toContain('`agent`')
    expect(issue?.message).toContain('positive number of milliseconds')
    // Not a finite number: the format itself refuses it.
    for (const bad of ['60', Infinity, NaN]) {
      expect(codes(openai(bad))).toEqual([['SCHEMA', 'nodes.0.model.timeoutMs']])
    }
  })

  it('rejects a document that holds an API key, wherever it is', () => {
    const withKey = { provider: 'openai', baseUrl: 'http://x/v1', model: 'm', apiKey: 'sk-1' }
    const d = doc({ nodes: [{ id: 'agent', kind: 'model', model: withKey }] })
    expect(codes(d)).toEqual([['SECRET_IN_DOCUMENT', 'nodes.0.model.apiKey']])
    expect(codes({ ...doc({}), settings: { OPENAI_API_KEY: 'sk' } })).toEqual([
      ['SECRET_IN_DOCUMENT', 'settings.OPENAI_API_KEY'],
    ])
  })
})
