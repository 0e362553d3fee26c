import { memoryThreadLocks } from './threadLocks'
import 'fake-indexeddb/auto'
import { Dexie } from 'dexie'
import { afterEach, describe, expect, it } from 'vitest'
import { makeThreadFile } from '../../bench/threadFiles'
import type { ChannelVersions, Checkpoint } from '../core/checkpoint/types'
import type { DexieCheckpointSaver } from '../persistence/dexieSaver'
import type { ThreadFile } from '../persistence/threadFile'
import type { WorkerEvent } from './protocol'
import { chain, closeAll, setup, teamOf } from './serviceHarness'
import type { WorkerStorage } from './storage'
import { IMPORT_BATCH } from './threadTransfer'

afterEach(closeAll)

/** The pre-batching import, kept as the reference: one saver call per checkpoint and task. */
async function importOneByOne(s: WorkerStorage, file: ThreadFile, threadId: string) {
  const checkpointOf = new Map<string, Checkpoint>()
  for (const t of file.checkpoints) {
    const parentId = t.parentConfig?.checkpointId
    const parent = parentId === undefined ? undefined : checkpointOf.get(parentId)
    const { checkpoint } = t
    const changed: ChannelVersions = {}
    for (const [ch, v] of Object.entries(checkpoint.channel_versions))
      if (parent?.channel_versions[ch] !== v) changed[ch] = v
    // What changed, as a run's loop tells an incremental saver.
    const seen = new Set<string>()
    for (const [name, entry] of Object.entries(checkpoint.versions_seen))
      if (JSON.stringify(parent?.versions_seen[name]) !== JSON.stringify(entry)) seen.add(name)
    await s.saver.put(
      { threadId, ...(parentId !== undefined && { checkpointId: parentId }) },
      checkpoint,
      t.metadata,
      parent ? changed : checkpoint.channel_versions,
      seen,
    )
    checkpointOf.set(checkpoint.id, checkpoint)
    const byTask = new Map<string, [string, unknown][]>()
    for (const [taskId, ch, v] of t.pendingWrites) {
      const list = byTask.get(taskId) ?? []
      list.push([ch, v])
      byTask.set(taskId, list)
    }
    for (const [taskId, writes] of byTask)
      await s.saver.putWrites({ threadId, checkpointId: checkpoint.id }, writes, taskId)
  }
  await s.taskRuns.record(file.taskRuns.map((r) => ({ ...r, threadId })))
  await s.threads.put({ threadId, graph: 'g', name: 'same', createdAt: 'then' })
}

/** Every row stored under a thread, without the thread id; write rows in id order, no ids. */
async function rowsOf(s: WorkerStorage, threadId: string) {
  const db = (s.saver as DexieCheckpointSaver).db
  const range = <T>(table: Dexie.Table<T>, index: string) =>
    table.where(index).between([threadId, Dexie.minKey], [threadId, Dexie.maxKey]).toArray()
  const strip = <T extends { threadId: string }>(rows: T[]) =>
    rows.map(({ threadId: _, ...r }) => r as Record<string, unknown>)
  const row = await db.threads.get(threadId)
  const byTask = (a: { taskId: string }, b: { taskId: string }) =>
    a.taskId < b.taskId ? -1 : a.taskId > b.taskId ? 1 : 0
  const checkpoints = strip(await range(db.checkpoints, '[threadId+seq]'))
  // The stored values, as value rows or held by their delta rows alike (the same history may
  // store a checkpoint whole in one thread, as a delta in another).
  const held = checkpoints.flatMap(({ checkpointId, values }) =>
    Object.entries((values ?? {}) as Record<string, object>).map(([channel, v]) => ({
      checkpointId,
      channel,
      ...v,
    })),
  )
  const blobs = [...strip(await range(db.blobs, '[threadId+checkpointId+channel]')), ...held]
  const order = (r: Record<string, unknown>) => `${String(r.checkpointId)}\0${String(r.channel)}`
  return {
    // With their pending writes (in the order first stored) and task runs (by task).
    checkpoints: checkpoints.map(({ values: _, ...r }) =>
      Array.isArray(r.runs)
        ? { ...r, runs: [...(r.runs as { taskId: string }[])].sort(byTask) }
        : r,
    ),
    blobs: blobs.sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0)),
    row: row && { ...row, threadId: '', createdAt: '' },
  }
}

/** A forked thread whose newest checkpoint waits at an interrupt (special pending writes). */
async function forkedThread(t: Awaited<ReturnType<typeof setup>>, threadId: string) {
  const graphId = await t.compile({
    ...chain,
    nodes: [chain.nodes[0], { id: 'b', code: "(s) => ({ x: interrupt('who?') })" }],
  })
  const base = { graphId, threadId, mode: 'toEnd' } as const
  await t.client.request('createThread', { threadId, graph: 'g', name: 'source' })
  await t.client.request('run', { ...base, input: { x: 'in' } })
  await t.client.request('run', { ...base, input: null, command: { resume: 'Ada' } })
  const history = await t.client.request('getHistory', { graphId, threadId })
  const checkpointId = history.find((h) => h.metadata.step === 0)?.config.checkpointId
  await t.client.request('updateState', { graphId, threadId, checkpointId, values: { x: 'e' } })
  await t.client.request('run', { ...base, input: null })
  return graphId
}

const transfers = (events: WorkerEvent[], threadId: string) =>
  events.flatMap((e) => (e.type === 'thread_transfer' && e.threadId === threadId ? [e] : []))

describe('big thread files', () => {
  it('imports in batches exactly the rows the saver writes one call at a time', async () => {
    const t = await setup()
    await forkedThread(t, 'g:src')
    const forked = await t.client.request('exportThread', { threadId: 'g:src' })
    const long = (await makeThreadFile(IMPORT_BATCH + 150)) as unknown as ThreadFile
    for (const [name, file] of [
      ['forked', forked],
      ['long', long],
    ] as const) {
      await importOneByOne(t.storage(), file, `g:${name}-old`)
      await t.client.request('importThread', {
        file,
        threadId: `g:${name}-new`,
        graph: 'g',
        name: 'same',
      })
      const [old, batched] = [
        await rowsOf(t.storage(), `g:${name}-old`),
        await rowsOf(t.storage(), `g:${name}-new`),
      ]
      expect(batched.checkpoints.length).toBe(file.checkpoints.length)
      expect(batched).toEqual(old)
    }
    const forkedRows = (await rowsOf(t.storage(), 'g:forked-new')).checkpoints
    expect(
      forkedRows
        .flatMap((r) => (r.writes as { channel: string }[] | undefined) ?? [])
        .map((w) => w.channel),
    ).toContain('__interrupt__')
    // Progress: from 0, one event per batch, then done.
    const progress = transfers(t.events, 'g:long-new').map((e) => [e.done, e.state])
    expect(progress).toEqual([
      [0, 'running'],
      [IMPORT_BATCH, 'running'],
      [long.checkpoints.length, 'running'],
      [long.checkpoints.length, 'done'],
    ])
  })

  it('exports the text the page used to write, as one Blob, reporting progress', async () => {
    const t = await setup()
    await forkedThread(t, 'g:src')
    const file = await t.client.request('exportThread', { threadId: 'g:src' })
    const out = await t.client.request('exportThreadFile', {
      threadId: 'g:src',
      name: 'renamed',
      graph: chain,
    })
    const before = `${JSON.stringify({ ...file, name: 'renamed', graph: chain }, null, 2)}\n`
    expect(out.count).toBe(6)
    expect(await out.file.text()).toBe(before)
    expect(transfers(t.events, 'g:src').at(-1)).toMatchObject({ done: 6, total: 6, state: 'done' })
    // Read back by the worker and imported by reference: the same history.
    const read = await t.client.request('readThreadFile', { file: out.file })
    expect(read).toMatchObject({ name: 'renamed', graph: chain, count: 6 })
    const staged = { superstepThread: 1, staged: read.fileId }
    await t.client.request('importThread', { file: staged, threadId: 'g:b', graph: 'g', name: 'b' })
    // The same value rows; checkpoints that read back the same (the run stored its fork
    // whole, the import as a delta: either form reads as the same tuple).
    const [b, src] = [await rowsOf(t.storage(), 'g:b'), await rowsOf(t.storage(), 'g:src')]
    expect(b.blobs).toEqual(src.blobs)
    const again = await t.client.request('exportThread', { threadId: 'g:b' })
    const states = (f: typeof file) =>
      JSON.parse(
        JSON.stringify(f.checkpoints.map((c) => [c.config.checkpointId, c.checkpoint, c.metadata])),
      )
    expect(states(again)).toEqual(states(file))
    await expect(
      t.client.request('readThreadFile', { file: new Blob(['{"superstepThread": 1']) }),
    ).rejects.toMatchObject({ code: 'BAD_THREAD_FILE', message: expect.stringContaining('JSON') })
  })

  it('a cancelled import keeps nothing', async () => {
    const t = await setup()
    const file = await makeThreadFile(IMPORT_BATCH * 4)
    t.client.on((e) => {
      if (e.type === 'thread_transfer' && e.done === IMPORT_BATCH)
        void t.client.request('cancelTransfer', { threadId: 'g:big' })
    })
    await expect(
      t.client.request('importThread', { file, threadId: 'g:big', graph: 'g', name: 'big' }),
    ).rejects.toMatchObject({
      code: 'TRANSFER_CANCELLED',
      message: expect.stringContaining('g:big'),
    })
    expect(transfers(t.events, 'g:big').at(-1)).toMatchObject({ state: 'cancelled' })
    expect(await rowsOf(t.storage(), 'g:big')).toEqual({
      checkpoints: [],
      blobs: [],
      row: undefined,
    })
  })

  it('deletes an import that never finished and says so, but not one still going', async () => {
    const t = await setup()
    const file = (await makeThreadFile(250)) as unknown as ThreadFile
    const { imports } = t.storage()
    // A browser killed halfway: the marked row and one batch, last marked long ago.
    const row = { threadId: 'g:killed', graph: 'gone', name: 'half', createdAt: 'then' }
    const cursor = await imports.begin(row, '2020-01-01T00:00:00.000Z')
    await imports.writeBatch(
      cursor,
      file.checkpoints.slice(0, 120),
      [],
      row,
      '2020-01-01T00:00:01.000Z',
    )
    // Another tab's import, marked just now.
    const live = { ...row, threadId: 'g:live', name: 'live' }
    await imports.begin(live, new Date().toISOString())
    expect(await t.client.request('listThreads', {})).not.toContainEqual(
      expect.objectContaining({ threadId: 'g:killed' }),
    )
    expect(await rowsOf(t.storage(), 'g:killed')).toMatchObject({ checkpoints: [], blobs: [] })
    expect((await imports.importing()).map((r) => r.threadId)).toEqual(['g:live'])
    expect(t.events.filter((e) => e.type === 'import_cleaned')).toEqual([
      { type: 'import_cleaned', threadId: 'g:killed', name: 'half', count: 120 },
    ])
  })

  it('with thread locks, an import whose lock is free is cleaned at once; a held one is not', async () => {
    const held = new Set<string>()
    const t = await setup({ locks: memoryThreadLocks(held) })
    const { imports } = t.storage()
    const now = new Date().toISOString()
    // Both marked just now: the time rule alone would keep both.
    const row = { threadId: 'g:killed', graph: 'gone', name: 'half', createdAt: now }
    await imports.begin(row, now)
    await imports.begin({ ...row, threadId: 'g:live', name: 'live' }, now)
    held.add('g:live') // another tab imports it
    await t.client.request('listThreads', {})
    expect((await imports.importing()).map((r) => r.threadId)).toEqual(['g:live'])
    expect(t.events.filter((e) => e.type === 'import_cleaned')).toEqual([
      { type: 'import_cleaned', threadId: 'g:killed', name: 'half', count: 0 },
    ])
    // An import refuses a thread another tab holds.
    const file = await makeThreadFile(3)
    await expect(
      t.client.request('importThread', { file, threadId: 'g:live', graph: 'g', name: 'x' }),
    ).rejects.toMatchObject({ code: 'RUNNING_ELSEWHERE' })
  })

  it("a thread file keeps the subgraphs' checkpoints: imported, it resumes inside the subgraph", async () => {
    const t = await setup()
    const graphId = await t.compile(
      teamOf({
        ...chain,
        nodes: [chain.nodes[0], { id: 'b', code: "(s) => ({ x: interrupt('who?') })" }],
      }),
    )
    await t.client.request('createThread', { threadId: 'g:src', graph: 'g', name: 'src' })
    await t.client.request('run', { graphId, threadId: 'g:src', mode: 'toEnd', input: { x: 'in' } })
    const file = await t.client.request('exportThread', { threadId: 'g:src' })
    const inner = file.subgraphCheckpoints ?? []
    const ns = inner[0]?.config.checkpointNs
    expect(ns).toMatch(/^team:/)
    // The subgraph's input, __start__ and `a` steps; b waits at its interrupt.
    expect(inner.map((c) => c.metadata.step)).toEqual([-1, 0, 1])
    const out = await t.client.request('exportThreadFile', { threadId: 'g:src', graph: chain })
    expect(await out.file.text()).toBe(`${JSON.stringify({ ...file, graph: chain }, null, 2)}\n`)
    const read = await t.client.request('readThreadFile', { file: out.file })
    const staged = { superstepThread: 1, staged: read.fileId }
    await t.client.request('importThread', { file: staged, threadId: 'g:b', graph: 'g', name: 'b' })
    const timeline = (threadId: string) =>
      t.client.request('getTimeline', { graphId, threadId, checkpointNs: ns })
    const [before, after] = [await timeline('g:src'), await timeline('g:b')]
    expect(after.map((e) => [e.checkpointId, e.step, e.next])).toEqual(
      before.map((e) => [e.checkpointId, e.step, e.next]),
    )
    // Both threads resume inside the subgraph: `a` does not run again.
    for (const threadId of ['g:src', 'g:b']) {
      const base = { graphId, threadId, mode: 'toEnd' } as const
      await t.client.request('run', { ...base, input: null, command: { resume: 'Ada' } })
      const state = await t.client.request('getState', { graphId, threadId })
      expect(state?.values).toEqual({ x: 'Ada', log: ['a', 'after'] })
    }
  })
  it("a thread file keeps the thread's run settings; a file from before them still imports", async () => {
    const t = await setup()
    await forkedThread(t, 'g:src')
    const settings = { recursionLimit: 7, timeoutMs: 2500, configurable: { model: 'small', n: 3 } }
    await t.client.request('setThreadSettings', { threadId: 'g:src', settings })
    const file = await t.client.request('exportThread', { threadId: 'g:src' })
    expect(file.settings).toEqual(settings)
    // The Blob export writes them too, in the same place as the object's key order.
    const out = await t.client.request('exportThreadFile', { threadId: 'g:src', graph: chain })
    const text = await out.file.text()
    expect(text).toBe(`${JSON.stringify({ ...file, graph: chain }, null, 2)}\n`)
    const read = await t.client.request('readThreadFile', { file: text })
    const staged = { superstepThread: 1, staged: read.fileId }
    await t.client.request('importThread', { file: staged, threadId: 'g:b', graph: 'g', name: 'b' })
    const listed = await t.client.request('listThreads', { graph: 'g' })
    expect(listed.find((i) => i.threadId === 'g:b')?.settings).toEqual(settings)
    // An older file (no settings) imports, with the defaults; a later one's unknown keys are dropped.
    const { settings: _gone, ...old } = file
    await t.client.request('importThread', { file: old, threadId: 'g:old', graph: 'g', name: 'o' })
    const later = { ...file, settings: { ...settings, streamModes: ['values'] } }
    await t.client.request('importThread', {
      file: later,
      threadId: 'g:new',
      graph: 'g',
      name: 'n',
    })
    const again = await t.client.request('listThreads', { graph: 'g' })
    expect(again.find((i) => i.threadId === 'g:old')?.settings).toBeUndefined()
    expect(again.find((i) => i.threadId === 'g:old')?.count).toBe(file.checkpoints.length)
    expect(again.find((i) => i.threadId === 'g:new')?.settings).toEqual(settings)
    // A setting of the wrong type is refused with its place, and nothing is written.
    const bad = { ...file, settings: { recursionLimit: 'many' } }
    await expect(
      t.client.request('importThread', { file: bad, threadId: 'g:bad', graph: 'g', name: 'x' }),
    ).rejects.toMatchObject({ message: expect.stringContaining('settings.recursionLimit') })
    expect((await rowsOf(t.storage(), 'g:bad')).checkpoints).toEqual([])
  })
})
