import { afterEach, describe, expect, it } from 'vitest'
import type { DexieCheckpointSaver } from '../persistence/dexieSaver'
import { clearRuns } from '../persistence/saverTestKit'
import type { StateSnapshot } from './protocol'
import { chain, closeAll, setup } from './serviceHarness'

afterEach(closeAll)

/** A graph whose START sends to `w` twice: PUSH tasks. */
const fanOut = {
  superstep: 1,
  name: 'fan',
  state: [{ name: 'items', reducer: 'append', default: [] }],
  nodes: [{ id: 'w', code: '(n) => ({ items: [n] })' }],
  edges: [],
  branches: [{ from: '__start__', router: "(s) => [new Send('w', 1), new Send('w', 2)]" }],
}

/** A snapshot with its thread id taken out (to compare threads). */
const anyThread = (s: StateSnapshot) => ({
  ...s,
  config: { ...s.config, threadId: '*' },
  parentConfig: s.parentConfig && { ...s.parentConfig, threadId: '*' },
})

describe('threads', () => {
  it("lists a graph's named threads and its unnamed checkpoint threads, oldest first", async () => {
    const t = await setup()
    const graphId = await t.compile()
    const run = (threadId: string) =>
      t.client.request('run', { graphId, threadId, input: { x: 'in' }, mode: 'toEnd' })
    await run('g:main')
    const created = await t.client.request('createThread', {
      threadId: 'g:t2',
      graph: 'g',
      name: 'second',
    })
    expect(created).toMatchObject({ threadId: 'g:t2', name: 'second', graph: 'g', count: 0 })
    await run('g:t2')
    await run('h:main')
    await run('gg:main') // another graph whose id starts with g
    await run('legacy')
    // Named as h's: listed with h's threads, not g's.
    await t
      .storage()
      .threads.put({ threadId: 'g:moved', graph: 'h', name: 'moved', createdAt: 'z' })
    await run('g:moved')

    const ofG = await t.client.request('listThreads', { graph: 'g' })
    expect(ofG.map((x) => [x.threadId, x.name, x.count])).toEqual([
      ['g:main', 'main', 4],
      ['g:t2', 'second', 4],
    ])
    expect(ofG[0]).toMatchObject({ graph: 'g', createdAt: expect.any(String) })
    expect(ofG[1]?.latestCheckpointId).toBeDefined()
    const all = await t.client.request('listThreads', {})
    expect(all.map((x) => x.threadId)).toEqual([
      'g:main',
      'g:t2',
      'h:main',
      'gg:main',
      'legacy',
      'g:moved',
    ])
    expect((await t.client.request('listThreads', { graph: 'h' })).map((x) => x.threadId)).toEqual([
      'h:main',
      'g:moved',
    ])
    expect(all.find((x) => x.threadId === 'legacy')).not.toHaveProperty('graph')

    await expect(
      t.client.request('createThread', { threadId: 'g:t2', graph: 'g', name: 'again' }),
    ).rejects.toMatchObject({ code: 'THREAD_EXISTS' })
    await expect(
      t.client.request('createThread', { threadId: 'g:main', graph: 'g', name: 'again' }),
    ).rejects.toMatchObject({ code: 'THREAD_EXISTS' })
  })

  it('renames a thread, giving one known only from its checkpoints a row', async () => {
    const t = await setup()
    const graphId = await t.compile()
    await t.client.request('run', { graphId, threadId: 'g:main', input: { x: 1 }, mode: 'toEnd' })
    const before = (await t.client.request('listThreads', { graph: 'g' }))[0]
    const renamed = await t.client.request('renameThread', { threadId: 'g:main', name: 'Main' })
    expect(renamed).toEqual({ ...before, name: 'Main' })
    expect(await t.storage().threads.get('g:main')).toMatchObject({ graph: 'g', name: 'Main' })
    await t.client.request('renameThread', { threadId: 'g:main', name: 'Main 2' })
    expect((await t.client.request('listThreads', { graph: 'g' })).map((x) => x.name)).toEqual([
      'Main 2',
    ])
  })

  it('deletes a thread with its row and recorded task runs', async () => {
    const t = await setup()
    const graphId = await t.compile()
    await t.client.request('createThread', { threadId: 'g:d', graph: 'g', name: 'doomed' })
    await t.client.request('run', { graphId, threadId: 'g:d', input: { x: 1 }, mode: 'toEnd' })
    expect(await t.storage().taskRuns.ofThread('g:d')).toHaveLength(3)
    expect(await t.client.request('deleteThread', { threadId: 'g:d' })).toEqual({ deleted: true })
    expect(await t.storage().taskRuns.ofThread('g:d')).toEqual([])
    expect(await t.storage().threads.get('g:d')).toBeUndefined()
    expect(await t.client.request('listThreads', { graph: 'g' })).toEqual([])
  })
})

describe('export and import', () => {
  it('round-trips a forked thread: the same history under the new id', async () => {
    const t = await setup()
    const graphId = await t.compile({
      ...chain,
      nodes: [chain.nodes[0], { id: 'b', code: "(s) => ({ x: interrupt('who?') })" }],
    })
    const threadId = 'g:src'
    const base = { graphId, threadId, mode: 'toEnd' } as const
    await t.client.request('createThread', { threadId, graph: 'g', name: 'source' })
    await t.client.request('run', { ...base, input: { x: 'in' } })
    await t.client.request('run', { ...base, input: null, command: { resume: 'Ada' } })
    const first = await t.client.request('getHistory', { graphId, threadId })
    const byStart = first.find((h) => h.metadata.step === 0)?.config.checkpointId
    await t.client.request('updateState', {
      graphId,
      threadId,
      checkpointId: byStart,
      values: { x: 'edited' },
    })
    // The fork runs into the interrupt again: its latest checkpoint has pending writes.
    expect(await t.client.request('run', { ...base, input: null })).toMatchObject({
      reason: 'interrupt',
    })

    const file = await t.client.request('exportThread', { threadId })
    expect(file).toMatchObject({ superstepThread: 1, threadId, name: 'source' })
    expect(file.checkpoints.map((c) => c.metadata.step)).toEqual([-1, 0, 1, 2, 1, 2])
    expect(file.checkpoints.at(-1)?.pendingWrites.map(([, ch]) => ch)).toContain('__interrupt__')
    // What the page saves and reads back: JSON, with the graph document added.
    const text = JSON.stringify({ ...file, graph: chain })
    const imported = await t.client.request('importThread', {
      file: JSON.parse(text),
      threadId: 'g:copy',
      graph: 'g',
      name: 'copy',
    })
    expect(imported).toEqual({ threadId: 'g:copy', count: 6 })

    const original = await t.client.request('getHistory', { graphId, threadId })
    const copy = await t.client.request('getHistory', { graphId, threadId: 'g:copy' })
    expect(copy.map(anyThread)).toEqual(original.map(anyThread))
    const state = (id: string) => t.client.request('getState', { graphId, threadId: id })
    expect(anyThread((await state('g:copy')) as StateSnapshot)).toEqual(
      anyThread((await state(threadId)) as StateSnapshot),
    )
    expect(await t.client.request('getTimeline', { graphId, threadId: 'g:copy' })).toEqual(
      await t.client.request('getTimeline', { graphId, threadId }),
    )
    expect((await t.client.request('listThreads', { graph: 'g' })).map((x) => x.name)).toEqual([
      'source',
      'copy',
    ])
    // The copy exports as the original did, but for its id and name.
    const again = await t.client.request('exportThread', { threadId: 'g:copy' })
    expect(JSON.stringify(again.checkpoints.map((c) => c.checkpoint))).toBe(
      JSON.stringify(file.checkpoints.map((c) => c.checkpoint)),
    )
    expect(again.taskRuns.map((r) => ({ ...r, threadId }))).toEqual(file.taskRuns)

    await expect(
      t.client.request('importThread', { file, threadId, graph: 'g', name: 'over' }),
    ).rejects.toMatchObject({ code: 'THREAD_EXISTS' })
  })

  it('round-trips Sends (PUSH tasks)', async () => {
    const t = await setup()
    const graphId = await t.compile(fanOut)
    await t.client.request('run', { graphId, threadId: 'f', input: {}, mode: 'toEnd' })
    const file = await t.client.request('exportThread', { threadId: 'f' })
    await t.client.request('importThread', { file, threadId: 'f2', graph: 'g', name: 'f2' })
    // Named as g's under an id of no graph: listed with g's threads, with its checkpoints.
    expect(await t.client.request('listThreads', { graph: 'g' })).toMatchObject([
      { threadId: 'f2', name: 'f2', graph: 'g', count: file.checkpoints.length },
    ])
    const history = (id: string) => t.client.request('getHistory', { graphId, threadId: id })
    expect((await history('f2')).map(anyThread)).toEqual((await history('f')).map(anyThread))
    const timeline = await t.client.request('getTimeline', { graphId, threadId: 'f2' })
    expect(timeline[0]?.ran.map((r) => r.name)).toEqual(['w', 'w'])
    // Without recorded runs, a PUSH task is named by the Send it came from.
    await clearRuns((t.storage().saver as DexieCheckpointSaver).db)
    const bare = await t.client.request('getTimeline', { graphId, threadId: 'f2' })
    expect(bare[0]?.ran).toEqual([{ name: 'w' }, { name: 'w' }])
  })

  it('refuses a bad file, saying where, and writes nothing', async () => {
    const t = await setup()
    const graphId = await t.compile()
    await t.client.request('run', { graphId, threadId: 'g:src', input: { x: 1 }, mode: 'toEnd' })
    const file = await t.client.request('exportThread', { threadId: 'g:src' })
    const broken = structuredClone(file) as unknown as {
      checkpoints: { checkpoint: { channel_versions: unknown } }[]
    }
    ;(broken.checkpoints[3] as (typeof broken.checkpoints)[number]).checkpoint.channel_versions =
      'v1'
    const error = await t.client
      .request('importThread', { file: broken, threadId: 'g:bad', graph: 'g', name: 'bad' })
      .catch((e: unknown) => e)
    expect(error).toMatchObject({
      name: 'WorkerRequestError',
      code: 'BAD_THREAD_FILE',
      message: expect.stringContaining('checkpoints[3].checkpoint.channel_versions'),
    })
    expect(await t.storage().threads.checkpointCount('g:bad')).toBe(0)
    expect(await t.storage().threads.get('g:bad')).toBeUndefined()
    expect(await t.storage().taskRuns.ofThread('g:bad')).toEqual([])
    expect((await t.client.request('listThreads', {})).map((x) => x.threadId)).toEqual(['g:src'])
    await expect(
      t.client.request('importThread', { file: 'hello', threadId: 'g:bad', graph: 'g', name: 'b' }),
    ).rejects.toMatchObject({
      code: 'BAD_THREAD_FILE',
      message: expect.stringContaining('the file'),
    })
  })
})
