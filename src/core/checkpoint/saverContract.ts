/**
 * The CheckpointSaver contract as a reusable Vitest suite: every saver (MemorySaver, the Dexie
 * saver, wrappers) runs the same stories. A test helper: import it from `*.test.ts` only.
 */
import { describe, expect, it } from 'vitest'
import type {
  ChannelVersions,
  Checkpoint,
  CheckpointConfig,
  CheckpointMetadata,
  CheckpointSaver,
  CheckpointTuple,
  ListOptions,
  CheckpointAddress,
} from './types'

/** Reads a `list` to the end. */
export async function collectList(
  saver: CheckpointSaver,
  config: CheckpointConfig,
  options?: ListOptions,
): Promise<CheckpointTuple[]> {
  const out: CheckpointTuple[] = []
  for await (const t of saver.list(config, options)) out.push(t)
  return out
}

/** Checkpoint ids that sort the opposite way to put order, so no saver can lean on id order. */
const ckId = (n: number) => `ck-${String(9999 - n).padStart(4, '0')}`

function meta(step: number, source: CheckpointMetadata['source'] = 'loop'): CheckpointMetadata {
  return { source, step, parents: {} }
}

interface Step {
  id: string
  values: Record<string, unknown>
  versions: ChannelVersions
  /** Channels whose version changed (default: all of `versions`). */
  newVersions?: ChannelVersions
  seen?: Record<string, ChannelVersions>
}

function checkpointOf(s: Step, ts = '2026-01-01T00:00:00.000Z'): Checkpoint {
  return {
    v: 1,
    id: s.id,
    ts,
    channel_values: s.values,
    channel_versions: s.versions,
    versions_seen: s.seen ?? {},
  }
}

/** Puts `s` as a child of `parentId` (none: a thread's first checkpoint). */
async function putStep(
  saver: CheckpointSaver,
  threadId: string,
  parentId: string | undefined,
  s: Step,
  step = 0,
): Promise<CheckpointAddress> {
  const config: CheckpointConfig = parentId ? { threadId, checkpointId: parentId } : { threadId }
  return saver.put(config, checkpointOf(s), meta(step), s.newVersions ?? s.versions)
}

/** A straight chain of `n` checkpoints where `n` changes every step; returns their ids. */
async function putChain(saver: CheckpointSaver, threadId: string, n: number): Promise<string[]> {
  const ids: string[] = []
  for (let i = 0; i < n; i++) {
    const id = ckId(i)
    const first = i === 0
    await putStep(
      saver,
      threadId,
      ids.at(-1),
      {
        id,
        values: first ? { n: i, fixed: 'same' } : { n: i },
        versions: { n: i + 1, fixed: 1 },
        newVersions: first ? { n: 1, fixed: 1 } : { n: i + 1 },
      },
      i,
    )
    ids.push(id)
  }
  return ids
}

/**
 * Registers the contract's tests for the saver `makeSaver` returns (a fresh, empty one per
 * test): addressing, parent chain, history paging, value round-trips, incremental storage,
 * fork safety, pending-write rules, cloning, deletion and thread isolation.
 */
export function describeSaverContract(
  name: string,
  makeSaver: () => Promise<CheckpointSaver> | CheckpointSaver,
  options: {
    /** The saver stores subgraphs' namespaces; false: it must refuse a non-root one. */
    namespaces?: boolean
  } = { namespaces: true },
): void {
  describe(`${name}: CheckpointSaver contract`, () => {
    describeAddressing(makeSaver)
    describeHistory(makeSaver)
    describeValues(makeSaver)
    describePendingWrites(makeSaver)
    describeIsolation(makeSaver)
    if (options.namespaces !== false) describeNamespaces(makeSaver)
    else describeRefusedNamespaces(makeSaver)
  })
}

/** A subgraph's checkpoints live beside the root's, in their own namespace (LangGraph's checkpoint_ns). */
function describeNamespaces(makeSaver: () => Promise<CheckpointSaver> | CheckpointSaver): void {
  it('keeps each checkpoint namespace apart on one thread', async () => {
    const saver = await makeSaver()
    const [root] = await putChain(saver, 't', 2)
    const ns = 'team:abc'
    const inner = { threadId: 't', checkpointNs: ns }
    const first = await saver.put(
      inner,
      checkpointOf({ id: 'in-1', values: { y: 1 }, versions: { y: 1 } }),
      meta(-1, 'input'),
      { y: 1 },
    )
    expect(first).toEqual({ threadId: 't', checkpointId: 'in-1', checkpointNs: ns })
    const second = await saver.put(
      first,
      checkpointOf({ id: 'in-2', values: { y: 2 }, versions: { y: 2 } }),
      meta(0),
      { y: 2 },
    )
    await saver.putWrites(second, [['y', 3]], 'task')
    // The root's latest is still the root's.
    expect((await saver.getTuple({ threadId: 't' }))?.config.checkpointId).toBe(ckId(1))
    expect((await collectList(saver, { threadId: 't' })).map((t) => t.config.checkpointId)).toEqual(
      [ckId(1), root],
    )
    const latest = await saver.getTuple(inner)
    expect(latest?.config).toEqual({ threadId: 't', checkpointId: 'in-2', checkpointNs: ns })
    expect(latest?.parentConfig).toEqual(first)
    expect(latest?.checkpoint.channel_values).toEqual({ y: 2 })
    expect(latest?.pendingWrites).toEqual([['task', 'y', 3]])
    expect((await collectList(saver, inner)).map((t) => t.config.checkpointId)).toEqual([
      'in-2',
      'in-1',
    ])
    // An id of another namespace is not found in this one.
    expect(await saver.getTuple({ threadId: 't', checkpointId: 'in-1' })).toBeUndefined()
    await saver.deleteThread('t')
    expect(await saver.getTuple(inner)).toBeUndefined()
  })
}

/** A saver that only stores the root graph's checkpoints says so instead of mixing them up. */
function describeRefusedNamespaces(
  makeSaver: () => Promise<CheckpointSaver> | CheckpointSaver,
): void {
  it('refuses a subgraph namespace with a clear error', async () => {
    const saver = await makeSaver()
    const inner = { threadId: 't', checkpointNs: 'team:abc' }
    const ck = checkpointOf({ id: 'in-1', values: { y: 1 }, versions: { y: 1 } })
    await expect(saver.put(inner, ck, meta(-1, 'input'), { y: 1 })).rejects.toThrow(/team:abc/)
    await expect(saver.getTuple(inner)).rejects.toThrow(/subgraph/)
  })
}

type MakeSaver = () => Promise<CheckpointSaver> | CheckpointSaver

function describeAddressing(makeSaver: MakeSaver): void {
  it('returns nothing for an unknown thread or checkpoint', async () => {
    const saver = await makeSaver()
    expect(await saver.getTuple({ threadId: 'nope' })).toBeUndefined()
    await putChain(saver, 't', 1)
    expect(await saver.getTuple({ threadId: 't', checkpointId: 'missing' })).toBeUndefined()
    expect(await collectList(saver, { threadId: 'nope' })).toEqual([])
  })

  it('getTuple gives the last put without an id, and the addressed one with it', async () => {
    const saver = await makeSaver()
    const first = await saver.put(
      { threadId: 't' },
      {
        ...checkpointOf({ id: 'b-first', values: { x: 'one' }, versions: { x: 1 } }),
        ts: '2026-01-01T00:00:01.000Z',
      },
      meta(-1, 'input'),
      { x: 1 },
    )
    expect(first).toEqual({ threadId: 't', checkpointId: 'b-first' })
    const second = await saver.put(
      first,
      {
        ...checkpointOf({
          id: 'a-second',
          values: { x: 'two' },
          versions: { x: 2 },
          seen: { node: { x: 1 } },
        }),
        ts: '2026-01-01T00:00:02.000Z',
      },
      { source: 'loop', step: 0, parents: { '': 'p' } },
      { x: 2 },
    )
    expect(second).toEqual({ threadId: 't', checkpointId: 'a-second' })

    const latest = await saver.getTuple({ threadId: 't' })
    expect(latest).toEqual({
      config: { threadId: 't', checkpointId: 'a-second' },
      checkpoint: {
        v: 1,
        id: 'a-second',
        ts: '2026-01-01T00:00:02.000Z',
        channel_values: { x: 'two' },
        channel_versions: { x: 2 },
        versions_seen: { node: { x: 1 } },
      },
      metadata: { source: 'loop', step: 0, parents: { '': 'p' } },
      parentConfig: { threadId: 't', checkpointId: 'b-first' },
      pendingWrites: [],
    })
    const byId = await saver.getTuple({ threadId: 't', checkpointId: 'b-first' })
    expect(byId?.checkpoint.channel_values).toEqual({ x: 'one' })
    expect(byId?.metadata).toEqual(meta(-1, 'input'))
    expect(byId?.parentConfig).toBeUndefined()
  })

  it('chains parentConfig back to the first checkpoint', async () => {
    const saver = await makeSaver()
    const ids = await putChain(saver, 't', 5)
    const walked: string[] = []
    let t = await saver.getTuple({ threadId: 't' })
    while (t) {
      walked.push(t.config.checkpointId)
      t = t.parentConfig && (await saver.getTuple(t.parentConfig))
    }
    expect(walked).toEqual([...ids].reverse())
  })

  it('the newest is the last put, also when it forks from an older checkpoint', async () => {
    const saver = await makeSaver()
    const [a, b] = await putChain(saver, 't', 3)
    await putStep(saver, 't', a, {
      id: 'fork',
      values: { n: 'f' },
      versions: { n: 9, fixed: 1 },
      newVersions: { n: 9 },
    })
    const latest = await saver.getTuple({ threadId: 't' })
    expect(latest?.config.checkpointId).toBe('fork')
    expect(latest?.parentConfig?.checkpointId).toBe(a)
    expect(latest?.checkpoint.channel_values).toEqual({ n: 'f', fixed: 'same' })
    expect(
      (await saver.getTuple({ threadId: 't', checkpointId: b }))?.checkpoint.channel_values,
    ).toEqual({ n: 1, fixed: 'same' })
  })
}

function describeHistory(makeSaver: MakeSaver): void {
  it('lists newest first (put order, not id order), all branches interleaved', async () => {
    const saver = await makeSaver()
    const [a, b, c] = await putChain(saver, 't', 3)
    await putStep(saver, 't', a, {
      id: 'zz-fork',
      values: { n: 'f' },
      versions: { n: 9, fixed: 1 },
      newVersions: { n: 9 },
    })
    const all = await collectList(saver, { threadId: 't' })
    expect(all.map((t) => t.config.checkpointId)).toEqual(['zz-fork', c, b, a])
    // Each entry is the whole tuple, as getTuple gives it.
    for (const t of all) expect(t).toEqual(await saver.getTuple(t.config))
  })

  it('pages with limit and before (exclusive)', async () => {
    const saver = await makeSaver()
    const ids = await putChain(saver, 't', 23)
    const newestFirst = [...ids].reverse()
    const list = async (o: ListOptions) =>
      (await collectList(saver, { threadId: 't' }, o)).map((t) => t.config.checkpointId)
    expect(await list({ limit: 3 })).toEqual(newestFirst.slice(0, 3))
    expect(await list({ limit: 0 })).toEqual([])
    expect(await list({ before: ids[10] })).toEqual(newestFirst.slice(13))
    expect(await list({ before: ids[10], limit: 4 })).toEqual(newestFirst.slice(13, 17))
    expect(await list({ before: ids[0] })).toEqual([])
    expect(await list({ before: 'unknown-id' })).toEqual([])
    const paged: string[] = []
    for (let before: string | undefined; ;) {
      const page = await list(before === undefined ? { limit: 5 } : { limit: 5, before })
      paged.push(...page)
      if (page.length < 5) break
      before = page.at(-1)
    }
    expect(paged).toEqual(newestFirst)
  })

  it('a long history reads back whole', async () => {
    const saver = await makeSaver()
    const ids = await putChain(saver, 't', 120)
    const all = await collectList(saver, { threadId: 't' })
    expect(all.map((t) => t.config.checkpointId)).toEqual([...ids].reverse())
    expect(all.map((t) => t.checkpoint.channel_values.n)).toEqual(ids.map((_, i) => 119 - i))
    expect(all.every((t) => t.checkpoint.channel_values.fixed === 'same')).toBe(true)
  })
}

function describeValues(makeSaver: MakeSaver): void {
  it('round-trips JSON values: nested, null, empty string, arrays, falsy; and empty channels', async () => {
    const saver = await makeSaver()
    const values = {
      nested: { a: [1, { b: 'c', d: [true, false, null] }], e: { f: { g: 1.5 } } },
      nil: null,
      empty: '',
      list: [[], [1, 2], ['x']],
      emptyList: [],
      zero: 0,
      no: false,
      unicode: 'naïve ☃ \u0000 end',
    }
    const versions = { ...Object.fromEntries(Object.keys(values).map((k) => [k, 1])), cleared: 1 }
    await putStep(saver, 't', undefined, { id: 'c1', values, versions })
    const t = await saver.getTuple({ threadId: 't' })
    expect(t?.checkpoint.channel_values).toEqual(values)
    // Versioned but empty: the version is kept, the value absent.
    expect(t?.checkpoint.channel_versions.cleared).toBe(1)
    expect(t?.checkpoint.channel_values).not.toHaveProperty('cleared')
  })

  it('stores incrementally: a child given only its changed channels reads back every value', async () => {
    const saver = await makeSaver()
    const big = 'x'.repeat(10_000)
    await putStep(saver, 't', undefined, {
      id: 'c1',
      values: { big, n: 0, obj: { k: [1] }, gone: 'here' },
      versions: { big: 1, n: 1, obj: 1, gone: 1 },
    })
    await putStep(saver, 't', 'c1', {
      id: 'c2',
      values: { n: 1 },
      versions: { big: 1, n: 2, obj: 1, gone: 1 },
      newVersions: { n: 2 },
    })
    // `gone` is in newVersions but not in the values: it became empty.
    await putStep(saver, 't', 'c2', {
      id: 'c3',
      values: { obj: { k: [2] } },
      versions: { big: 1, n: 2, obj: 2, gone: 2 },
      newVersions: { obj: 2, gone: 2 },
    })
    const values = async (id: string) =>
      (await saver.getTuple({ threadId: 't', checkpointId: id }))?.checkpoint.channel_values
    expect(await values('c1')).toEqual({ big, n: 0, obj: { k: [1] }, gone: 'here' })
    expect(await values('c2')).toEqual({ big, n: 1, obj: { k: [1] }, gone: 'here' })
    expect(await values('c3')).toEqual({ big, n: 1, obj: { k: [2] } })
    expect((await saver.getTuple({ threadId: 't' }))?.checkpoint.channel_versions).toEqual({
      big: 1,
      n: 2,
      obj: 2,
      gone: 2,
    })
  })

  it('keeps forks apart: two children that both set x to version 5 read back their own', async () => {
    const saver = await makeSaver()
    await putStep(saver, 't', undefined, {
      id: 'p',
      values: { x: 'p', y: 'y' },
      versions: { x: 4, y: 1 },
    })
    for (const [id, x] of [
      ['left', 'L'],
      ['right', 'R'],
    ] as const)
      await putStep(saver, 't', 'p', {
        id,
        values: { x },
        versions: { x: 5, y: 1 },
        newVersions: { x: 5 },
      })
    // Grandchildren inherit x from their own parent.
    await putStep(saver, 't', 'left', {
      id: 'left-2',
      values: { y: 'y2' },
      versions: { x: 5, y: 2 },
      newVersions: { y: 2 },
    })
    const values = async (id: string) =>
      (await saver.getTuple({ threadId: 't', checkpointId: id }))?.checkpoint.channel_values
    expect(await values('left')).toEqual({ x: 'L', y: 'y' })
    expect(await values('right')).toEqual({ x: 'R', y: 'y' })
    expect(await values('left-2')).toEqual({ x: 'L', y: 'y2' })
    expect(await values('p')).toEqual({ x: 'p', y: 'y' })
  })

  it('stores copies: mutating values passed in, or anything read, changes nothing stored', async () => {
    const saver = await makeSaver()
    const values = { obj: { list: [1, 2], deep: { k: 'v' } }, n: 1 }
    const versions = { obj: 1, n: 1 }
    const cfg = await saver.put(
      { threadId: 't' },
      checkpointOf({ id: 'c1', values, versions }),
      meta(0),
      versions,
    )
    // Only values: put's contract lets a saver keep the version and metadata objects, which
    // the caller never mutates.
    values.obj.list.push(3)
    values.obj.deep.k = 'changed'
    values.n = 99
    const write = { payload: ['a'] }
    await saver.putWrites(cfg, [['obj', write]], 'task')
    write.payload.push('b')

    const expected = {
      v: 1,
      id: 'c1',
      ts: '2026-01-01T00:00:00.000Z',
      channel_values: { obj: { list: [1, 2], deep: { k: 'v' } }, n: 1 },
      channel_versions: { obj: 1, n: 1 },
    }
    const read = await saver.getTuple(cfg)
    expect(read?.checkpoint).toEqual({ ...expected, versions_seen: {} })
    expect(read?.metadata).toEqual(meta(0))
    expect(read?.pendingWrites).toEqual([['task', 'obj', { payload: ['a'] }]])

    const mutate = (t: CheckpointTuple | undefined) => {
      if (!t) throw new Error('no tuple')
      const obj = t.checkpoint.channel_values.obj as { list: number[] }
      obj.list.push(4)
      t.checkpoint.channel_values.n = 7
      t.checkpoint.channel_versions.n = 7
      t.checkpoint.versions_seen.node = { n: 7 }
      t.metadata.parents.y = 'changed'
      ;(t.pendingWrites[0]?.[2] as { payload: string[] }).payload.push('c')
    }
    mutate(read)
    mutate((await collectList(saver, { threadId: 't' }))[0])
    const again = await saver.getTuple(cfg)
    expect(again?.checkpoint).toEqual({ ...expected, versions_seen: {} })
    expect(again?.metadata).toEqual(meta(0))
    expect(again?.pendingWrites).toEqual([['task', 'obj', { payload: ['a'] }]])
  })
}

function describePendingWrites(makeSaver: MakeSaver): void {
  it('keeps the first regular write per (task, index) and upserts special channels in place', async () => {
    const saver = await makeSaver()
    const [id] = await putChain(saver, 't', 1)
    const cfg = { threadId: 't', checkpointId: id as string }
    await saver.putWrites(
      cfg,
      [
        ['a', 1],
        ['b', 2],
      ],
      'task1',
    )
    await saver.putWrites(cfg, [['__error__', { message: 'first' }]], 'task1')
    await saver.putWrites(cfg, [['x', 'other task']], 'task2')
    // (task1, 0) and (task1, 1) exist: kept, whatever the channel; (task1, 2) is new.
    await saver.putWrites(
      cfg,
      [
        ['a', 'retry'],
        ['c', 'dropped'],
        ['d', 'new'],
      ],
      'task1',
    )
    // The special write replaces task1's earlier one and keeps its position.
    await saver.putWrites(cfg, [['__error__', { message: 'second' }]], 'task1')
    await saver.putWrites(cfg, [['__interrupt__', ['i1']]], 'task2')
    await saver.putWrites(cfg, [['__interrupt__', ['i2']]], 'task2')
    expect((await saver.getTuple(cfg))?.pendingWrites).toEqual([
      ['task1', 'a', 1],
      ['task1', 'b', 2],
      ['task1', '__error__', { message: 'second' }],
      ['task2', 'x', 'other task'],
      ['task1', 'd', 'new'],
      ['task2', '__interrupt__', ['i2']],
    ])
  })

  it('indexes regular writes by their position in the call, special ones included', async () => {
    const saver = await makeSaver()
    const [id] = await putChain(saver, 't', 1)
    const cfg = { threadId: 't', checkpointId: id as string }
    await saver.putWrites(cfg, [['a', 'a0']], 't1')
    // 'b' sits at index 1: (t1, 1) is new, so it is stored; the resume write is special.
    await saver.putWrites(
      cfg,
      [
        ['__resume__', 'r1'],
        ['b', 'b1'],
      ],
      't1',
    )
    await saver.putWrites(cfg, [['z', 'dropped: (t1, 0) exists']], 't1')
    // Two special writes in one call: the later one wins, in the first one's place.
    await saver.putWrites(
      cfg,
      [
        ['__scheduled__', 's1'],
        ['__scheduled__', 's2'],
      ],
      't1',
    )
    await saver.putWrites(cfg, [['__resume__', 'r2']], 't1')
    await saver.putWrites(cfg, [], 't1')
    expect((await saver.getTuple(cfg))?.pendingWrites).toEqual([
      ['t1', 'a', 'a0'],
      ['t1', '__resume__', 'r2'],
      ['t1', 'b', 'b1'],
      ['t1', '__scheduled__', 's2'],
    ])
  })

  it("keeps each checkpoint's pending writes to itself", async () => {
    const saver = await makeSaver()
    const [a, b] = await putChain(saver, 't', 2)
    await saver.putWrites({ threadId: 't', checkpointId: a as string }, [['x', 'on a']], 'task')
    await saver.putWrites({ threadId: 't', checkpointId: b as string }, [['x', 'on b']], 'task')
    const [c] = await putChain(saver, 'u', 1)
    const writes = async (threadId: string, checkpointId: string) =>
      (await saver.getTuple({ threadId, checkpointId }))?.pendingWrites
    expect(await writes('t', a as string)).toEqual([['task', 'x', 'on a']])
    expect(await writes('t', b as string)).toEqual([['task', 'x', 'on b']])
    expect(await writes('u', c as string)).toEqual([])
    await putStep(saver, 't', b, {
      id: 'child',
      values: { n: 2 },
      versions: { n: 3, fixed: 1 },
      newVersions: { n: 3 },
    })
    expect(await writes('t', 'child')).toEqual([])
    const listed = await collectList(saver, { threadId: 't' })
    expect(listed.map((t) => t.pendingWrites)).toEqual([
      [],
      [['task', 'x', 'on b']],
      [['task', 'x', 'on a']],
    ])
  })

  it('rejects pending writes for a checkpoint that is not stored', async () => {
    const saver = await makeSaver()
    await putChain(saver, 't', 1)
    await expect(
      saver.putWrites({ threadId: 't', checkpointId: 'missing' }, [['x', 1]], 'task'),
    ).rejects.toThrow(/missing/)
    await expect(
      saver.putWrites({ threadId: 'other', checkpointId: ckId(0) }, [['x', 1]], 'task'),
    ).rejects.toThrow()
  })
}

function describeIsolation(makeSaver: MakeSaver): void {
  it('keeps threads apart, even with equal checkpoint ids', async () => {
    const saver = await makeSaver()
    await putStep(saver, 'a', undefined, { id: 'same', values: { x: 'A' }, versions: { x: 1 } })
    await putStep(saver, 'b', undefined, { id: 'same', values: { x: 'B' }, versions: { x: 1 } })
    await putStep(saver, 'b', 'same', { id: 'b2', values: { x: 'B2' }, versions: { x: 2 } })
    await saver.putWrites({ threadId: 'a', checkpointId: 'same' }, [['w', 'A']], 'task')
    expect((await saver.getTuple({ threadId: 'a' }))?.checkpoint.channel_values).toEqual({ x: 'A' })
    expect(
      (await saver.getTuple({ threadId: 'b', checkpointId: 'same' }))?.checkpoint.channel_values,
    ).toEqual({ x: 'B' })
    expect((await saver.getTuple({ threadId: 'b', checkpointId: 'same' }))?.pendingWrites).toEqual(
      [],
    )
    expect((await collectList(saver, { threadId: 'a' })).map((t) => t.config)).toEqual([
      { threadId: 'a', checkpointId: 'same' },
    ])
    expect((await collectList(saver, { threadId: 'b' })).map((t) => t.config.checkpointId)).toEqual(
      ['b2', 'same'],
    )
  })

  it('deleteThread removes one thread whole and leaves the others', async () => {
    const saver = await makeSaver()
    const [a] = await putChain(saver, 'gone', 4)
    await saver.putWrites({ threadId: 'gone', checkpointId: a as string }, [['x', 1]], 'task')
    await putChain(saver, 'kept', 2)
    await saver.deleteThread('gone')
    await saver.deleteThread('never-existed')
    expect(await saver.getTuple({ threadId: 'gone' })).toBeUndefined()
    expect(await saver.getTuple({ threadId: 'gone', checkpointId: a as string })).toBeUndefined()
    expect(await collectList(saver, { threadId: 'gone' })).toEqual([])
    expect(await collectList(saver, { threadId: 'kept' })).toHaveLength(2)
    // The thread id can be used again from scratch.
    await putStep(saver, 'gone', undefined, { id: 'fresh', values: { x: 1 }, versions: { x: 1 } })
    const fresh = await collectList(saver, { threadId: 'gone' })
    expect(fresh.map((t) => [t.config.checkpointId, t.pendingWrites])).toEqual([['fresh', []]])
    expect(fresh[0]?.checkpoint.channel_values).toEqual({ x: 1 })
  })
}
