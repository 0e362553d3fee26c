import { describe, expect, it } from 'vitest'
import { Command } from '../pregel/types'
import { edge, node, reasons, threadOf } from './testThread'

describe('inspectCheckpoint: the tasks that ran, and what their writes folded into', () => {
  it('lists the tasks in apply order with every write, edges included; folds only fields', async () => {
    const t = threadOf({
      state: [{ name: 'log', reducer: 'append', default: ['in'] }],
      nodes: ['b', 'a', 'c'].map((n) => node(n, `(s) => ({ log: ['${n}'] })`)),
      edges: [edge('__start__', 'a'), edge('__start__', 'b'), edge('a', 'c'), edge('b', 'c')],
    })
    await t.invoke({})
    const step1 = (await t.inspect())[2]
    expect(step1?.ran).toEqual([
      {
        id: '~__pregel_pull, a',
        name: 'a',
        kind: 'pull',
        interrupts: [],
        writes: [
          { channel: 'log', value: ['a'] },
          { channel: 'branch:to:c', value: null },
        ],
      },
      {
        id: '~__pregel_pull, b',
        name: 'b',
        kind: 'pull',
        interrupts: [],
        writes: [
          { channel: 'log', value: ['b'] },
          { channel: 'branch:to:c', value: null },
        ],
      },
    ])
    expect(step1?.folds).toEqual([
      {
        channel: 'log',
        reducer: 'append',
        hadBefore: true,
        before: ['in'],
        hasAfter: true,
        after: ['in', 'a', 'b'],
        writes: [
          { task: 'a', value: ['a'] },
          { task: 'b', value: ['b'] },
        ],
      },
    ])
  })

  it('shows an interrupt and the resumed run, but not the resume value (NULL_TASK_ID)', async () => {
    const t = threadOf({
      state: [{ name: 'log', reducer: 'append', default: [] }],
      nodes: [node('ask', "(s) => ({ log: ['ask:' + interrupt('need')] })")],
      edges: [edge('__start__', 'ask')],
    })
    await t.invoke({})
    await t.invoke(new Command({ resume: 'yes' }))
    const [, paused, done] = await t.inspect()
    expect(paused?.next).toEqual(['ask'])
    expect(done?.ran).toEqual([
      {
        id: '~__pregel_pull, ask',
        name: 'ask',
        kind: 'pull',
        writes: [{ channel: 'log', value: ['ask:yes'] }],
        interrupts: [{ id: expect.stringMatching(/^[0-9a-f]{32}$/), value: 'need' }],
      },
    ])
  })

  it('keeps the error of a failed attempt beside the writes of the retry', async () => {
    const t = threadOf({
      state: [{ name: 'log', reducer: 'append', default: [] }],
      nodes: [
        node(
          'flaky',
          "(() => { let n = 0; return (s) => { if (n++ === 0) throw new TypeError('boom'); return { log: ['ok'] } } })()",
        ),
      ],
      edges: [edge('__start__', 'flaky')],
    })
    await t.invoke({})
    await t.invoke(null)
    const last = (await t.inspect()).at(-1)
    expect(last?.ran).toEqual([
      {
        id: '~__pregel_pull, flaky',
        name: 'flaky',
        kind: 'pull',
        interrupts: [],
        error: { name: 'TypeError', message: 'boom' },
        writes: [{ channel: 'log', value: ['ok'] }],
      },
    ])
  })

  it('lists nothing for an update', async () => {
    const t = threadOf({
      state: [{ name: 'x' }],
      nodes: [node('a', "(s) => ({ x: 'a' })")],
      edges: [edge('__start__', 'a')],
    })
    await t.invoke({})
    await t.runtime.updateState(t.cfg, { x: 'E' }, 'a')
    const update = (await t.inspect()).at(-1)
    expect(update?.source).toBe('update')
    expect(update?.ran).toEqual([])
    expect(update?.channels.filter((c) => c.changed).map((c) => c.name)).toEqual(['x'])
  })

  it('finds a node a resume Command sent to with goto, though it never ran before', async () => {
    const t = threadOf({
      state: [{ name: 'log', reducer: 'append', default: [] }],
      nodes: [
        node('ask', "(s) => ({ log: ['ask:' + interrupt('q')] })", { ends: ['b'] }),
        node('b', "(s) => ({ log: ['b'] })"),
      ],
      edges: [edge('__start__', 'ask')],
    })
    await t.invoke({})
    await t.invoke(new Command({ resume: 'yes', goto: 'b' }))
    const all = await t.inspect()
    expect(reasons(all.at(-2)).b).toBe(
      "will not run: `branch:to:b` holds a Command's write that has no version yet",
    )
    const ran = all.at(-1)?.ran
    expect(ran?.map((r) => [r.name, r.kind, r.writes])).toEqual([
      ['ask', 'pull', [{ channel: 'log', value: ['ask:yes'] }]],
      ['b', 'pull', [{ channel: 'log', value: ['b'] }]],
    ])
  })
})
