import { describe, expect, it } from 'vitest'
import type { GraphIssue } from '../../core/graph/issues'
import type { GraphSpec } from '../../core/graph/schema'
import { validateGraph } from '../../core/graph/validate'
import { createFlowCache } from './decorate'
import { parseEdgeId, type FlowEdge, type FlowNode } from './flowTypes'
import { callsInterrupt, toFlow } from './toFlow'

const base = (over: Partial<GraphSpec>): GraphSpec => ({
  superstep: 1,
  name: 'g',
  state: [{ name: 'count', reducer: 'add', default: 0 }],
  nodes: [],
  edges: [],
  ...over,
})

const node = (id: string, x = 0, y = 0, extra: object = {}) => ({
  id,
  code: '(s) => ({})',
  position: { x, y },
  ...extra,
})

const counter = base({
  nodes: [node('inc', 200, 0)],
  edges: [{ from: '__start__', to: 'inc' }],
  branches: [
    {
      from: 'inc',
      router: "(s) => s.count < 3 ? 'again' : 'done'",
      paths: { again: 'inc', done: '__end__' },
    },
  ],
})

const edgeById = (edges: FlowEdge[], id: string) => {
  const e = edges.find((x) => x.id === id)
  if (!e) throw new Error(`no edge ${id} in ${edges.map((x) => x.id).join(', ')}`)
  return e
}
const nodeById = (nodes: FlowNode[], id: string) => {
  const n = nodes.find((x) => x.id === id)
  if (!n) throw new Error(`no node ${id} in ${nodes.map((x) => x.id).join(', ')}`)
  return n
}

describe('toFlow', () => {
  it('always draws START and END, not deletable, plus one node per document node', () => {
    const empty = toFlow(base({}), [])
    expect(empty.nodes.map((n) => n.id)).toEqual(['__start__', '__end__'])
    const { nodes } = toFlow(counter, [])
    expect(nodes.map((n) => [n.id, n.type])).toEqual([
      ['inc', 'step'],
      ['__start__', 'terminal'],
      ['__end__', 'terminal'],
    ])
    for (const id of ['__start__', '__end__']) {
      const n = nodeById(nodes, id)
      expect(n.deletable).toBe(false)
      expect(n.draggable).toBe(false)
      expect(n.domAttributes).toEqual({ 'data-node-id': id })
    }
    const inc = nodeById(nodes, 'inc')
    expect(inc.position).toEqual({ x: 200, y: 0 })
    expect(inc.ariaLabel).toBe('Node inc')
    expect(inc.domAttributes).toEqual({ 'data-node-id': 'inc' })
    // START before the first node, END after the last one
    expect(nodeById(nodes, '__start__').position.x).toBeLessThan(200)
    expect(nodeById(nodes, '__end__').position.x).toBeGreaterThan(200)
  })

  it('draws a fixed edge solid, and a map branch as one labelled dashed edge per path, self-loop included', () => {
    const { edges } = toFlow(counter, [])
    expect(edges.map((e) => e.id)).toEqual(['e:0', 'b:0:again', 'b:0:done'])
    expect(edgeById(edges, 'e:0')).toMatchObject({
      source: '__start__',
      target: 'inc',
      type: 'graph',
      className: 'ss-edge ss-edge-fixed',
      ariaLabel: 'Edge START → inc',
      data: { kind: 'fixed' },
    })
    const again = edgeById(edges, 'b:0:again')
    expect(again).toMatchObject({
      source: 'inc',
      target: 'inc',
      className: 'ss-edge ss-edge-branch',
      ariaLabel: 'Path again: inc → inc',
      data: { kind: 'branch', label: 'again' },
    })
    expect(again.markerEnd).toBeDefined()
    expect(edgeById(edges, 'b:0:done')).toMatchObject({
      source: 'inc',
      target: '__end__',
      ariaLabel: 'Path done: inc → END',
    })
  })

  it('draws a list branch with the node names as keys, and a branch without paths to an "any node" marker', () => {
    const doc = base({
      nodes: [node('a'), node('b', 200), node('c', 400)],
      edges: [{ from: '__start__', to: 'a' }],
      branches: [
        { from: 'a', router: '(s) => "b"', paths: ['b', 'c'] },
        { from: 'b', router: '(s) => "c"' },
      ],
    })
    const { nodes, edges } = toFlow(doc, [])
    expect(edgeById(edges, 'b:0:b')).toMatchObject({
      source: 'a',
      target: 'b',
      data: { label: 'b' },
    })
    expect(edgeById(edges, 'b:0:c')).toMatchObject({
      source: 'a',
      target: 'c',
      ariaLabel: 'Path c: a → c',
    })
    expect(edgeById(edges, 'b:1')).toMatchObject({
      source: 'b',
      target: 'any:1',
      data: { kind: 'any', label: 'any' },
    })
    expect(nodeById(nodes, 'any:1')).toMatchObject({
      type: 'marker',
      data: { kind: 'any' },
      selectable: false,
    })
    expect(nodeById(nodes, 'b').data).toMatchObject({ branch: true })
    expect(nodeById(nodes, 'c').data).toMatchObject({ branch: false })
  })

  it('draws a join as converging edges into a marker, then one edge to the target', () => {
    const doc = base({
      nodes: [node('a'), node('b', 0, 100), node('c', 300, 50)],
      edges: [
        { from: '__start__', to: 'a' },
        { from: '__start__', to: 'b' },
        { from: ['a', 'b'], to: 'c' },
      ],
    })
    const { nodes, edges } = toFlow(doc, [])
    const join = nodeById(nodes, 'join:2')
    expect(join).toMatchObject({
      type: 'marker',
      data: { kind: 'join' },
      selectable: true,
      ariaLabel: 'Join → c',
    })
    expect(edgeById(edges, 'j:2:a')).toMatchObject({
      source: 'a',
      target: 'join:2',
      data: { kind: 'join-in' },
    })
    expect(edgeById(edges, 'j:2:b')).toMatchObject({ source: 'b', target: 'join:2' })
    expect(edgeById(edges, 'j:2:a').markerEnd).toBeUndefined()
    expect(edgeById(edges, 'j:2')).toMatchObject({
      source: 'join:2',
      target: 'c',
      ariaLabel: 'Join [a, b] → c',
    })
    // It says it waits for all of its sources, on the marker and on every one of its edges.
    const says = 'Join: c runs once a and b have all finished (waits for all)'
    expect(join.data).toMatchObject({ label: says })
    expect(join.domAttributes).toMatchObject({ 'aria-description': says })
    for (const id of ['j:2', 'j:2:a', 'j:2:b']) {
      expect(edgeById(edges, id).data?.title).toBe(says)
      expect(edgeById(edges, id).domAttributes).toMatchObject({ 'aria-description': says })
    }
    // the marker lies between the sources and the target
    expect(join.position.x).toBeGreaterThan(0)
    expect(join.position.x).toBeLessThan(300)
  })

  it('draws the ends of a Command node dotted, and marks it', () => {
    const doc = base({
      nodes: [node('router', 0, 0, { ends: ['a', '__end__'] }), node('a', 200)],
      edges: [{ from: '__start__', to: 'router' }],
    })
    const { nodes, edges } = toFlow(doc, [])
    expect(edgeById(edges, 'c:router:a')).toMatchObject({
      source: 'router',
      target: 'a',
      className: 'ss-edge ss-edge-ends',
      ariaLabel: 'Command goto: router → a',
    })
    expect(edgeById(edges, 'c:router:__end__')).toMatchObject({ target: '__end__' })
    expect(nodeById(nodes, 'router').data).toMatchObject({ command: true })
  })

  it('marks a node whose code calls interrupt as human-in-the-loop', () => {
    expect(callsInterrupt('(s) => { const a = interrupt({ q: 1 }); return { a } }')).toBe(true)
    expect(callsInterrupt('(s) => ({ interrupted: true })')).toBe(false)
    const doc = base({
      nodes: [
        node('ask', 0, 0, { code: '(s) => ({ answer: interrupt("ok?") })' }),
        node('plain', 200),
      ],
    })
    const { nodes } = toFlow(doc, [])
    expect(nodeById(nodes, 'ask').data).toMatchObject({ hitl: true })
    expect(nodeById(nodes, 'plain').data).toMatchObject({ hitl: false })
  })

  it('gives a name that is not a node a "missing" node, and a repeated id its own flow id', () => {
    const doc = base({
      nodes: [node('a'), node('a', 100)],
      edges: [
        { from: '__start__', to: 'a' },
        { from: 'a', to: 'ghost' },
      ],
    })
    const { nodes, edges } = toFlow(doc, [])
    expect(nodes.map((n) => n.id)).toEqual(['a', 'dup:1', '__start__', '__end__', 'missing:ghost'])
    expect(edgeById(edges, 'e:1')).toMatchObject({ source: 'a', target: 'missing:ghost' })
  })

  it('lays out nodes without a position, left to right or top to bottom', () => {
    const doc = base({
      nodes: [
        { id: 'a', code: '(s) => ({})' },
        { id: 'b', code: '(s) => ({})' },
      ],
      edges: [
        { from: '__start__', to: 'a' },
        { from: 'a', to: 'b' },
      ],
    })
    const lr = toFlow(doc, [])
    const a = nodeById(lr.nodes, 'a').position
    const b = nodeById(lr.nodes, 'b').position
    expect(b.x).toBeGreaterThan(a.x)
    expect(nodeById(lr.nodes, 'a')).toMatchObject({
      sourcePosition: 'right',
      targetPosition: 'left',
    })
    const tb = toFlow(doc, [], { direction: 'TB' })
    expect(nodeById(tb.nodes, 'b').position.y).toBeGreaterThan(nodeById(tb.nodes, 'a').position.y)
    expect(nodeById(tb.nodes, 'a')).toMatchObject({
      sourcePosition: 'bottom',
      targetPosition: 'top',
    })
  })

  it('with a memo, draws what it draws without, and keeps the elements of items an edit left alone', () => {
    const doc = base({
      nodes: [node('a', 0, 0), node('b', 240, 0), node('c', 480, 0)],
      edges: [
        { from: '__start__', to: 'a' },
        { from: 'a', to: 'b' },
        { from: 'b', to: 'c' },
      ],
      interruptBefore: ['c'],
    })
    const memo = new WeakMap()
    const first = toFlow(doc, validateGraph(doc), { memo })
    expect(first).toEqual(toFlow(doc, validateGraph(doc)))
    // b renamed: b and its two edges are drawn anew, a, c and START's edge are the same objects.
    const renamed = {
      ...doc,
      nodes: [doc.nodes[0], { ...(doc.nodes[1] as GraphSpec['nodes'][0]), id: 'x' }, doc.nodes[2]],
      edges: [doc.edges[0], { from: 'a', to: 'x' }, { from: 'x', to: 'c' }],
    } as GraphSpec
    const next = toFlow(renamed, validateGraph(renamed), { memo })
    expect(next).toEqual(toFlow(renamed, validateGraph(renamed)))
    const byId = (f: typeof first, id: string) => f.nodes.find((n) => n.id === id)
    expect(byId(next, 'a')).toBe(byId(first, 'a'))
    expect(byId(next, 'c')).toBe(byId(first, 'c'))
    expect(byId(next, 'x')?.data).toMatchObject({ docId: 'x' })
    expect(next.edges[0]).toBe(first.edges[0])
    expect(next.edges[1]).not.toBe(first.edges[1])
    // A breakpoint or a problem is drawn on a kept node too.
    const paused = { ...renamed, interruptBefore: ['a'] }
    const third = toFlow(paused, validateGraph(paused), { memo })
    expect(third).toEqual(toFlow(paused, validateGraph(paused)))
    expect(byId(third, 'a')?.data).toMatchObject({ pauseBefore: true })
  })

  it('has stable, parseable ids: the same document gives equal output', () => {
    const doc = base({
      nodes: [node('a', 0, 0, { ends: ['b'] }), node('b', 200)],
      edges: [
        { from: '__start__', to: 'a' },
        { from: ['a', 'b'], to: '__end__' },
      ],
      branches: [{ from: 'b', router: '(s) => "x"', paths: { x: 'a' } }],
    })
    const first = toFlow(doc, [])
    const second = toFlow(structuredClone(doc), [])
    expect(second).toEqual(first)
    for (const e of first.edges) expect(parseEdgeId(e.id), e.id).not.toBeNull()
    expect(parseEdgeId('j:1:a')).toEqual({ kind: 'join', index: 1, source: 'a' })
    expect(parseEdgeId('b:0:x')).toEqual({ kind: 'path', index: 0, key: 'x' })
    expect(parseEdgeId('b:3')).toEqual({ kind: 'any', index: 3 })
    expect(parseEdgeId('c:a:b')).toEqual({ kind: 'ends', node: 'a', target: 'b' })
  })

  it('keeps unchanged nodes and edges as the same objects when one node moves', () => {
    const cache = createFlowCache()
    const before = cache.derive(counter, [], 'LR')
    expect(cache.derive(counter, [], 'LR')).toBe(before)
    const doc = base({ ...counter, nodes: [...counter.nodes, node('other', 0, 300)] })
    const one = cache.derive(doc, [], 'LR')
    const moved = base({ ...doc, nodes: [doc.nodes[0]!, node('other', 45, 300)] })
    const two = cache.derive(moved, [], 'LR')
    expect(nodeById(two.nodes, 'inc')).toBe(nodeById(one.nodes, 'inc'))
    expect(nodeById(two.nodes, 'other')).not.toBe(nodeById(one.nodes, 'other'))
    expect(two.edges).toBe(one.edges)
  })
})

describe('issue badges', () => {
  const badgeOf = (el: { data?: { issues?: unknown } } | undefined) => el?.data?.issues

  it('puts node issues on the node, edge issues on the edge, path issues on the path', () => {
    const doc = base({
      nodes: [node('a'), node('lonely', 0, 200), node('r', 200, 0, { ends: ['nowhere'] })],
      edges: [
        { from: '__start__', to: 'a' },
        { from: 'a', to: 'missing' },
        { from: ['a', 'ghost'], to: 'r' },
      ],
      branches: [{ from: 'a', router: '(s) => "x"', paths: { x: 'gone', y: 'r' } }],
    })
    const issues = validateGraph(doc)
    const { nodes, edges } = toFlow(doc, issues)
    expect(badgeOf(nodeById(nodes, 'lonely'))).toMatchObject({ errors: 1, warnings: 0 })
    expect(badgeOf(edgeById(edges, 'e:1'))).toMatchObject({ errors: 1 })
    expect(badgeOf(edgeById(edges, 'j:2:ghost'))).toMatchObject({ errors: 1 })
    expect(badgeOf(edgeById(edges, 'b:0:x'))).toMatchObject({ errors: 1 })
    expect(badgeOf(edgeById(edges, 'b:0:y'))).toBeUndefined()
    expect(badgeOf(edgeById(edges, 'c:r:nowhere'))).toMatchObject({ errors: 1 })
    expect(badgeOf(nodeById(nodes, 'a'))).toBeUndefined()
    expect(badgeOf(edgeById(edges, 'e:0'))).toBeUndefined()
  })

  it('counts errors and warnings separately and lists the messages in the title', () => {
    const issues: GraphIssue[] = [
      {
        code: 'CODE_SYNTAX',
        severity: 'error',
        message: 'does not parse',
        path: ['nodes', 0, 'code'],
        nodeId: 'inc',
      },
      {
        code: 'NOT_REACHABLE_FROM_START',
        severity: 'warning',
        message: 'never runs',
        path: ['nodes', 0],
        nodeId: 'inc',
      },
      { code: 'DUPLICATE_EDGE', severity: 'warning', message: 'drawn twice', path: ['edges', 0] },
      {
        code: 'CODE_SYNTAX',
        severity: 'error',
        message: 'router',
        path: ['branches', 0, 'router'],
        nodeId: 'inc',
      },
      {
        code: 'UNKNOWN_INTERRUPT_NODE',
        severity: 'error',
        message: 'nowhere',
        path: ['interruptBefore', 0],
      },
    ]
    const { nodes, edges } = toFlow(counter, issues)
    expect(badgeOf(nodeById(nodes, 'inc'))).toEqual({
      errors: 2,
      warnings: 1,
      title: 'Error: does not parse\nWarning: never runs\nError: router',
    })
    expect(badgeOf(edgeById(edges, 'e:0'))).toEqual({
      errors: 0,
      warnings: 1,
      title: 'Warning: drawn twice',
    })
    const all = [...nodes, ...edges].filter((x) => badgeOf(x))
    expect(all.map((x) => x.id)).toEqual(['inc', 'e:0'])
  })

  it('names START and END as such in every edge, and a join into END', () => {
    const doc = base({
      nodes: [node('a', 0, 0, { ends: ['__end__'] }), node('b', 0, 100)],
      edges: [
        { from: '__start__', to: 'a' },
        { from: ['a', 'b', '__start__'], to: '__end__' },
      ],
      branches: [{ from: 'b', router: '() => "x"', paths: { x: '__end__' } }],
    })
    const { nodes, edges } = toFlow(doc, [])
    const labels = edges.map((e) => `${e.ariaLabel ?? ''} ${e.data?.title ?? ''}`).join('\n')
    expect(labels).not.toMatch(/__start__|__end__/)
    expect(edgeById(edges, 'e:0').ariaLabel).toBe('Edge START → a')
    expect(edgeById(edges, 'j:1').ariaLabel).toBe('Join [a, b, START] → END')
    expect(edgeById(edges, 'j:1').data?.title).toBe(
      'Join: END runs once a, b and START have all finished (waits for all)',
    )
    expect(edgeById(edges, 'b:0:x').ariaLabel).toBe('Path x: b → END')
    expect(edgeById(edges, 'c:a:__end__').ariaLabel).toBe('Command goto: a → END')
    expect(nodeById(nodes, 'join:1').ariaLabel).toBe('Join → END')
  })
})
