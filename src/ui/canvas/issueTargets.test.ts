import { describe, expect, it } from 'vitest'
import type { GraphIssue } from '../../core/graph/issues'
import type { GraphSpec } from '../../core/graph/schema'
import { validateGraph } from '../../core/graph/validate'
import { docNodeFlowIds, issueCulprit, issueTargetId } from './issueTargets'
import { toFlow } from './toFlow'

const code = '(s) => ({})'

/** One of each kind of culprit: broken edges, a join, branch paths, `ends`, state fields. */
const doc: GraphSpec = {
  superstep: 1,
  name: 'culprits',
  state: [
    { name: 'count', reducer: 'add', default: 0 },
    { name: 'count' },
    { name: '__start__' },
    { name: 'note', default: 'x' },
  ],
  nodes: [
    { id: 'a', code, position: { x: 0, y: 0 } },
    { id: 'b', code, position: { x: 200, y: 0 }, ends: ['nowhere'] },
    { id: 'a', code, position: { x: 400, y: 0 } },
    { id: 'lonely', code, position: { x: 600, y: 0 } },
  ],
  edges: [
    { from: '__start__', to: 'a' },
    { from: 'a', to: 'ghost' },
    { from: 'a', to: 'b' },
    { from: 'a', to: 'b' },
    { from: ['a', 'phantom'], to: 'b' },
    { from: 'b', to: '__end__' },
  ],
  branches: [
    { from: 'b', router: "(s) => 'x'", paths: { x: 'a', y: 'missing' } },
    { from: 'nobody', router: "(s) => 'x'", paths: { x: 'a' } },
  ],
}

const issues = validateGraph(doc)
const flowIds = docNodeFlowIds(doc)
const one = (code: GraphIssue['code'], pick: (i: GraphIssue) => boolean = () => true) => {
  const found = issues.filter((i) => i.code === code && pick(i))
  expect(found, `${code} in ${JSON.stringify(issues.map((i) => i.code))}`).toHaveLength(1)
  return found[0] as GraphIssue
}
const culprit = (issue: GraphIssue) => issueCulprit(doc, issue, flowIds)

describe('issueCulprit: what a click on a problem shows', () => {
  it('uses the flow ids the canvas draws', () => {
    const drawn = toFlow(doc, issues)
      .nodes.filter((n) => n.type === 'step')
      .map((n) => n.id)
    expect(flowIds).toEqual(drawn)
    expect(flowIds).toEqual(['a', 'b', 'dup:2', 'lonely'])
  })

  it('an edge problem selects that edge', () => {
    expect(culprit(one('UNKNOWN_EDGE_TARGET'))).toEqual({ kind: 'edge', id: 'e:1' })
    expect(culprit(one('DUPLICATE_EDGE'))).toEqual({ kind: 'edge', id: 'e:3' })
    expect(culprit(one('UNKNOWN_EDGE_SOURCE'))).toEqual({ kind: 'edge', id: 'j:4:phantom' })
    expect(culprit(one('UNKNOWN_ENDS_TARGET'))).toEqual({ kind: 'edge', id: 'c:b:nowhere' })
  })

  it('a router path to a missing node selects that path; a branch from nowhere its first', () => {
    const target = one('UNKNOWN_BRANCH_TARGET')
    expect(culprit(target)).toEqual({ kind: 'edge', id: 'b:0:y' })
    // the node the issue names (the branch's source) is not the culprit
    expect(target.nodeId).toBe('b')
    expect(culprit(one('UNKNOWN_BRANCH_SOURCE'))).toEqual({ kind: 'edge', id: 'b:1:x' })
  })

  it('a node problem selects the node, by its flow id', () => {
    expect(culprit(one('DUPLICATE_NODE'))).toEqual({ kind: 'node', id: 'dup:2' })
    const lonely = issues.find((i) => i.nodeId === 'lonely')
    expect(lonely && culprit(lonely)).toEqual({ kind: 'node', id: 'lonely' })
  })

  it('a state field problem shows that field row, by index', () => {
    expect(culprit(one('DUPLICATE_FIELD'))).toEqual({ kind: 'field', index: 1 })
    expect(culprit(one('RESERVED_FIELD_NAME'))).toEqual({ kind: 'field', index: 2 })
    expect(culprit(one('DEFAULT_IGNORED'))).toEqual({ kind: 'field', index: 3 })
    const named: GraphIssue = { ...one('DUPLICATE_FIELD'), path: [], field: 'note' }
    expect(culprit(named)).toEqual({ kind: 'field', index: 3 })
  })

  it('nothing to show for a document-wide problem', () => {
    const wide: GraphIssue = { code: 'SCHEMA', severity: 'error', message: 'x', path: [] }
    expect(culprit(wide)).toBeUndefined()
  })

  it('every element it selects is on the canvas, and badges agree', () => {
    const flow = toFlow(doc, issues)
    const ids = new Set([...flow.nodes, ...flow.edges].map((e) => e.id))
    for (const issue of issues) {
      const c = culprit(issue)
      if (!c || c.kind === 'field') continue
      expect(ids.has(c.id), `${issue.code} → ${c.id}`).toBe(true)
      if (issue.code !== 'UNKNOWN_BRANCH_SOURCE')
        expect(issueTargetId(doc, issue, flowIds)).toBe(c.id)
    }
  })
})
