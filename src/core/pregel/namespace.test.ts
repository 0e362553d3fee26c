import { describe, expect, it } from 'vitest'
import { callNamespace, nsNodes, taskNamespace } from './namespace'

describe('checkpoint namespaces', () => {
  it('names a task by node and a thread-unique id, nested under its graph', () => {
    const team = taskNamespace('', 'ck-1', '~__pregel_pull, team', 'team')
    expect(team).toMatch(/^team:[0-9a-f]{32}$/)
    // The same task against the same checkpoint (a resume) finds the same namespace…
    expect(taskNamespace('', 'ck-1', '~__pregel_pull, team', 'team')).toBe(team)
    // …another checkpoint (the node's next run) a new one.
    expect(taskNamespace('', 'ck-2', '~__pregel_pull, team', 'team')).not.toBe(team)
    const inner = taskNamespace(team, 'ck-9', '~__pregel_pull, researcher', 'researcher')
    expect(inner.startsWith(`${team}|researcher:`)).toBe(true)
  })

  it('reads the node ids from the root down, without task ids and call counters', () => {
    expect(nsNodes('')).toEqual([])
    expect(nsNodes('team:abc')).toEqual(['team'])
    expect(nsNodes('team:abc|researcher:def')).toEqual(['team', 'researcher'])
    expect(nsNodes(callNamespace('caller:abc', 2))).toEqual(['caller'])
    expect(callNamespace('caller:abc', 0)).toBe('caller:abc')
    expect(callNamespace('caller:abc', 1)).toBe('caller:abc|1')
  })
})
