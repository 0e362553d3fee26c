import { describe, expect, it } from 'vitest'
import { DamagedCheckpointError, rowDamage } from './damage'

const checkpoint = {
  threadId: 't',
  checkpointId: 'c2',
  seq: 2,
  parentId: 'c1',
  ts: '2026-01-01T00:00:00Z',
  channel_versions: { x: 2 },
  versions_seen: { a: { x: 1 } },
  metadata: { source: 'loop', step: 1, parents: {} },
  owner: { x: 'c2' },
}

describe('rowDamage', () => {
  it('reads a well-formed row of each table as undamaged', () => {
    expect(rowDamage('checkpoints', checkpoint)).toBeUndefined()
    expect(rowDamage('checkpoints', { ...checkpoint, parentId: undefined })).toBeUndefined()
    const write = { id: 1, threadId: 't', checkpointId: 'c', taskId: 'k', key: '0', channel: 'x' }
    expect(rowDamage('writes', { ...write, value: undefined })).toBeUndefined()
    const log = { level: 'info', args: ['hi', null], at: 3 }
    const run = { threadId: 't', checkpointId: 'c', taskId: 'k', name: 'a', durationMs: 1 }
    expect(rowDamage('taskRuns', { ...run, logs: [log], warnings: [] })).toBeUndefined()
    const thread = { threadId: 'g:t', graph: 'g', name: 'n', createdAt: 'then' }
    expect(rowDamage('threads', { ...thread, settings: { recursionLimit: 5 } })).toBeUndefined()
  })

  it.each([
    [{ metadata: null }, 'metadata', 'metadata is null (expected an object)'],
    [{ owner: null }, 'owner', 'owner is null'],
    [{ versions_seen: null }, 'versions_seen', 'versions_seen is null'],
    [{ versions_seen: { a: { x: '1' } } }, 'versions_seen', 'versions_seen is a malformed object'],
    [{ metadata: { source: 'loop', parents: {} } }, 'metadata.step', 'metadata.step is missing'],
    [{ metadata: { source: 'odd', step: 1, parents: {} } }, 'metadata.source', '"odd"'],
    [{ seq: '2' }, 'seq', 'seq is "2" (expected a number)'],
    [{ parentId: '' }, 'parentId', 'parentId is ""'],
    [{ owner: { x: 5 } }, 'owner', 'owner is a malformed object'],
  ])('finds a checkpoint row with %j damaged at its field', (change, field, reason) => {
    const d = rowDamage('checkpoints', { ...checkpoint, ...change })
    expect(d?.field).toBe(field)
    expect(d?.reason).toContain(reason)
  })

  it('names the first missing field of a bare row', () => {
    const bare = { threadId: 't', checkpointId: 'c', seq: 3 }
    expect(rowDamage('checkpoints', bare)).toEqual({
      field: 'ts',
      reason: 'ts is missing (expected a time)',
    })
    expect(rowDamage('checkpoints', null)).toEqual({ field: '', reason: 'the row is null' })
  })

  it('finds damaged writes, task runs and thread rows', () => {
    const write = { threadId: 't', checkpointId: 'c', taskId: null, key: '0', channel: 'x' }
    expect(rowDamage('writes', write)?.field).toBe('taskId')
    const run = { threadId: 't', checkpointId: 'c', taskId: 'k', name: 'a', durationMs: 1 }
    expect(rowDamage('taskRuns', { ...run, logs: null })?.reason).toBe(
      'logs is null (expected a list of logs)',
    )
    expect(
      rowDamage('taskRuns', { ...run, logs: [{ level: 'loud', args: [], at: 1 }] })?.reason,
    ).toBe('logs is a list with a malformed entry (expected a list of logs)')
    expect(rowDamage('taskRuns', { ...run, logs: [], error: 'boom' })?.field).toBe('error')
    const thread = { threadId: 'g:t', graph: 'g', name: 7, createdAt: 'then' }
    expect(rowDamage('threads', thread)?.reason).toBe('name is 7 (expected a name)')
    expect(
      rowDamage('threads', { ...thread, name: 'n', settings: { timeoutMs: 'x' } })?.field,
    ).toBe('settings')
  })
})

describe('DamagedCheckpointError', () => {
  it('names the thread and checkpoint, is matched by code, and says what to do', () => {
    const e = new DamagedCheckpointError({
      threadId: 'g:main',
      checkpointId: 'c2',
      table: 'checkpoints',
      field: 'metadata',
      reason: 'metadata is null (expected an object)',
    })
    expect(e).toMatchObject({ name: 'DamagedCheckpointError', code: 'DAMAGED_CHECKPOINT' })
    expect(e.message).toBe(
      'Stored data of checkpoint c2 on thread g:main is damaged: metadata is null (expected an object). ' +
        'Nothing can run, continue or fork from it. Use "Repair thread" to cut the damaged part ' +
        '(export the thread first to keep what is readable).',
    )
  })
})
