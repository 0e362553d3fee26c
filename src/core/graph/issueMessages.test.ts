import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { validateGraph } from './validate'
import type { GraphIssueCode } from './issues'

/**
 * Problems name the culprit: for every problem code of docs/graph-format.md, one bad
 * document, and the words its message must hold (the bad value or name, and for a closed
 * list what is allowed). Names are distinctive so that a match cannot be a coincidence.
 */
type Doc = Record<string, unknown>

const base = (over: Doc = {}): Doc => ({
  superstep: 1,
  name: 'g',
  state: [{ name: 'x' }, { name: 'log', reducer: 'append', default: [] }],
  nodes: [
    { id: 'alpha', code: "(s) => ({ x: 'a' })" },
    { id: 'beta', code: "(s) => ({ log: ['b'] })" },
  ],
  edges: [
    { from: '__start__', to: 'alpha' },
    { from: 'alpha', to: 'beta' },
  ],
  ...over,
})
const withNode = (node: Doc, over: Doc = {}): Doc => {
  const d = base(over)
  return {
    ...d,
    nodes: [...(d.nodes as Doc[]), node],
    edges: [...(d.edges as Doc[]), { from: 'beta', to: node.id }],
  }
}
const field = (f: Doc): Doc =>
  base({ state: [{ name: 'x' }, { name: 'log', reducer: 'append' }, f] })
const chat = { name: 'messages', reducer: 'add_messages', default: [] }
const agentState = { state: [{ name: 'x' }, { name: 'log', reducer: 'append', default: [] }, chat] }
const scripted = { provider: 'scripted', replies: [{ content: 'hi' }] }
const tool = (name: string, parameters?: Doc) => ({
  name,
  code: '() => 1',
  ...(parameters ? { parameters } : {}),
})
const toolsCondition = (paths?: Doc): Doc => {
  const d = base(agentState)
  return {
    ...d,
    edges: (d.edges as Doc[]).slice(0, 1),
    branches: [{ from: 'alpha', router: 'tools_condition', ...(paths ? { paths } : {}) }],
  }
}

const subgraph = (nodes: Doc[]): Doc => ({
  state: [{ name: 'x' }],
  nodes,
  edges: [{ from: '__start__', to: nodes[0]?.id }],
})

const CASES: [GraphIssueCode, Doc, string[]][] = [
  [
    'UNKNOWN_SUBGRAPH',
    withNode(
      { id: 'crew', kind: 'graph', graph: 'missingTeam' },
      { subgraphs: { realTeam: subgraph([{ id: 'w', code: '() => ({})' }]) } },
    ),
    ['crew', 'missingTeam', 'realTeam'],
  ],
  [
    'SUBGRAPH_CYCLE',
    withNode(
      { id: 'crew', kind: 'graph', graph: 'ouroboros' },
      { subgraphs: { ouroboros: subgraph([{ id: 'tail', kind: 'graph', graph: 'ouroboros' }]) } },
    ),
    ['ouroboros', 'tail'],
  ],
  ['SCHEMA', base({ superstep: 99 }), ['99', '1']],
  ['SCHEMA', field({ name: 'wire', channel: 'wormhole' }), ['wormhole', 'topic', 'ephemeral']],
  [
    'SCHEMA',
    withNode(
      { id: 'llm', kind: 'model', model: { provider: 'anthropic', model: 'm' } },
      agentState,
    ),
    ['anthropic', 'scripted', 'openai'],
  ],
  ['SCHEMA', base({ edges: [{ from: 42, to: 'alpha' }] }), ['42', 'string', 'array']],
  [
    'UNKNOWN_REDUCER',
    field({ name: 'tally', reducer: 'multiply' }),
    ['multiply', 'append', 'add_messages', 'custom'],
  ],
  ['DUPLICATE_FIELD', base({ state: [{ name: 'tally' }, { name: 'tally' }] }), ['tally']],
  ['RESERVED_FIELD_NAME', field({ name: 'branch:to:alpha' }), ['branch:to:alpha']],
  [
    'CONFLICTING_CHANNEL',
    field({ name: 'tally', reducer: 'add', channel: 'topic' }),
    ['tally', 'add', 'topic'],
  ],
  ['MISSING_REDUCER_CODE', field({ name: 'tally', reducer: 'custom' }), ['tally']],
  ['DEFAULT_IGNORED', field({ name: 'tally', default: 7 }), ['tally']],
  ['ACCUMULATE_IGNORED', field({ name: 'tally', accumulate: true }), ['tally']],
  [
    'UNKNOWN_FIELD_TYPE',
    field({ name: 'tally', type: 'strnig' }),
    ['strnig', 'string', 'integer', 'messages', 'any'],
  ],
  [
    'UNKNOWN_FIELD_TYPE',
    field({ name: 'tally', type: { type: 'array', items: 'flaot' } }),
    ['flaot', 'number', 'boolean'],
  ],
  [
    'DEFAULT_TYPE_MISMATCH',
    field({ name: 'tally', reducer: 'add', type: 'integer', default: 'seven' }),
    ['tally', 'seven', 'integer'],
  ],
  ['DUPLICATE_NODE', withNode({ id: 'beta', code: '(s) => ({})' }), ['beta']],
  ['RESERVED_NODE_NAME', withNode({ id: '__start__', code: '(s) => ({})' }), ['__start__']],
  ['INVALID_NODE_NAME', withNode({ id: 'left|right', code: '(s) => ({})' }), ['left|right', '|']],
  ['NODE_NAMED_LIKE_FIELD', withNode({ id: 'log', code: '(s) => ({})' }), ['log']],
  ['CODE_SYNTAX', withNode({ id: 'gamma', code: '(s) => ({' }), ['gamma']],
  [
    'UNKNOWN_EDGE_SOURCE',
    base({
      edges: [
        { from: '__start__', to: 'alpha' },
        { from: 'ghost', to: 'beta' },
      ],
    }),
    ['ghost'],
  ],
  [
    'UNKNOWN_EDGE_TARGET',
    base({
      edges: [
        { from: '__start__', to: 'alpha' },
        { from: 'alpha', to: 'ghost' },
        { from: 'alpha', to: 'beta' },
      ],
    }),
    ['ghost'],
  ],
  [
    'DUPLICATE_EDGE',
    base({
      edges: [
        { from: '__start__', to: 'alpha' },
        { from: 'alpha', to: 'beta' },
        { from: 'alpha', to: 'beta' },
      ],
    }),
    ['alpha', 'beta'],
  ],
  [
    'UNKNOWN_BRANCH_SOURCE',
    base({ branches: [{ from: 'ghost', router: '(s) => "beta"' }] }),
    ['ghost'],
  ],
  [
    'UNKNOWN_BRANCH_TARGET',
    base({ branches: [{ from: 'alpha', router: '(s) => "go"', paths: { go: 'ghost' } }] }),
    ['alpha', 'go', 'ghost'],
  ],
  [
    'UNKNOWN_ENDS_TARGET',
    base({
      nodes: [
        { id: 'alpha', code: '(s) => ({})', ends: ['ghost'] },
        { id: 'beta', code: '(s) => ({})' },
      ],
    }),
    ['alpha', 'ghost'],
  ],
  ['UNKNOWN_INTERRUPT_NODE', base({ interruptBefore: ['ghost'] }), ['ghost']],
  [
    'UNREACHABLE_NODE',
    base({ nodes: [...(base().nodes as Doc[]), { id: 'orphan', code: '(s) => ({})' }] }),
    ['orphan'],
  ],
  [
    'NOT_REACHABLE_FROM_START',
    base({
      nodes: [...(base().nodes as Doc[]), { id: 'island', code: '(s) => ({})' }],
      edges: [...(base().edges as Doc[]), { from: 'island', to: 'island' }],
    }),
    ['island'],
  ],
  [
    'NO_WAY_OUT',
    withNode(
      { id: 'gamma', code: '(s) => ({})' },
      { branches: [{ from: 'beta', router: '(s) => "__end__"', paths: ['__end__', 'gamma'] }] },
    ),
    ['gamma'],
  ],
  [
    'NO_PATH_TO_END',
    base({
      edges: [
        { from: 'alpha', to: 'beta' },
        { from: 'beta', to: 'alpha' },
      ],
    }),
    ['START'],
  ],
  [
    'EMPTY_PATH_MAP',
    base({ branches: [{ from: 'beta', router: '(s) => "x"', paths: {} }] }),
    ['beta'],
  ],
  [
    'CONCURRENT_WRITE_RISK',
    base({
      nodes: [
        { id: 'alpha', code: "(s) => ({ x: 'a' })" },
        { id: 'beta', code: "(s) => ({ x: 'b' })" },
      ],
      edges: [
        { from: '__start__', to: 'alpha' },
        { from: '__start__', to: 'beta' },
      ],
    }),
    ['alpha', 'beta', 'x'],
  ],
  [
    'UNKNOWN_NODE_KIND',
    withNode({ id: 'gamma', kind: 'robot' }),
    ['robot', 'code', 'model', 'tools', 'human'],
  ],
  [
    'MISSING_NODE_SETTING',
    withNode({ id: 'asker', kind: 'human', writeTo: 'x' }),
    ['asker', 'show'],
  ],
  [
    'INVALID_NODE_SETTING',
    withNode(
      {
        id: 'llm',
        kind: 'model',
        model: { provider: 'openai', baseUrl: 'http://localhost:1/v1', model: 'm', timeoutMs: -5 },
      },
      agentState,
    ),
    ['llm', '-5'],
  ],
  [
    'CODE_IGNORED',
    withNode({ id: 'asker', kind: 'human', show: 'x', writeTo: 'x', code: '(s) => ({})' }),
    ['asker'],
  ],
  [
    'MESSAGES_FIELD_MISSING',
    withNode({ id: 'llm', kind: 'model', model: scripted, messagesField: 'chatter' }),
    ['llm', 'chatter'],
  ],
  [
    'MESSAGES_FIELD_NOT_MESSAGES',
    withNode({ id: 'llm', kind: 'model', model: scripted, messagesField: 'log' }),
    ['llm', 'log'],
  ],
  [
    'BIND_TOOLS_NOT_TOOLS_NODE',
    withNode({ id: 'llm', kind: 'model', model: scripted, bindTools: 'beta' }, agentState),
    ['llm', 'beta'],
  ],
  [
    'DUPLICATE_TOOL',
    withNode({ id: 'toolbox', kind: 'tools', tools: [tool('lookup'), tool('lookup')] }, agentState),
    ['toolbox', 'lookup'],
  ],
  [
    'TOOL_PARAMETERS_NOT_OBJECT',
    withNode(
      { id: 'toolbox', kind: 'tools', tools: [tool('lookup', { type: 'string' })] },
      agentState,
    ),
    ['lookup'],
  ],
  [
    'HUMAN_FIELD_MISSING',
    withNode({ id: 'asker', kind: 'human', show: 'nowhere', writeTo: 'x' }),
    ['asker', 'nowhere'],
  ],
  [
    'TOOLS_CONDITION_NO_MESSAGES',
    {
      ...toolsCondition({ tools: 'beta', __end__: '__end__' }),
      state: [{ name: 'x' }, { name: 'log', reducer: 'append' }],
    },
    ['alpha', 'messages'],
  ],
  [
    'TOOLS_CONDITION_NO_TOOLS_ROUTE',
    toolsCondition({ done: 'beta', __end__: '__end__' }),
    ['alpha', 'tools'],
  ],
  ['TOOLS_CONDITION_NO_END_ROUTE', toolsCondition({ tools: 'beta' }), ['alpha', '__end__']],
  ['SECRET_IN_DOCUMENT', base({ api_key: 'not-a-real-key' }), ['api_key']],
]

/** The codes the problems table of docs/graph-format.md lists. */
function documentedCodes(): Set<string> {
  const doc = readFileSync(new URL('../../../docs/graph-format.md', import.meta.url), 'utf8')
  const table = doc.slice(doc.indexOf('## Problems'))
  const rows = table.split('\n').filter((l) => l.startsWith('| `'))
  return new Set(
    rows.flatMap((r) =>
      [...(r.split('|')[1] ?? '').matchAll(/`([A-Z_]+)`/g)].map((m) => m[1] as string),
    ),
  )
}

describe('every problem names its culprit', () => {
  it('has a bad document for every code the format documents', () => {
    const covered = new Set(CASES.map(([code]) => code))
    expect(documentedCodes().size).toBeGreaterThanOrEqual(40)
    expect([...documentedCodes()].filter((c) => !covered.has(c as GraphIssueCode))).toEqual([])
  })

  for (const [code, doc, culprits] of CASES) {
    it(`${code}: ${culprits.join(', ')}`, () => {
      const found = validateGraph(doc).filter((i) => i.code === code)
      expect(found.length, `issues with code ${code}`).toBeGreaterThan(0)
      for (const i of found) for (const c of culprits) expect(i.message).toContain(c)
    })
  }

  it('shows an odd value escaped and cut short, never raw', () => {
    const [i] = validateGraph(
      field({ name: 'tally', reducer: `m\u202eul\ntiply${'x'.repeat(60)}` }),
    )
    expect(i?.message).toMatch(/^Unknown reducer `"m\\u202eul\\ntiplyx*…`; expected one of /)
  })
})
