import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { main } from './main'

const dir = mkdtempSync(join(tmpdir(), 'superstep-cli-'))
function file(name: string, content: unknown): string {
  const path = join(dir, name)
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content))
  return path
}
async function cli(...argv: string[]) {
  let stdout = ''
  let stderr = ''
  const code = await main(argv, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) })
  return { code, stdout, stderr }
}

const chain = {
  superstep: 1,
  name: 'chain',
  state: [{ name: 'x' }, { name: 'log', reducer: 'append', default: [] }],
  nodes: [
    { id: 'a', code: "(s) => ({ x: s.x + 'a', log: ['a'] })" },
    { id: 'b', code: "(s) => ({ x: s.x + 'b', log: ['b'] })" },
  ],
  edges: [
    { from: '__start__', to: 'a' },
    { from: 'a', to: 'b' },
  ],
}

describe('superstep run', () => {
  it('prints the report of every checkpoint and exits 0', async () => {
    const r = await cli('run', file('chain.json', chain), '--input', '{"x":">"}')
    expect(r.code).toBe(0)
    const report = JSON.parse(r.stdout)
    expect(report.status).toBe('done')
    expect(report.values).toEqual({ x: '>ab', log: ['a', 'b'] })
    expect(report.error).toBeNull()
    expect(
      report.checkpoints.map((c: { step: number; next: string[] }) => [c.step, c.next]),
    ).toEqual([
      [-1, ['__start__']],
      [0, ['a']],
      [1, ['b']],
      [2, []],
    ])
    // START is 1; each step bumps what it writes to max + 1: x and log reach 4 at step 2
    expect(report.checkpoints[3].versions).toEqual({ x: 4, log: 4 })
  })

  it('exits 0 with status error when the graph itself raises', async () => {
    const r = await cli(
      'run',
      file('chain.json', chain),
      '--recursion-limit',
      '2',
      '--input',
      '{"x":""}',
    )
    expect(r.code).toBe(0)
    const report = JSON.parse(r.stdout)
    expect(report.status).toBe('error')
    expect(report.error).toMatchObject({
      name: 'GraphRecursionError',
      code: 'GRAPH_RECURSION_LIMIT',
    })
  })

  it('reports a run that paused on interrupt() as interrupted, with the pending interrupts', async () => {
    const approval = fileURLToPath(new URL('../../examples/approval.json', import.meta.url))
    const r = await cli('run', approval, '--input', '{"request":"x"}')
    expect(r.code).toBe(0)
    const report = JSON.parse(r.stdout)
    expect(report.status).toBe('interrupted')
    expect(report.interrupts).toEqual([
      { question: 'Approve this draft?', draft: 'Draft 1 for: x' },
    ])
    expect(report.checkpoints.at(-1).next).toEqual(['review'])
    expect(report.error).toBeNull()
  })

  it('reports a run stopped at a static breakpoint as interrupted, with no interrupt payload', async () => {
    const r = await cli('run', file('break.json', { ...chain, interruptBefore: ['b'] }))
    const report = JSON.parse(r.stdout)
    expect(report).toMatchObject({ status: 'interrupted', interrupts: [], error: null })
    expect(report.checkpoints.at(-1).next).toEqual(['b'])
    // A run that finishes has nothing pending.
    const done = JSON.parse((await cli('run', file('chain.json', chain))).stdout)
    expect(done).toMatchObject({ status: 'done', interrupts: [] })
  })

  it('reports the node whose code threw', async () => {
    const bad = { ...chain, nodes: [chain.nodes[0], { id: 'b', code: '(s) => s.nope.x' }] }
    const report = JSON.parse((await cli('run', file('throws.json', bad))).stdout)
    expect(report.error).toMatchObject({ name: 'TypeError', code: null, node: 'b' })
  })

  it('exits 2 with the problems on stderr for an invalid graph', async () => {
    const invalid = { ...chain, edges: [...chain.edges, { from: 'b', to: 'ghost' }] }
    const r = await cli('run', file('invalid.json', invalid))
    expect(r.code).toBe(2)
    expect(r.stdout).toBe('')
    expect(r.stderr).toContain('UNKNOWN_EDGE_TARGET edges[2].to')
  })

  it('exits 2 for a file that is not JSON, or bad --input', async () => {
    const notJson = await cli('run', file('broken.json', '{ "superstep": 1,'))
    expect(notJson.code).toBe(2)
    expect(notJson.stderr).toContain('not a JSON document')
    const badInput = await cli('run', file('chain.json', chain), '--input', '{x}')
    expect(badInput.code).toBe(2)
    expect(badInput.stderr).toContain('--input is not JSON')
    const missing = await cli('run', join(dir, 'nope.json'))
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('ENOENT')
  })
})

describe('superstep validate', () => {
  it('exits 0 for a valid graph and 2 with the problems for an invalid one', async () => {
    expect((await cli('validate', file('chain.json', chain))).code).toBe(0)
    const r = await cli(
      'validate',
      file('dup.json', { ...chain, nodes: [...chain.nodes, chain.nodes[0]] }),
    )
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('DUPLICATE_NODE')
  })

  it('prints usage and exits 1 on a bad command line', async () => {
    expect((await cli('frobnicate')).code).toBe(1)
    expect((await cli('run')).stderr).toContain('Usage')
  })
})

describe('superstep session', () => {
  const review = {
    superstep: 1,
    name: 'review',
    state: [{ name: 'draft' }, { name: 'approved' }],
    nodes: [
      { id: 'write', code: "(s) => ({ draft: 'v1: ' + s.draft })" },
      { id: 'review', code: '(s) => ({ approved: interrupt({ draft: s.draft }) })' },
    ],
    edges: [
      { from: '__start__', to: 'write' },
      { from: 'write', to: 'review' },
    ],
  }

  it('runs invoke, resume and a fork, and reports every checkpoint with its parent', async () => {
    const ops = [
      { op: 'invoke', input: { draft: 'hi' } },
      { op: 'resume', value: true },
      { op: 'update', checkpoint: 2, values: { draft: 'edited' }, asNode: 'write' },
      { op: 'invoke', input: null },
    ]
    const r = await cli('session', file('review.json', review), file('ops.json', ops))
    expect(r.code).toBe(0)
    const report = JSON.parse(r.stdout)
    expect(report.status).toBe('interrupted')
    type C = {
      step: number
      source: string
      next: string[]
      parent: number | null
      interrupts: unknown[]
    }
    expect(
      report.checkpoints.map((c: C) => [c.step, c.source, c.next, c.parent, c.interrupts]),
    ).toEqual([
      [-1, 'input', ['__start__'], null, []],
      [0, 'loop', ['write'], 0, []],
      [1, 'loop', ['review'], 1, [{ draft: 'v1: hi' }]],
      [2, 'loop', [], 2, []],
      [2, 'update', ['review'], 2, [{ draft: 'edited' }]],
    ])
    expect(report.checkpoints[3].values).toEqual({ draft: 'v1: hi', approved: true })
  })

  it('answers an interrupt addressed by node, and says so when none is pending there', async () => {
    const ops = [
      { op: 'invoke', input: { draft: 'hi' } },
      { op: 'resume', answers: [{ node: 'write', value: true }], continueOnError: true },
      { op: 'resume', answers: [{ node: 'review', value: true }] },
    ]
    const report = JSON.parse(
      (await cli('session', file('review.json', review), file('ops3.json', ops))).stdout,
    )
    expect(report.opErrors).toEqual([
      {
        op: 1,
        error: expect.objectContaining({
          name: 'RangeError',
          message: 'No interrupt 0 is pending in node "write" (it has 0).',
        }),
      },
    ])
    expect(report.status).toBe('done')
    expect(report.values).toMatchObject({ approved: true })
  })

  it('stops at the first failing operation and reports it', async () => {
    const ops = [
      { op: 'invoke', input: { draft: 'hi' } },
      { op: 'update', values: { draft: 'x' }, asNode: 'nope' },
      { op: 'resume', value: true },
    ]
    const report = JSON.parse(
      (await cli('session', file('review.json', review), file('ops2.json', ops))).stdout,
    )
    expect(report.status).toBe('error')
    expect(report.error).toMatchObject({
      name: 'InvalidUpdateError',
      message: 'Node "nope" does not exist',
    })
    expect(report.checkpoints).toHaveLength(3)
  })

  it('goes on past an op marked continueOnError, and takes updates as __end__ and in bulk', async () => {
    const ops = [
      { op: 'invoke', input: { draft: 'hi' } },
      { op: 'update', values: { draft: 'x' }, asNode: 'nope', continueOnError: true },
      { op: 'update', values: null, asNode: '__end__' },
      {
        op: 'bulkUpdate',
        supersteps: [
          { updates: [{ values: { draft: 'again' }, asNode: '__input__' }] },
          { updates: [{ values: { draft: 'w' }, asNode: 'write' }] },
        ],
      },
    ]
    const report = JSON.parse(
      (await cli('session', file('review.json', review), file('ops3.json', ops))).stdout,
    )
    expect(report.error).toBeNull()
    expect(report.opErrors).toEqual([
      { op: 1, error: expect.objectContaining({ message: 'Node "nope" does not exist' }) },
    ])
    type C = { step: number; source: string; next: string[] }
    expect(report.checkpoints.slice(3).map((c: C) => [c.step, c.source, c.next])).toEqual([
      [2, 'update', []],
      [3, 'input', ['__start__']],
      [4, 'update', ['review']],
    ])
  })

  it('exits 2 for an ops file that is not a list of operations', async () => {
    const r = await cli(
      'session',
      file('review.json', review),
      file('badops.json', [{ op: 'jump' }]),
    )
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('not a list of operations')
  })
})

const configured = {
  ...chain,
  name: 'configured',
  config: [{ name: 'suffix', type: 'string', default: '!' }],
  nodes: [
    {
      id: 'a',
      code: "(s, config) => { config.writer({ at: 'a' }); return { x: s.x + config.configurable.suffix, log: ['a'] } }",
    },
    { id: 'b', code: "(s) => ({ x: s.x + 'b', log: ['b'] })" },
  ],
}

describe('superstep stream', () => {
  const lines = (s: string) =>
    s
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as unknown)

  it('prints one JSON line per chunk, as LangGraph.js yields them for the modes', async () => {
    const r = await cli(
      'stream',
      file('chain.json', chain),
      '--input',
      '{"x":">"}',
      '--mode',
      'updates,values',
    )
    expect(r.code).toBe(0)
    expect(lines(r.stdout)).toEqual([
      ['values', { x: '>', log: [] }],
      ['updates', { a: { x: '>a', log: ['a'] } }],
      ['values', { x: '>a', log: ['a'] }],
      ['updates', { b: { x: '>ab', log: ['b'] } }],
      ['values', { x: '>ab', log: ['a', 'b'] }],
    ])
  })

  it('streams updates as bare chunks by default; one mode is a bare chunk too', async () => {
    const path = file('chain.json', chain)
    const byDefault = await cli('stream', path, '--input', '{"x":""}')
    expect(lines(byDefault.stdout)).toEqual([
      { a: { x: 'a', log: ['a'] } },
      { b: { x: 'ab', log: ['b'] } },
    ])
    const values = await cli('stream', path, '--input', '{"x":""}', '--mode', 'values')
    expect(lines(values.stdout).at(-1)).toEqual({ x: 'ab', log: ['a', 'b'] })
  })

  it('takes --config as the run configurable (declared defaults fill the rest) and streams custom chunks', async () => {
    const path = file('configured.json', configured)
    const byDefault = await cli('stream', path, '--input', '{"x":""}', '--mode', 'custom,values')
    expect(lines(byDefault.stdout)).toContainEqual(['values', { x: '!b', log: ['a', 'b'] }])
    expect(lines(byDefault.stdout)).toContainEqual(['custom', { at: 'a' }])
    const set = await cli(
      'stream',
      path,
      '--input',
      '{"x":""}',
      '--mode',
      'values',
      '--config',
      '{"suffix":"?"}',
    )
    expect(lines(set.stdout).at(-1)).toEqual({ x: '?b', log: ['a', 'b'] })
  })

  it('with --subgraphs puts the namespace first', async () => {
    const r = await cli(
      'stream',
      file('chain.json', chain),
      '--input',
      '{"x":""}',
      '--subgraphs',
      '--mode',
      'updates',
    )
    expect(lines(r.stdout)).toEqual([
      [[], { a: { x: 'a', log: ['a'] } }],
      [[], { b: { x: 'ab', log: ['b'] } }],
    ])
  })

  it('exits 3 with the error on stderr when the graph raises, after the chunks before it', async () => {
    const r = await cli(
      'stream',
      file('chain.json', chain),
      '--input',
      '{"x":""}',
      '--recursion-limit',
      '2',
    )
    expect(r.code).toBe(3)
    expect(lines(r.stdout)).toEqual([{ a: { x: 'a', log: ['a'] } }, { b: { x: 'ab', log: ['b'] } }])
    expect(JSON.parse(r.stderr)).toMatchObject({ error: { name: 'GraphRecursionError' } })
  })

  it('refuses an unknown mode or a --config that is not an object', async () => {
    const path = file('chain.json', chain)
    const mode = await cli('stream', path, '--mode', 'values,nope')
    expect(mode.code).toBe(2)
    expect(mode.stderr).toContain('nope')
    const config = await cli('stream', path, '--config', '[1]')
    expect(config.code).toBe(2)
    expect(config.stderr).toContain('--config')
  })
})

describe('superstep run --config', () => {
  it('runs with the given settings over the declared defaults', async () => {
    const path = file('configured.json', configured)
    const byDefault = JSON.parse((await cli('run', path, '--input', '{"x":""}')).stdout)
    expect(byDefault.values).toEqual({ x: '!b', log: ['a', 'b'] })
    const set = await cli('run', path, '--input', '{"x":""}', '--config', '{"suffix":"~"}')
    expect(JSON.parse(set.stdout).values).toEqual({ x: '~b', log: ['a', 'b'] })
  })
})

describe('superstep validate, run settings', () => {
  it('refuses a declared setting whose default is not of its type', async () => {
    const bad = { ...configured, config: [{ name: 'suffix', type: 'number', default: '!' }] }
    const r = await cli('validate', file('bad-config.json', bad))
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(
      'config[0].default: The default of setting `suffix` must be a number',
    )
  })
})
