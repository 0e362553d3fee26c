/**
 * The stream differential: every case streamed by Superstep and by LangGraph.js's
 * `graph.stream()`, compared chunk for chunk after the normalisation streamOracle.ts
 * describes (ids, timestamps, task ids; messages by content, order and node).
 */
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { STREAM_MODES, type StreamMode } from '../core/stream'
import { hasSubgraphs, loadCases } from './compare'
import type { DiffCase } from './oracle'
import { streamBothWays, type ResumeStep, type StreamShape } from './streamOracle'

const ALL: StreamMode[] = [...STREAM_MODES]

/**
 * Cases whose chunks hold a value that changes in place after the chunk was made (node code
 * mutating its input, an accumulating topic extending its list): LangGraph.js's chunks hold
 * the live value and are read later, so they show the change; Superstep's chunks are
 * snapshots taken when they are made. Only the sequence of namespaces and modes is compared.
 */
const LIVE_VALUES: Record<string, string> = {
  '46-topic-accumulate.json': 'an accumulating topic extends its list in place',
  '94-typed-fields.json': 'an accumulating topic extends its list in place',
  '120-agent-outcome-loop-with-passthrough.json': 'node code deletes a key of its input',
  '121-agent-outcome-loop.json': 'node code deletes a key of its input',
  '122-conditional-edges-optional-mutating-nodes.json': 'node code mutates its input',
}

/** Modes one at a time (as a string) on these cases: one of each kind of run. */
const ONE_MODE_CASES = [
  '01-linear-two-nodes.json',
  '72-parallel-one-fails.json',
  '79-interrupt-before.json',
  '82-agent-react.json',
  '93-send-sequences.json',
  '194-it-dynamic-interrupt-us.json',
  '257-subgraph-interrupt.json',
]

async function expectSameStream(c: DiffCase, shape: StreamShape, then?: ResumeStep) {
  const { theirs, ours } = await streamBothWays(c, shape, then)
  expect(ours.error).toEqual(theirs.error)
  if (c.file && LIVE_VALUES[c.file]) {
    const modes = (r: { chunks: unknown[] }) =>
      r.chunks.map((x) => JSON.stringify((x as unknown[]).slice(0, 2)))
    expect(modes(ours)).toEqual(modes(theirs))
    return
  }
  expect(ours.chunks).toEqual(theirs.chunks)
}

const cases = loadCases()

describe('stream differential: every case in every mode at once', () => {
  for (const c of cases) {
    it(c.file ?? c.description, async () => {
      await expectSameStream(c, { streamMode: ALL, subgraphs: false })
      if (hasSubgraphs(c.graph)) await expectSameStream(c, { streamMode: ALL, subgraphs: true })
    })
  }
})

describe('stream differential: one mode at a time, as LangGraph.js shapes a single mode', () => {
  for (const file of ONE_MODE_CASES) {
    const c = cases.find((x) => x.file === file)
    it(file, async () => {
      expect(c).toBeDefined()
      if (!c) return
      for (const mode of ALL) {
        await expectSameStream(c, { streamMode: mode, subgraphs: false })
        await expectSameStream(c, { streamMode: mode, subgraphs: true })
      }
    })
  }
})

describe('stream differential: continuing a paused thread; a Command as input', () => {
  const resumes: [string, ResumeStep][] = [
    ['79-interrupt-before.json', {}],
    ['80-interrupt-after.json', {}],
    ['256-subgraph-static-breakpoint.json', {}],
    ['257-subgraph-interrupt.json', { resume: 'Ada' }],
    ['01-linear-two-nodes.json', { command: { goto: 'b', update: { x: 'cmd' } } }],
    ['251-subgraph-nested-two-levels.json', { command: { update: { log: ['cmd'] } } }],
  ]
  const named = (then: ResumeStep) =>
    then.command
      ? 'a Command({ goto, update }) as input'
      : 'resume' in then
        ? 'Command({ resume })'
        : 'null'
  for (const [file, then] of resumes) {
    it(`${file} then ${named(then)}`, async () => {
      const c = cases.find((x) => x.file === file)
      expect(c).toBeDefined()
      if (!c) return
      await expectSameStream(c, { streamMode: ALL, subgraphs: true }, then)
      await expectSameStream(c, { streamMode: ['values', 'updates'], subgraphs: false }, then)
    })
  }
})

type StreamCase = DiffCase & {
  streams?: { streamMode?: StreamMode | StreamMode[]; subgraphs: boolean }[]
}

function loadStreamCases(): StreamCase[] {
  const dir = fileURLToPath(new URL('./streamCases/', import.meta.url))
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => ({ ...(JSON.parse(readFileSync(join(dir, file), 'utf8')) as StreamCase), file }))
}

describe('stream differential: custom chunks, run configuration, LangGraph.js stream tests', () => {
  for (const c of loadStreamCases()) {
    it(c.file ?? c.description, async () => {
      const shapes: StreamShape[] = c.streams ?? [
        { streamMode: ALL, subgraphs: false },
        { streamMode: ALL, subgraphs: true },
        { streamMode: 'custom', subgraphs: false },
        { streamMode: 'messages', subgraphs: true },
      ]
      for (const shape of shapes) await expectSameStream(c, shape)
    })
  }
})
