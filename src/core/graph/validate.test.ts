import { describe, expect, it } from 'vitest'
import { parseGraph, validateGraph } from './validate'
import { readCode } from './codeFacts'
import { parseExpression } from '../../lib/parseJs'
import { formatIssue } from './issues'
import type { GraphIssue, GraphIssueCode } from './issues'

/** A valid graph: `x`, `log` (append), START → a → b. `over` replaces top-level keys. */
function doc(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    superstep: 1,
    name: 'g',
    state: [{ name: 'x' }, { name: 'log', reducer: 'append', default: [] }],
    nodes: [
      { id: 'a', code: "(s) => ({ x: 'a' })" },
      { id: 'b', code: "(s) => ({ log: ['b'] })" },
    ],
    edges: [
      { from: '__start__', to: 'a' },
      { from: 'a', to: 'b' },
    ],
    ...over,
  }
}

/** The only issue with `code`; fails when there is none or more than one. */
function issue(d: unknown, code: GraphIssueCode): GraphIssue {
  const found = validateGraph(d).filter((i) => i.code === code)
  expect(found, `issues with code ${code}`).toHaveLength(1)
  return found[0] as GraphIssue
}

describe('parseGraph on a valid graph', () => {
  it('accepts it with no issue at all and hands back the spec', () => {
    const result = parseGraph(doc())
    expect(result).toEqual({ ok: true, spec: doc(), issues: [] })
  })

  it('accepts branches, joins, ends, defer and interrupts when everything exists', () => {
    const result = parseGraph(
      doc({
        nodes: [
          { id: 'a', code: '(s) => ({})', ends: ['c'] },
          { id: 'b', code: '(s) => ({})' },
          { id: 'c', code: '(s) => ({})', defer: true },
        ],
        edges: [
          { from: '__start__', to: 'a' },
          { from: ['a', 'b'], to: 'c' },
          { from: 'c', to: '__end__' },
        ],
        branches: [{ from: 'a', router: "(s) => 'yes'", paths: { yes: 'b', no: '__end__' } }],
        interruptBefore: ['b'],
        interruptAfter: ['*'],
      }),
    )
    expect(result.issues).toEqual([])
    expect(result.ok).toBe(true)
  })
})

describe('parseGraph on garbage', () => {
  for (const garbage of [null, 42, 'x', [], { superstep: 2 }, undefined, true]) {
    it(`returns SCHEMA errors for ${JSON.stringify(garbage)} without throwing`, () => {
      const result = parseGraph(garbage)
      expect(result.ok).toBe(false)
      expect(result.issues.length).toBeGreaterThan(0)
      expect(result.issues.every((i) => i.code === 'SCHEMA' && i.severity === 'error')).toBe(true)
    })
  }

  it('says which top-level keys are missing or wrong in {superstep: 2}', () => {
    const paths = parseGraph({ superstep: 2 }).issues.map((i) => i.path)
    expect(paths).toEqual([['superstep'], ['name'], ['state'], ['nodes'], ['edges']])
  })
})

describe('schema errors', () => {
  it('a missing superstep is a SCHEMA error at ["superstep"]', () => {
    const d = doc()
    delete d.superstep
    const i = issue(d, 'SCHEMA')
    expect(i).toMatchObject({ severity: 'error', path: ['superstep'] })
    expect(formatIssue(i)).toContain('superstep')
  })

  it('wrong types are SCHEMA errors at the exact path', () => {
    const d = doc({ nodes: [{ id: 'a', code: 5 }] })
    const i = issue(d, 'SCHEMA')
    expect(i).toMatchObject({ severity: 'error', path: ['nodes', 0, 'code'] })
    expect(i.message).toMatch(/string/)
    expect(issue(doc({ edges: 'a->b' }), 'SCHEMA').path).toEqual(['edges'])
  })

  it('an unknown reducer is UNKNOWN_REDUCER at the field, and lists the valid reducers', () => {
    const d = doc({ state: [{ name: 'x', reducer: 'sum' }] })
    const i = issue(d, 'UNKNOWN_REDUCER')
    expect(i).toMatchObject({ severity: 'error', path: ['state', 0, 'reducer'] })
    expect(i.message).toContain('append')
    expect(validateGraph(d).filter((x) => x.code === 'SCHEMA')).toEqual([])
  })
})

describe('state fields', () => {
  it('DUPLICATE_FIELD points at the second definition', () => {
    const i = issue(doc({ state: [{ name: 'x' }, { name: 'x' }] }), 'DUPLICATE_FIELD')
    expect(i).toMatchObject({ severity: 'error', path: ['state', 1, 'name'], field: 'x' })
    expect(i.message).toContain('`x`')
  })

  for (const name of ['__start__', '__end__', '__pregel_tasks', 'branch:to:a', 'join:a+b:c']) {
    it(`RESERVED_FIELD_NAME for ${name}`, () => {
      const i = issue(doc({ state: [{ name: 'x' }, { name }] }), 'RESERVED_FIELD_NAME')
      expect(i).toMatchObject({ severity: 'error', path: ['state', 1, 'name'], field: name })
      expect(i.message).toContain(name)
    })
  }

  it('CONFLICTING_CHANNEL when a field has both a reducer and a channel', () => {
    const i = issue(
      doc({ state: [{ name: 'x', reducer: 'append', channel: 'topic' }] }),
      'CONFLICTING_CHANNEL',
    )
    expect(i).toMatchObject({ severity: 'error', path: ['state', 0, 'channel'], field: 'x' })
    expect(i.message).toContain('`x`')
    expect(i.message).toContain('append')
    expect(i.message).toContain('topic')
  })

  it('MISSING_REDUCER_CODE for a custom reducer without code', () => {
    const i = issue(doc({ state: [{ name: 'x', reducer: 'custom' }] }), 'MISSING_REDUCER_CODE')
    expect(i).toMatchObject({ severity: 'error', path: ['state', 0, 'code'], field: 'x' })
    expect(i.message).toContain('`x`')
  })

  it('CODE_SYNTAX in custom reducer code points at the reducer code', () => {
    const i = issue(
      doc({ state: [{ name: 'x', reducer: 'custom', code: '(a, b) => a +' }] }),
      'CODE_SYNTAX',
    )
    expect(i).toMatchObject({ severity: 'error', path: ['state', 0, 'code'], field: 'x' })
    expect(i.message).toContain('Reducer of `x`')
  })

  it('DEFAULT_IGNORED is a warning for LastValue and channel fields, not for reducer fields', () => {
    const d = doc({
      state: [
        { name: 'x', default: 1 },
        { name: 'o', reducer: 'overwrite', default: 1 },
        { name: 't', channel: 'topic', default: [] },
        { name: 'log', reducer: 'append', default: [] },
      ],
    })
    const found = validateGraph(d).filter((i) => i.code === 'DEFAULT_IGNORED')
    expect(found.map((i) => [i.severity, i.path, i.field])).toEqual([
      ['warning', ['state', 0, 'default'], 'x'],
      ['warning', ['state', 1, 'default'], 'o'],
      ['warning', ['state', 2, 'default'], 't'],
    ])
    expect(found[0]?.message).toContain('`x`')
    const result = parseGraph(d)
    expect(result.ok).toBe(true)
  })
})

describe('node names', () => {
  const withNodes = (...ids: string[]) =>
    doc({
      nodes: ids.map((id) => ({ id, code: '(s) => ({})' })),
      edges: ids.map((id) => ({ from: '__start__', to: id })),
    })

  it('DUPLICATE_NODE points at the second node with that id', () => {
    const i = issue(withNodes('a', 'a'), 'DUPLICATE_NODE')
    expect(i).toMatchObject({ severity: 'error', path: ['nodes', 1, 'id'], nodeId: 'a' })
    expect(i.message).toBe('Node `a` already present.')
  })

  for (const id of ['__start__', '__end__', '__interrupt__']) {
    it(`RESERVED_NODE_NAME for ${id}`, () => {
      const i = issue(withNodes('a', id), 'RESERVED_NODE_NAME')
      expect(i).toMatchObject({ severity: 'error', path: ['nodes', 1, 'id'], nodeId: id })
      expect(i.message).toBe(`Node \`${id}\` is reserved.`)
    })
  }

  for (const [id, ch] of [
    ['a:b', ':'],
    ['a|b', '|'],
  ] as const) {
    it(`INVALID_NODE_NAME for ${id}`, () => {
      const i = issue(withNodes(id), 'INVALID_NODE_NAME')
      expect(i).toMatchObject({ severity: 'error', path: ['nodes', 0, 'id'], nodeId: id })
      expect(i.message).toContain(id)
      expect(i.message).toContain(`"${ch}" is a reserved character`)
    })
  }

  it('INVALID_NODE_NAME for an empty id', () => {
    expect(issue(withNodes(''), 'INVALID_NODE_NAME').path).toEqual(['nodes', 0, 'id'])
  })

  it('NODE_NAMED_LIKE_FIELD when a node has the name of a state field', () => {
    const i = issue(withNodes('x'), 'NODE_NAMED_LIKE_FIELD')
    expect(i).toMatchObject({ severity: 'error', path: ['nodes', 0, 'id'], nodeId: 'x' })
    expect(i.message).toMatch(/^x is already being used as a state attribute/)
  })
})

describe('CODE_SYNTAX', () => {
  const withCode = (code: string) =>
    doc({
      nodes: [
        { id: 'a', code: '(s) => ({})' },
        { id: 'b', code },
      ],
    })

  it('reports a syntax error on line 1 at its 1-based column', () => {
    const code = '(s) => s.x +* 2'
    const i = issue(withCode(code), 'CODE_SYNTAX')
    expect(i).toMatchObject({
      severity: 'error',
      path: ['nodes', 1, 'code'],
      nodeId: 'b',
      line: 1,
      column: code.indexOf('*') + 1,
    })
    expect(i.message).toContain('Code of node `b`')
    expect(formatIssue(i)).toContain('(line 1, column 13)')
  })

  it('reports a syntax error on line 3 of a multi-line node at its line and column', () => {
    const code = '(s) => {\n  const a = 1\n  const b = = 2\n  return { a, b }\n}'
    const line3 = code.split('\n')[2] as string
    const i = issue(withCode(code), 'CODE_SYNTAX')
    expect(i).toMatchObject({ line: 3, column: line3.lastIndexOf('=') + 1 })
  })

  it('reports code that ends too early inside the code string, not past its end', () => {
    const code = '(s) =>'
    const i = issue(withCode(code), 'CODE_SYNTAX')
    expect(i.line).toBe(1)
    expect(i.column).toBeLessThanOrEqual(code.length + 1)
  })

  it('reports empty code', () => {
    expect(issue(withCode('  '), 'CODE_SYNTAX').message).toContain('empty')
  })

  it('accepts a trailing line comment', () => {
    expect(validateGraph(withCode('(s) => ({}) // done'))).toEqual([])
  })

  it('reports a syntax error in a router at the branch', () => {
    const i = issue(
      doc({ branches: [{ from: 'a', router: '(s) => (', paths: ['b'] }] }),
      'CODE_SYNTAX',
    )
    expect(i).toMatchObject({ path: ['branches', 0, 'router'], nodeId: 'a' })
    expect(i.message).toContain('Router of `a`')
  })

  // The app runs code as a Script, where `<!--` starts a comment; the export is a module,
  // where it is `<`, `!`, `--` and the rest runs. Such code is refused before either runs it.
  it('refuses an HTML-like comment, which the app and the export would read apart', () => {
    const code = '(s) => 0 <!--globalThis.PWNED = 1, ({})\n'
    const i = issue(withCode(code), 'CODE_SYNTAX')
    expect(i).toMatchObject({
      severity: 'error',
      path: ['nodes', 1, 'code'],
      nodeId: 'b',
      line: 1,
      column: code.indexOf('<!--') + 1,
    })
    expect(i.message).toMatch(/HTML-like comment/)
    expect(parseGraph(withCode(code)).ok).toBe(false)
    const close = issue(withCode('(s) => ({})\n--> globalThis.PWNED = 1'), 'CODE_SYNTAX')
    expect(close).toMatchObject({ line: 2, column: 1 })
  })

  // The code must be one expression: `checkExpressionSyntax` promises that wrapping in
  // parentheses "admits exactly one expression", but `x); stmt; (y` closes the wrapper
  // itself and parses as three statements.
  it('refuses code that closes the wrapping parenthesis and adds statements', () => {
    const i = issue(withCode("(s) => ({})); console.log('side effect'); (0"), 'CODE_SYNTAX')
    expect(i.path).toEqual(['nodes', 1, 'code'])
  })
})

describe('edges', () => {
  const withEdges = (...edges: unknown[]) =>
    doc({ edges: [{ from: '__start__', to: 'a' }, { from: 'a', to: 'b' }, ...edges] })

  it('UNKNOWN_EDGE_SOURCE for an unknown node', () => {
    const i = issue(withEdges({ from: 'ghost', to: 'b' }), 'UNKNOWN_EDGE_SOURCE')
    expect(i).toMatchObject({ severity: 'error', path: ['edges', 2, 'from'] })
    expect(i.message).toContain('`ghost`')
  })

  it('UNKNOWN_EDGE_SOURCE for an edge from __end__', () => {
    const i = issue(withEdges({ from: '__end__', to: 'b' }), 'UNKNOWN_EDGE_SOURCE')
    expect(i.path).toEqual(['edges', 2, 'from'])
    expect(i.message).toContain('END cannot be the start of an edge')
  })

  it('UNKNOWN_EDGE_SOURCE inside a join points at the list item, and START cannot join', () => {
    const d = withEdges({ from: ['a', 'ghost'], to: 'b' }, { from: ['__start__', 'a'], to: 'b' })
    const found = validateGraph(d).filter((i) => i.code === 'UNKNOWN_EDGE_SOURCE')
    expect(found.map((i) => i.path)).toEqual([
      ['edges', 2, 'from', 1],
      ['edges', 3, 'from', 0],
    ])
  })

  it('UNKNOWN_EDGE_TARGET for an unknown node', () => {
    const i = issue(withEdges({ from: 'b', to: 'missing' }), 'UNKNOWN_EDGE_TARGET')
    expect(i).toMatchObject({ severity: 'error', path: ['edges', 2, 'to'] })
    expect(i.message).toBe('Found edge ending at unknown node `missing`.')
  })

  it('UNKNOWN_EDGE_TARGET for an edge to __start__', () => {
    const i = issue(withEdges({ from: 'b', to: '__start__' }), 'UNKNOWN_EDGE_TARGET')
    expect(i.path).toEqual(['edges', 2, 'to'])
    expect(i.message).toContain('START cannot be the end of an edge')
  })
})

describe('branches, ends and interrupts', () => {
  it('UNKNOWN_BRANCH_SOURCE for a router on an unknown node', () => {
    const i = issue(
      doc({ branches: [{ from: 'ghost', router: "() => 'b'", paths: ['b'] }] }),
      'UNKNOWN_BRANCH_SOURCE',
    )
    expect(i).toMatchObject({ severity: 'error', path: ['branches', 0, 'from'], nodeId: 'ghost' })
    expect(i.message).toContain('`ghost`')
  })

  it('UNKNOWN_BRANCH_TARGET points at the path-map key', () => {
    const i = issue(
      doc({ branches: [{ from: 'a', router: "() => 'go'", paths: { go: 'b', oops: 'ghost' } }] }),
      'UNKNOWN_BRANCH_TARGET',
    )
    expect(i).toMatchObject({
      severity: 'error',
      path: ['branches', 0, 'paths', 'oops'],
      nodeId: 'a',
    })
    expect(i.message).toContain('`oops`')
    expect(i.message).toContain('`ghost`')
  })

  // GraphIssue.path is "a JSON path into the document"; for a list of paths the last
  // element must be the list index, not the name.
  it('UNKNOWN_BRANCH_TARGET in a path list points at the list index', () => {
    const i = issue(
      doc({ branches: [{ from: 'a', router: "() => 'b'", paths: ['b', 'ghost'] }] }),
      'UNKNOWN_BRANCH_TARGET',
    )
    expect(i.path).toEqual(['branches', 0, 'paths', 1])
  })

  it('UNKNOWN_ENDS_TARGET points at the entry of `ends`', () => {
    const i = issue(
      doc({
        nodes: [
          { id: 'a', code: '(s) => ({})', ends: ['b', 'nowhere'] },
          { id: 'b', code: '(s) => ({})' },
        ],
      }),
      'UNKNOWN_ENDS_TARGET',
    )
    expect(i).toMatchObject({ severity: 'error', path: ['nodes', 0, 'ends', 1], nodeId: 'a' })
    expect(i.message).toContain('`nowhere`')
  })

  it('UNKNOWN_INTERRUPT_NODE for before and after lists; "*" is allowed', () => {
    const d = doc({ interruptBefore: ['*', 'zz'], interruptAfter: ['a', 'yy'] })
    const found = validateGraph(d).filter((i) => i.code === 'UNKNOWN_INTERRUPT_NODE')
    expect(found.map((i) => [i.severity, i.path, i.message])).toEqual([
      ['error', ['interruptBefore', 1], 'Interrupt node `zz` is not present.'],
      ['error', ['interruptAfter', 1], 'Interrupt node `yy` is not present.'],
    ])
  })
})

describe('reachability', () => {
  it('UNREACHABLE_NODE for a node no edge, branch or ends targets', () => {
    const d = doc({
      nodes: [
        { id: 'a', code: '(s) => ({})' },
        { id: 'b', code: '(s) => ({})' },
        { id: 'orphan', code: '(s) => ({})' },
      ],
    })
    const i = issue(d, 'UNREACHABLE_NODE')
    expect(i).toMatchObject({ severity: 'error', path: ['nodes', 2], nodeId: 'orphan' })
    expect(i.message).toBe('Node `orphan` is not reachable.')
  })

  it('a graph without an edge from START leaves its first node unreachable', () => {
    const i = issue(doc({ edges: [{ from: 'a', to: 'b' }] }), 'UNREACHABLE_NODE')
    expect(i.nodeId).toBe('a')
  })

  it('a conditional edge without a path map targets every node', () => {
    const d = doc({
      nodes: [
        { id: 'a', code: '(s) => ({})' },
        { id: 'b', code: '(s) => ({})' },
        { id: 'c', code: '(s) => ({})' },
      ],
      branches: [{ from: 'a', router: "() => 'c'" }],
    })
    expect(validateGraph(d)).toEqual([])
  })

  it('a node targeted only through `ends` is reachable', () => {
    const d = doc({
      nodes: [
        { id: 'a', code: '(s) => ({})', ends: ['c'] },
        { id: 'b', code: '(s) => ({})' },
        { id: 'c', code: '(s) => ({})' },
      ],
    })
    expect(validateGraph(d)).toEqual([])
  })

  it('NOT_REACHABLE_FROM_START warns about a targeted node no path from START leads to', () => {
    const d = doc({
      nodes: [
        { id: 'a', code: '(s) => ({})' },
        { id: 'b', code: '(s) => ({})' },
        { id: 'c', code: '(s) => ({})' },
      ],
      edges: [
        { from: '__start__', to: 'a' },
        { from: 'b', to: 'c' },
        { from: 'c', to: 'b' },
      ],
    })
    const found = validateGraph(d).filter((i) => i.code === 'NOT_REACHABLE_FROM_START')
    expect(found.map((i) => [i.severity, i.path, i.nodeId])).toEqual([
      ['warning', ['nodes', 1], 'b'],
      ['warning', ['nodes', 2], 'c'],
    ])
    expect(found[0]?.message).toContain('`b`')
    expect(parseGraph(d).ok).toBe(true)
  })
})

describe('a document the schema refuses', () => {
  it('still gets the checks of its well-formed parts: one bad reducer hides nothing else', () => {
    const d = doc({
      state: [{ name: 'x', reducer: 'nope' }, { name: 'log' }],
      nodes: [
        { id: 'a', code: '(s) => (' },
        { id: 'a', code: '(s) => ({})' },
        { id: '__start__', code: '() => ({})' },
        { id: 'log', code: '() => ({})' },
      ],
      branches: [{ from: 'a', router: '(s) => +', paths: ['a'] }],
    })
    const found = validateGraph(d).map((i) => [i.code, i.path.join('.')])
    expect(found).toEqual([
      ['UNKNOWN_REDUCER', 'state.0.reducer'],
      ['CODE_SYNTAX', 'nodes.0.code'],
      ['DUPLICATE_NODE', 'nodes.1.id'],
      ['RESERVED_NODE_NAME', 'nodes.2.id'],
      ['NODE_NAMED_LIKE_FIELD', 'nodes.3.id'],
      ['CODE_SYNTAX', 'branches.0.router'],
    ])
  })

  it('checks the state when the nodes are the malformed part', () => {
    const d = doc({
      state: [{ name: 'x' }, { name: 'x' }],
      nodes: [{ id: 3 }],
    })
    const codes = validateGraph(d).map((i) => i.code)
    expect(codes).toContain('SCHEMA')
    expect(codes).toContain('DUPLICATE_FIELD')
  })

  it('says nothing more of a value that is not a document at all', () => {
    expect(validateGraph([1, 2]).map((i) => i.code)).toEqual(['SCHEMA'])
    expect(validateGraph(null).map((i) => i.code)).toEqual(['SCHEMA'])
  })
})

describe('a document with more code than the parse memos hold', () => {
  it('is not parsed again whole on every check: each piece keeps its parse between checks', () => {
    const count = 5000 // each node its own code: past the memos' 4,000
    const ids = Array.from({ length: count }, (_, i) => `n${i}`)
    const big = doc({
      state: [{ name: 'count' }],
      nodes: ids.map((id, i) => ({ id, code: `(state) => ({ count: ${i} })` })),
      edges: ids.map((id, i) => ({ from: i === 0 ? '__start__' : ids[i - 1], to: id })),
    })
    const first = '(state) => ({ count: 0 })'
    expect(parseGraph(big).ok).toBe(true)
    const facts = readCode(first)
    const tree = parseExpression(first)
    expect(parseGraph(big).ok).toBe(true)
    expect(readCode(first)).toBe(facts)
    expect(parseExpression(first)).toBe(tree)
  })
})
