/** The benchmark graphs, as graph documents both runtimes run. */
import type { GraphSpec } from '../src/core/graph/schema'

/** (a) One node that loops on itself through a conditional edge `n` times. */
export function cycleGraph(n: number): GraphSpec {
  return {
    superstep: 1,
    name: `cycle-${n}`,
    state: [{ name: 'n', reducer: 'add', default: 0 }],
    nodes: [{ id: 'inc', code: '(s) => ({ n: 1 })' }],
    edges: [{ from: '__start__', to: 'inc' }],
    branches: [
      { from: 'inc', router: `(s) => s.n < ${n} ? 'inc' : '__end__'`, paths: ['inc', '__end__'] },
    ],
  }
}

/** (b) A chain of `n` nodes, each adding 1. */
export function chainGraph(n: number): GraphSpec {
  const ids = Array.from({ length: n }, (_, i) => `n${i}`)
  return {
    superstep: 1,
    name: `chain-${n}`,
    state: [{ name: 'n', reducer: 'add', default: 0 }],
    nodes: ids.map((id) => ({ id, code: '(s) => ({ n: 1 })' })),
    edges: [
      { from: '__start__', to: ids[0] as string },
      ...ids.slice(1).map((id, i) => ({ from: ids[i] as string, to: id })),
    ],
  }
}

/** (c) START fans out `n` Sends to `work`; every result is appended, then `collect` runs once. */
export function fanOutGraph(n: number): GraphSpec {
  return {
    superstep: 1,
    name: `fanout-${n}`,
    state: [
      { name: 'items', reducer: 'overwrite' },
      { name: 'results', reducer: 'append', default: [] },
      { name: 'total' },
    ],
    nodes: [
      { id: 'work', code: '(s) => ({ results: [s.item * 2] })' },
      { id: 'collect', code: '(s) => ({ total: s.results.length })' },
    ],
    edges: [{ from: 'work', to: 'collect' }],
    branches: [
      {
        from: '__start__',
        router: "(s) => s.items.map((item) => new Send('work', { item }))",
        paths: ['work'],
      },
    ],
  }
}

export const fanOutInput = (n: number) => ({ items: Array.from({ length: n }, (_, i) => i) })
