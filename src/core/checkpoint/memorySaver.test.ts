import { describe, expect, it } from 'vitest'
import { createCountingEnv } from '../../lib/env'
import { compileGraph } from '../compile/compileGraph'
import { evaluateLocally } from '../compile/evaluate'
import { parseGraph } from '../graph/validate'
import { GraphRuntime } from '../pregel/runtime'
import { MemorySaver } from './memorySaver'
import type {
  ChannelVersions,
  Checkpoint,
  CheckpointConfig,
  CheckpointMetadata,
  CheckpointTuple,
} from './types'

const T = 'thread'
const MB = 1_000_000

function checkpoint(
  id: string,
  values: Record<string, unknown>,
  versions: ChannelVersions,
  seen: Record<string, ChannelVersions> = {},
): Checkpoint {
  return {
    v: 1,
    id,
    ts: `2026-01-01T00:00:00.${id.padStart(3, '0')}Z`,
    channel_values: values,
    channel_versions: versions,
    versions_seen: seen,
  }
}

const meta = (step: number, source: CheckpointMetadata['source'] = 'loop'): CheckpointMetadata => ({
  source,
  step,
  parents: {},
})

/** Puts `id` as a child of `parent`, declaring `changed` as the new versions. */
function put(
  saver: MemorySaver,
  parent: string | undefined,
  id: string,
  values: Record<string, unknown>,
  versions: ChannelVersions,
  changed: ChannelVersions = versions,
  step = 0,
) {
  const config: CheckpointConfig = parent ? { threadId: T, checkpointId: parent } : { threadId: T }
  return saver.put(config, checkpoint(id, values, versions), meta(step), changed)
}

async function all(
  saver: MemorySaver,
  options?: { limit?: number; before?: string },
): Promise<CheckpointTuple[]> {
  const out: CheckpointTuple[] = []
  for await (const t of saver.list({ threadId: T }, options)) out.push(t)
  return out
}

const ids = (tuples: CheckpointTuple[]) => tuples.map((t) => t.checkpoint.id)

/** Three checkpoints 1 → 2 → 3, x at versions 1, 2, 3 with values 'x1', 'x2', 'x3'. */
async function threeInARow() {
  const saver = new MemorySaver()
  await put(saver, undefined, '1', { x: 'x1' }, { x: 1 }, { x: 1 }, -1)
  await put(saver, '1', '2', { x: 'x2' }, { x: 2 }, { x: 2 }, 0)
  await put(saver, '2', '3', { x: 'x3' }, { x: 3 }, { x: 3 }, 1)
  return saver
}

describe('incremental storage', () => {
  it('stores an untouched channel once, however many checkpoints carry it', async () => {
    const saver = new MemorySaver()
    const big = 'x'.repeat(MB)
    await put(saver, undefined, '0', { big, n: 0 }, { big: 1, n: 1 })
    for (let i = 1; i <= 200; i++) {
      await put(saver, String(i - 1), String(i), { big, n: i }, { big: 1, n: i + 1 }, { n: i + 1 })
    }
    expect(saver.storedBytes()).toBeGreaterThan(MB)
    expect(saver.storedBytes()).toBeLessThan(1.01 * MB)
    const latest = await saver.getTuple({ threadId: T })
    expect(latest?.checkpoint.channel_values).toEqual({ big, n: 200 })
  })

  it('a 1 MB field untouched over 200 super-steps of a real run stays near 1 MB', async () => {
    const parsed = parseGraph({
      superstep: 1,
      name: 'big',
      state: [{ name: 'n' }, { name: 'big' }],
      nodes: [
        {
          id: 'inc',
          code: "(s) => (s.n === 0 ? { n: 1, big: 'x'.repeat(1000000) } : { n: s.n + 1 })",
        },
      ],
      edges: [{ from: '__start__', to: 'inc' }],
      branches: [{ from: 'inc', router: "(s) => (s.n < 200 ? 'inc' : '__end__')" }],
    })
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues))
    const env = createCountingEnv()
    const saver = new MemorySaver()
    const graph = compileGraph(parsed.spec, { evaluate: evaluateLocally, newId: env.newId })
    const runtime = new GraphRuntime({ graph, saver, env })
    expect((await runtime.invoke({ n: 0 }, { threadId: T, recursionLimit: 300 })).status).toBe(
      'done',
    )

    const latest = await saver.getTuple({ threadId: T })
    expect(latest?.metadata.step).toBe(200)
    expect(latest?.checkpoint.channel_values.n).toBe(200)
    expect((latest?.checkpoint.channel_values.big as string).length).toBe(MB)
    expect(saver.storedBytes()).toBeGreaterThan(MB)
    expect(saver.storedBytes()).toBeLessThan(1.1 * MB)
  })

  it('a channel whose new version is empty reads back as absent, not as its old value', async () => {
    const saver = new MemorySaver()
    await put(saver, undefined, '1', { __start__: { x: 1 } }, { __start__: 1 })
    await put(saver, '1', '2', { x: 1 }, { __start__: 2, x: 2 })
    const t = await saver.getTuple({ threadId: T, checkpointId: '2' })
    expect(t?.checkpoint.channel_values).toEqual({ x: 1 })
    expect(t?.checkpoint.channel_versions).toEqual({ __start__: 2, x: 2 })
  })
})

describe('reading checkpoints back', () => {
  it('getTuple without an id gives the latest, with an id that checkpoint', async () => {
    const saver = await threeInARow()
    const latest = await saver.getTuple({ threadId: T })
    expect(latest?.config).toEqual({ threadId: T, checkpointId: '3' })
    expect(latest?.checkpoint.channel_values).toEqual({ x: 'x3' })
    expect(latest?.metadata).toEqual(meta(1))
    const old = await saver.getTuple({ threadId: T, checkpointId: '1' })
    expect(old?.checkpoint.channel_values).toEqual({ x: 'x1' })
    expect(old?.metadata.step).toBe(-1)
  })

  it('getTuple of an unknown thread or checkpoint is undefined', async () => {
    const saver = await threeInARow()
    expect(await saver.getTuple({ threadId: 'other' })).toBeUndefined()
    expect(await saver.getTuple({ threadId: T, checkpointId: 'nope' })).toBeUndefined()
  })

  it('each checkpoint points to its parent', async () => {
    const saver = await threeInARow()
    const chain = (await all(saver)).map((t) => [t.config.checkpointId, t.parentConfig])
    expect(chain).toEqual([
      ['3', { threadId: T, checkpointId: '2' }],
      ['2', { threadId: T, checkpointId: '1' }],
      ['1', undefined],
    ])
  })

  it('lists newest first, with limit and before (exclusive)', async () => {
    const saver = await threeInARow()
    expect(ids(await all(saver))).toEqual(['3', '2', '1'])
    expect(ids(await all(saver, { limit: 2 }))).toEqual(['3', '2'])
    expect(ids(await all(saver, { before: '3' }))).toEqual(['2', '1'])
    expect(ids(await all(saver, { before: '3', limit: 1 }))).toEqual(['2'])
    expect(ids(await all(saver, { before: '1' }))).toEqual([])
    expect(ids(await all(saver, { limit: 0 }))).toEqual([])
  })

  it('lists only the thread asked for; deleteThread forgets a thread', async () => {
    const saver = await threeInARow()
    await saver.put({ threadId: 'other' }, checkpoint('o', { y: 1 }, { y: 1 }), meta(-1), { y: 1 })
    expect(ids(await all(saver))).toEqual(['3', '2', '1'])
    await saver.deleteThread(T)
    expect(await all(saver)).toEqual([])
    expect((await saver.getTuple({ threadId: 'other' }))?.checkpoint.channel_values).toEqual({
      y: 1,
    })
  })

  it('keeps channel_versions and versions_seen of each checkpoint', async () => {
    const saver = new MemorySaver()
    await saver.put(
      { threadId: T },
      checkpoint('1', { x: 1 }, { x: 1, __start__: 1 }, { __start__: { __start__: 1 } }),
      meta(0),
      { x: 1, __start__: 1 },
    )
    const t = await saver.getTuple({ threadId: T })
    expect(t?.checkpoint.channel_versions).toEqual({ x: 1, __start__: 1 })
    expect(t?.checkpoint.versions_seen).toEqual({ __start__: { __start__: 1 } })
  })
})

describe('pending writes', () => {
  it('are attached to the checkpoint they were put against, in order, with their task id', async () => {
    const saver = await threeInARow()
    await saver.putWrites(
      { threadId: T, checkpointId: '2' },
      [
        ['x', 'a'],
        ['log', ['a']],
      ],
      'task-a',
    )
    await saver.putWrites({ threadId: T, checkpointId: '2' }, [['__error__', { m: 1 }]], 'task-b')
    expect((await saver.getTuple({ threadId: T, checkpointId: '2' }))?.pendingWrites).toEqual([
      ['task-a', 'x', 'a'],
      ['task-a', 'log', ['a']],
      ['task-b', '__error__', { m: 1 }],
    ])
    expect((await saver.getTuple({ threadId: T }))?.pendingWrites).toEqual([])
  })

  // CheckpointSaver.putWrites (types.ts) promises LangGraph's rules (its MemorySaver keys
  // writes by [taskId, WRITES_IDX_MAP[channel] ?? index]): a regular write already stored
  // for (task, index) is kept, so putting a task's writes twice stores them once.
  it('keeps the first regular write of a task at an index when the writes are put again', async () => {
    const saver = await threeInARow()
    const cfg = { threadId: T, checkpointId: '3' }
    await saver.putWrites(cfg, [['x', 'first']], 'task-a')
    await saver.putWrites(cfg, [['x', 'second']], 'task-a')
    expect((await saver.getTuple(cfg))?.pendingWrites).toEqual([['task-a', 'x', 'first']])
  })

  // Same contract: a write to a special channel (`__error__`, `__interrupt__`, …) replaces
  // the task's earlier one, in the place where the first was stored.
  it('replaces a task’s earlier __error__ write in place', async () => {
    const saver = await threeInARow()
    const cfg = { threadId: T, checkpointId: '3' }
    await saver.putWrites(cfg, [['__error__', 'old']], 'task-a')
    await saver.putWrites(cfg, [['x', 1]], 'task-b')
    await saver.putWrites(cfg, [['__error__', 'new']], 'task-a')
    expect((await saver.getTuple(cfg))?.pendingWrites).toEqual([
      ['task-a', '__error__', 'new'],
      ['task-b', 'x', 1],
    ])
  })

  it('cannot be put against a checkpoint that does not exist', async () => {
    const saver = await threeInARow()
    await expect(
      saver.putWrites({ threadId: T, checkpointId: 'nope' }, [['x', 1]], 'task'),
    ).rejects.toThrow(/nope/)
  })
})

describe('values are copies', () => {
  it('mutating a value after put, or a write after putWrites, does not change the store', async () => {
    const saver = new MemorySaver()
    const values = { obj: { list: [1] } }
    const write = { w: [1] }
    await saver.put({ threadId: T }, checkpoint('1', values, { obj: 1 }), meta(0), { obj: 1 })
    await saver.putWrites({ threadId: T, checkpointId: '1' }, [['obj', write]], 'task')
    values.obj.list.push(2)
    write.w.push(2)

    const t = await saver.getTuple({ threadId: T })
    expect(t?.checkpoint.channel_values).toEqual({ obj: { list: [1] } })
    expect(t?.pendingWrites).toEqual([['task', 'obj', { w: [1] }]])
  })

  it('mutating anything getTuple returned does not change the next read', async () => {
    const saver = new MemorySaver()
    await saver.put(
      { threadId: T },
      checkpoint('1', { obj: { list: [1] } }, { obj: 1 }, { a: { 'branch:to:a': 1 } }),
      meta(0),
      { obj: 1 },
    )
    await saver.putWrites({ threadId: T, checkpointId: '1' }, [['obj', { w: [1] }]], 'task')

    const first = (await saver.getTuple({ threadId: T })) as CheckpointTuple
    ;(first.checkpoint.channel_values.obj as { list: number[] }).list.push(3)
    first.checkpoint.channel_versions.obj = 7
    ;(first.checkpoint.versions_seen.a as ChannelVersions)['branch:to:a'] = 99
    first.metadata.step = 42
    first.metadata.parents.x = 'y'
    ;(first.pendingWrites[0]?.[2] as { w: number[] }).w.push(3)

    const second = await saver.getTuple({ threadId: T })
    expect(second?.checkpoint.channel_values).toEqual({ obj: { list: [1] } })
    expect(second?.checkpoint.channel_versions).toEqual({ obj: 1 })
    expect(second?.checkpoint.versions_seen).toEqual({ a: { 'branch:to:a': 1 } })
    expect(second?.metadata).toEqual(meta(0))
    expect(second?.pendingWrites).toEqual([['task', 'obj', { w: [1] }]])
  })
})

describe('forks', () => {
  it('two children of one parent with the same new version of x keep their own values', async () => {
    const saver = new MemorySaver()
    await put(saver, undefined, 'p', { x: 'parent', y: 'shared' }, { x: 4, y: 1 })
    await put(saver, 'p', 'a', { x: 'from a', y: 'shared' }, { x: 5, y: 1 }, { x: 5 })
    await put(saver, 'p', 'b', { x: 'from b', y: 'shared' }, { x: 5, y: 1 }, { x: 5 })

    const read = async (id: string) =>
      (await saver.getTuple({ threadId: T, checkpointId: id }))?.checkpoint.channel_values
    expect(await read('a')).toEqual({ x: 'from a', y: 'shared' })
    expect(await read('b')).toEqual({ x: 'from b', y: 'shared' })
    expect(await read('p')).toEqual({ x: 'parent', y: 'shared' })
  })

  it('descendants of each branch inherit that branch’s value', async () => {
    const saver = new MemorySaver()
    await put(saver, undefined, 'p', { x: 'parent' }, { x: 4 })
    await put(saver, 'p', 'a', { x: 'from a' }, { x: 5 }, { x: 5 })
    await put(saver, 'p', 'b', { x: 'from b' }, { x: 5 }, { x: 5 })
    await put(saver, 'a', 'a2', { x: 'from a', n: 1 }, { x: 5, n: 6 }, { n: 6 })
    await put(saver, 'b', 'b2', { x: 'from b', n: 2 }, { x: 5, n: 6 }, { n: 6 })

    const read = async (id: string) =>
      (await saver.getTuple({ threadId: T, checkpointId: id }))?.checkpoint.channel_values
    expect(await read('a2')).toEqual({ x: 'from a', n: 1 })
    expect(await read('b2')).toEqual({ x: 'from b', n: 2 })
    expect(ids(await all(saver))).toEqual(['b2', 'a2', 'b', 'a', 'p'])
    expect((await saver.getTuple({ threadId: T }))?.parentConfig?.checkpointId).toBe('b')
  })
})

describe('MemorySaver, incremental puts (deltas of the parent)', () => {
  /**
   * A caller as the loop is: one working versions / versions_seen pair, mutated after each
   * put, each step changing one channel and replacing one node's seen entry.
   */
  async function putSteps(saver: MemorySaver, steps: number, from?: CheckpointConfig) {
    const versions: ChannelVersions = { a: 1, b: 1 }
    const seen: Record<string, ChannelVersions> = { n0: { a: 1 } }
    const expected: { id: string; versions: ChannelVersions; seen: typeof seen; a: unknown }[] = []
    let config: CheckpointConfig = from ?? { threadId: T }
    for (let i = 0; i < steps; i++) {
      const changed = new Set<string>()
      const newVersions: ChannelVersions = {}
      if (i === 0 && !from) Object.assign(newVersions, versions)
      else {
        versions.a = (versions.a as number) + 1
        newVersions.a = versions.a
        if (i % 5 === 0) {
          versions[`c${i}`] = versions.a
          newVersions[`c${i}`] = versions.a
        }
        seen[`n${i % 3}`] = { a: versions.a }
        changed.add(`n${i % 3}`)
      }
      const id = `${from ? 'f' : 'c'}${String(i).padStart(4, '0')}`
      const values: Record<string, unknown> = {}
      for (const ch in newVersions) values[ch] = { step: i, ch }
      config = await saver.put(
        config,
        {
          v: 1,
          id,
          ts: `t${i}`,
          channel_values: values,
          channel_versions: versions,
          versions_seen: seen,
        },
        { source: 'loop', step: i, parents: {} },
        newVersions,
        changed,
      )
      expected.push({ id, versions: { ...versions }, seen: { ...seen }, a: { step: i, ch: 'a' } })
    }
    return expected
  }

  it('reads back every checkpoint as it was, however many deltas deep', async () => {
    const saver = new MemorySaver()
    const expected = await putSteps(saver, 100)
    for (const e of expected) {
      const t = await saver.getTuple({ threadId: T, checkpointId: e.id })
      expect(t?.checkpoint.channel_versions).toEqual(e.versions)
      expect(t?.checkpoint.versions_seen).toEqual(e.seen)
      expect(t?.checkpoint.channel_values.a).toEqual(e.a)
      expect(t?.checkpoint.channel_values.b).toEqual({ step: 0, ch: 'b' })
    }
    const listed = []
    for await (const t of saver.list({ threadId: T })) listed.push(t.checkpoint.id)
    expect(listed).toEqual(expected.map((e) => e.id).reverse())
  })

  it('forks from a checkpoint in the middle of a delta chain without touching the chain', async () => {
    const saver = new MemorySaver()
    const main = await putSteps(saver, 50)
    const at = main[40] as (typeof main)[number]
    const fork = await putSteps(saver, 40, { threadId: T, checkpointId: at.id })
    const first = await saver.getTuple({ threadId: T, checkpointId: fork[0]?.id as string })
    // The fork's first put changed one channel of the parent's state; the rest is inherited.
    expect(first?.checkpoint.channel_versions.b).toBe(1)
    expect(first?.checkpoint.channel_values.b).toEqual({ step: 0, ch: 'b' })
    const again = await saver.getTuple({ threadId: T, checkpointId: at.id })
    expect(again?.checkpoint.channel_versions).toEqual(at.versions)
    expect(again?.checkpoint.versions_seen).toEqual(at.seen)
  })
})
