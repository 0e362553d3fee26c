import { indexedDB, IDBKeyRange } from 'fake-indexeddb'
import { Dexie } from 'dexie'
import { describe, expect, it } from 'vitest'
import { SCHEMA_VERSION, SuperstepDb, type TaskRunRow } from './db'
import { DexieCheckpointSaver } from './dexieSaver'
import { TaskRunLog } from './taskRunLog'
import { ThreadDirectory } from './threadDirectory'
import { formatPath, parseThreadFile } from './threadFile'

let dbCount = 0
const freshName = () => `superstep-threads-test-${++dbCount}`
const freshDb = () => new SuperstepDb(freshName(), { indexedDB, IDBKeyRange })

const run = (threadId: string, checkpointId: string, taskId: string): TaskRunRow => ({
  threadId,
  checkpointId,
  taskId,
  name: taskId,
  durationMs: 3,
  logs: [{ level: 'log', args: ['hi'], at: 1 }],
})

async function putCheckpoint(saver: DexieCheckpointSaver, threadId: string, id: string) {
  return saver.put(
    { threadId },
    {
      v: 1,
      id,
      ts: '2026-01-01T00:00:00Z',
      channel_values: { x: 1 },
      channel_versions: { x: 1 },
      versions_seen: {},
    },
    { source: 'input', step: -1, parents: {} },
    { x: 1 },
  )
}

describe('named threads and task runs (version 3)', () => {
  it('upgrades a version 2 database, keeping its checkpoints and graphs', async () => {
    const name = freshName()
    const v2 = new Dexie(name, { indexedDB, IDBKeyRange })
    v2.version(1).stores({
      checkpoints: '[threadId+checkpointId], [threadId+seq]',
      blobs: '[threadId+checkpointId+channel]',
      writes: '++id, [threadId+checkpointId], &[threadId+checkpointId+taskId+key]',
    })
    v2.version(2).stores({ graphs: 'id, updatedAt' })
    await v2.table('graphs').put({ id: 'g', name: 'G' })
    v2.close()
    const db = new SuperstepDb(name, { indexedDB, IDBKeyRange })
    expect(await db.graphs.get('g')).toMatchObject({ name: 'G' })
    expect(db.verno).toBe(SCHEMA_VERSION)
    expect(await db.threads.count()).toBe(0)
    db.close()
  })

  it('keeps thread rows by graph, and task runs by the checkpoint they ran from', async () => {
    const db = freshDb()
    const threads = new ThreadDirectory(db)
    const runs = new TaskRunLog(db)
    await threads.put({ threadId: 'g:a', graph: 'g', name: 'A', createdAt: '1' })
    await threads.put({ threadId: 'h:b', graph: 'h', name: 'B', createdAt: '2' })
    expect((await threads.list('g')).map((r) => r.name)).toEqual(['A'])
    expect(await threads.list()).toHaveLength(2)
    expect((await threads.getMany(['h:b', 'nope'])).map((r) => r?.name)).toEqual(['B', undefined])

    const saver = new DexieCheckpointSaver(db)
    for (const [t, id] of [
      ['g:a', 'c1'],
      ['g:a', 'c2'],
      ['g:ab', 'c1'],
    ] as const)
      await putCheckpoint(saver, t, id)
    await runs.record([run('g:a', 'c1', 't1'), run('g:a', 'c1', 't2'), run('g:a', 'c2', 't1')])
    await runs.record([{ ...run('g:a', 'c1', 't1'), durationMs: 9 }]) // a retry replaces it
    await runs.record([run('g:ab', 'c1', 't1')])
    // A run from a checkpoint that is not stored has nowhere to go: nothing could show it.
    await runs.record([run('g:a', 'gone', 't1')])
    const fromC1 = await runs.ranFrom('g:a', ['c1'])
    expect(fromC1.map((r) => [r.taskId, r.durationMs])).toEqual([
      ['t1', 9],
      ['t2', 3],
    ])
    expect(await runs.ranFrom('g:a', [])).toEqual([])
    expect(await runs.ranFrom('g:a', ['gone'])).toEqual([])
    expect(await runs.ofThread('g:a')).toHaveLength(3)
  })

  it('deletes a thread with its row and task runs, leaving other threads alone', async () => {
    const db = freshDb()
    const saver = new DexieCheckpointSaver(db)
    const threads = new ThreadDirectory(db)
    const runs = new TaskRunLog(db)
    for (const t of ['g:a', 'g:ab']) {
      await putCheckpoint(saver, t, `${t}-1`)
      await threads.put({ threadId: t, graph: 'g', name: t, createdAt: '1' })
      await runs.record([run(t, `${t}-1`, 'task')])
    }
    expect(await threads.checkpointCount('g:a')).toBe(1)
    await saver.deleteThread('g:a')
    expect(await threads.checkpointCount('g:a')).toBe(0)
    expect(await threads.get('g:a')).toBeUndefined()
    expect(await runs.ofThread('g:a')).toEqual([])
    expect(await threads.get('g:ab')).toBeDefined()
    expect(await runs.ofThread('g:ab')).toHaveLength(1)
  })
})

describe('the thread file', () => {
  const tuple = (id: string, parent?: string) => ({
    config: { threadId: 't', checkpointId: id },
    checkpoint: {
      v: 1,
      id,
      ts: '2026-01-01T00:00:00Z',
      channel_values: { x: 1 },
      channel_versions: { x: 1 },
      versions_seen: {},
    },
    metadata: { source: 'loop', step: 0, parents: {} },
    ...(parent && { parentConfig: { threadId: 't', checkpointId: parent } }),
    pendingWrites: [['task', 'x', 2]],
  })
  const file = (checkpoints: unknown[], extra: object = {}) => ({
    superstepThread: 1,
    threadId: 't',
    name: 'main',
    checkpoints,
    taskRuns: [],
    graph: { superstep: 1 }, // the page's addition: ignored
    ...extra,
  })

  it('reads a good file, giving every tuple its parentConfig key', () => {
    const r = parseThreadFile(file([tuple('a'), tuple('b', 'a')]))
    expect(r.ok).toBe(true)
    if (!r.ok) return
    expect(r.file.checkpoints[0]).toHaveProperty('parentConfig', undefined)
    expect(r.file.checkpoints[1]?.parentConfig).toEqual({ threadId: 't', checkpointId: 'a' })
    expect(r.file).not.toHaveProperty('graph')
  })

  it('says what is wrong and where', () => {
    const bad = tuple('b', 'a')
    const broken = { ...bad, checkpoint: { ...bad.checkpoint, channel_versions: { x: 'one' } } }
    const r = parseThreadFile(file([tuple('a'), tuple('b', 'a'), tuple('c', 'b'), broken]))
    expect(r).toEqual({
      ok: false,
      message: expect.stringMatching(
        /^checkpoints\[3\]\.checkpoint\.channel_versions\.x: .*number.* \(found "one"\)$/,
      ),
    })
    expect(parseThreadFile('nope')).toEqual({
      ok: false,
      message: expect.stringMatching(/^the file: .*object/),
    })
    expect(parseThreadFile({ ...file([]), superstepThread: 2 })).toMatchObject({
      message: expect.stringMatching(/^superstepThread: .*\(found 2\)$/),
    })
    expect(parseThreadFile(file([tuple('b', 'a')]))).toEqual({
      ok: false,
      message:
        'checkpoints[0].parentConfig.checkpointId: parent a is not an earlier checkpoint of the file',
    })
    expect(
      parseThreadFile(file([tuple('a')], { taskRuns: [run('t', 'zzz', 'task')] })),
    ).toMatchObject({ message: 'taskRuns[0].checkpointId: zzz is not a checkpoint of the file' })
    expect(parseThreadFile(file([tuple('a'), tuple('a')]))).toMatchObject({
      message: 'checkpoints[1].checkpoint.id: a twice',
    })
  })

  it('formats paths as a reader would write them', () => {
    expect(formatPath(['checkpoints', 3, 'checkpoint', 'channel_versions'])).toBe(
      'checkpoints[3].checkpoint.channel_versions',
    )
    expect(formatPath(['checkpoints', 0, 'checkpoint', 'versions_seen', 'branch:to:a'])).toBe(
      'checkpoints[0].checkpoint.versions_seen["branch:to:a"]',
    )
  })
})
