import { describe, expect, it } from 'vitest'
import type { ChannelRow, CheckpointInspection } from './types'
import { edge, node, reasons, threadOf } from './testThread'

/** START → a, START → b1 → b2; join [a, b2] → c. */
const unevenJoin = {
  state: [{ name: 'log', reducer: 'append', default: [] }, { name: 'x' }],
  nodes: ['a', 'b1', 'b2', 'c'].map((n) => node(n, `(s) => ({ log: ['${n}'] })`)),
  edges: [
    edge('__start__', 'a'),
    edge('__start__', 'b1'),
    edge('b1', 'b2'),
    edge(['b2', 'a'], 'c'),
  ],
}

describe('inspectCheckpoint: the channel table', () => {
  it('lists every channel in compiled order with role, type, reducer, value and versions', async () => {
    const t = threadOf(unevenJoin)
    await t.invoke({ x: 1 })
    const step1 = (await t.inspect())[2]
    expect(step1?.step).toBe(1)
    expect(step1?.channels.map(row)).toEqual([
      'log field BinaryOperatorAggregate append ["a","b1"] v3/- changed',
      'x field LastValue overwrite 1 v2/2',
      '__start__ start EphemeralValue - empty v2/2',
      '__pregel_tasks tasks Topic - empty v-/-',
      'branch:to:a branch EphemeralValue - empty v3/2 changed',
      'branch:to:b1 branch EphemeralValue - empty v3/2 changed',
      'branch:to:b2 branch EphemeralValue - null v3/- changed',
      'branch:to:c branch EphemeralValue - empty v-/-',
      'join:b2+a:c join NamedBarrierValue - ["a"] v3/- changed',
    ])
    // Absent means absent: no `value` when empty, no versions never written.
    expect(step1?.channels[3]).toEqual({
      name: '__pregel_tasks',
      role: 'tasks',
      type: 'Topic',
      hasValue: false,
      changed: false,
    })
  })

  it('shows a barrier as its sources seen, sorted; without a parent, changed means versioned', async () => {
    const t = threadOf(unevenJoin)
    await t.invoke({})
    const all = await t.inspect()
    const join = (i: CheckpointInspection | undefined) => i?.channels.find((c) => c.role === 'join')
    expect(join(all[3])).toMatchObject({ hasValue: true, value: ['a', 'b2'], version: 4 })
    const first = all[0]
    expect(first?.channels.filter((c) => c.changed).map((c) => c.name)).toEqual(['__start__'])
    expect(first?.channels.find((c) => c.name === '__start__')?.value).toEqual({})
  })
})

describe('inspectCheckpoint: why a node will or will not run', () => {
  it('names the trigger and the versions, a barrier still waiting, and an unwritten trigger', async () => {
    const t = threadOf(unevenJoin)
    await t.invoke({})
    const [input, step0, step1, step2] = await t.inspect()
    expect(reasons(input)).toEqual({
      __start__: 'will run: `__start__` is at 1, __start__ has never seen it',
      a: 'will not run: nothing has written `branch:to:a` yet',
      b1: 'will not run: nothing has written `branch:to:b1` yet',
      b2: 'will not run: nothing has written `branch:to:b2` yet',
      c: 'will not run: nothing has written `branch:to:c` or `join:b2+a:c` yet',
    })
    expect(reasons(step0)).toMatchObject({
      a: 'will run: `branch:to:a` is at 2, a has never seen it',
    })
    expect(reasons(step1)).toMatchObject({
      a: 'will not run: `branch:to:a` is at 3 and a has seen 2, but it is empty',
      b2: 'will run: `branch:to:b2` is at 3, b2 has never seen it',
      c: 'will not run: `join:b2+a:c` is waiting for b2',
    })
    expect(step1?.schedule.find((s) => s.node === 'c')?.triggers).toEqual([
      { channel: 'branch:to:c', newer: false, available: false },
      { channel: 'join:b2+a:c', current: 3, newer: true, available: false },
    ])
    expect(reasons(step2)).toMatchObject({
      c: 'will run: `join:b2+a:c` is at 4, c has never seen it',
    })
    expect(step2?.next).toEqual(['c'])
  })

  it('counts the Sends queued for a node, with and without its own trigger', async () => {
    const t = threadOf({
      state: [{ name: 'log', reducer: 'append', default: [] }],
      nodes: [node('a', "(s) => ({ log: ['a'] })"), node('w', '(x) => ({ log: [x] })')],
      edges: [edge('__start__', 'a')],
      branches: [
        { from: '__start__', router: "(s) => [new Send('w', 1), new Send('w', 2)]" },
        { from: 'a', router: "(s) => [new Send('w', 3), 'w']" },
      ],
    })
    await t.invoke({})
    const all = await t.inspect()
    expect(all.map((i) => reasons(i).w)).toEqual([
      'will not run: nothing has written `branch:to:w` yet',
      'will run: 2 Sends to w are queued',
      'will run: `branch:to:w` is at 3, w has never seen it; and 1 Send is queued',
      'will not run: `branch:to:w` is at 4 and w has seen 3, but it is empty',
    ])
    expect(all[2]?.schedule.find((s) => s.node === 'w')).toMatchObject({ willRun: true, sends: 1 })
    expect(all[2]?.next).toEqual(['w', 'w'])
    expect(all[3]?.ran.map((r) => [r.name, r.kind, r.id])).toEqual([
      ['w', 'pull', '~__pregel_pull, w'],
      ['w', 'push', '~__pregel_push, 0000000000, 0000000000'],
    ])
  })

  it('says which version a node saw when it runs again', async () => {
    const t = threadOf({
      state: [{ name: 'n', reducer: 'add', default: 0 }],
      nodes: [node('inc', '(s) => ({ n: 1 })')],
      edges: [edge('__start__', 'inc')],
      branches: [{ from: 'inc', router: "(s) => (s.n < 2 ? 'inc' : '__end__')" }],
    })
    await t.invoke({})
    const all = await t.inspect()
    expect(all.map((i) => reasons(i).inc)).toEqual([
      'will not run: nothing has written `branch:to:inc` yet',
      'will run: `branch:to:inc` is at 2, inc has never seen it',
      'will run: `branch:to:inc` is at 3, inc has seen 2',
      'will not run: `branch:to:inc` is at 4 and inc has seen 3, but it is empty',
    ])
  })
})

/** A channel row as one line: name, role, type, reducer, value, version/parent's, changed. */
function row(c: ChannelRow): string {
  const value = c.hasValue ? JSON.stringify(c.value) : 'empty'
  const versions = `v${c.version ?? '-'}/${c.parentVersion ?? '-'}`
  return `${c.name} ${c.role} ${c.type} ${c.reducer ?? '-'} ${value} ${versions}${c.changed ? ' changed' : ''}`
}
