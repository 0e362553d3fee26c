/**
 * What the debugger shows beyond the state: for every checkpoint of every differential case
 * and session, EVERY channel's version (state fields, `__start__`, `__pregel_tasks`,
 * `branch:to:<node>`, `join:<a>+<b>:<node>`), every node's `versions_seen` (with
 * `__interrupt__` and `__start__`), and which channels hold a value, read raw from both
 * runtimes' MemorySavers in put order, must be LangGraph.js's.
 *
 * Both sides run through the same runners as differential.test.ts and sessions.test.ts; the
 * savers those runners create are caught by spying on `MemorySaver.prototype.put`, which
 * also gives LangGraph's put order.
 */
import { isDeepStrictEqual } from 'node:util'
import { describe, expect, it, vi } from 'vitest'
import { MemorySaver as LangGraphSaver } from '@langchain/langgraph'
import { createCountingEnv } from '../lib/env'
import { MemorySaver } from '../core/checkpoint/memorySaver'
import { parseGraph } from '../core/graph/validate'
import { runGraph, runSession } from '../core/run'
import { CloneCodeHost } from './cloneHost'
import { loadCases } from './compare'
import { normalizeValue, runOnLangGraph, type GraphDocumentJson } from './oracle'
import { readLangGraphThread, readSuperstepThread, type RawCheckpoint } from './rawCheckpoints'
import { loadSessions, runSessionOnLangGraph } from './session'

/** Runs `run` and reads the one thread of the one LangGraph MemorySaver it put checkpoints in. */
async function langGraphThread(run: () => Promise<unknown>): Promise<RawCheckpoint[]> {
  const spy = vi.spyOn(LangGraphSaver.prototype, 'put')
  try {
    await run()
    const savers = [...new Set(spy.mock.contexts)]
    const threads = [...new Set(spy.mock.calls.map(([config]) => config.configurable?.thread_id))]
    if (savers.length === 0) return []
    expect(savers.length, 'LangGraph savers').toBe(1)
    expect(threads.length, 'LangGraph threads').toBe(1)
    // The root graph's checkpoints (subgraphs' namespaces are compared by their reports).
    const putIds = spy.mock.calls
      .filter(([config]) => !config.configurable?.checkpoint_ns)
      .map(([, checkpoint]) => checkpoint.id)
    return await readLangGraphThread(savers[0] as LangGraphSaver, String(threads[0]), putIds)
  } finally {
    spy.mockRestore()
  }
}

/** Runs `run` and reads the one thread of the one Superstep MemorySaver it put checkpoints in. */
async function superstepThread(run: () => Promise<unknown>): Promise<RawCheckpoint[]> {
  const spy = vi.spyOn(MemorySaver.prototype, 'put')
  try {
    await run()
    const savers = [...new Set(spy.mock.contexts)]
    const threads = [...new Set(spy.mock.calls.map(([config]) => config.threadId))]
    if (savers.length === 0) return []
    expect(savers.length, 'Superstep savers').toBe(1)
    expect(threads.length, 'Superstep threads').toBe(1)
    return await readSuperstepThread(savers[0] as MemorySaver, String(threads[0]))
  } finally {
    spy.mockRestore()
  }
}

/**
 * Where the two savers store the same channel differently. Names never differ: `__start__`,
 * `__pregel_tasks`, `branch:to:<node>`, `join:<a>+<b>:<node>`, and `__input__`,
 * `__interrupt__` in `versions_seen`, are LangGraph.js's own, and versions are numbers on
 * both sides (see rawCheckpoints.ts). What differs is only whether an EMPTY or never-written
 * channel has an entry in `channel_values`; each rule below takes such an entry out of
 * LangGraph's side only when it provably means what Superstep's missing entry means.
 * docs/runtime.md documents both; a rule that no longer fires anywhere fails the suite.
 */
const NORMALISATIONS: readonly {
  name: string
  /** True when LangGraph's `channel_values[channel]` is one that Superstep leaves out. */
  drops: (channel: string, value: unknown, c: RawCheckpoint, graph: GraphDocumentJson) => boolean
}[] = [
  {
    // LangGraph's MemorySaver serialises the whole checkpoint, so `channel_values` also holds
    // channels never written on the thread (no version) whose empty state is a value:
    // `__pregel_tasks`, topic fields and join barriers as `[]`, a reducer field with a
    // default as that default. Superstep's saver stores one value per channel version (as
    // LangGraph's SQL savers do), so a channel without a version has no entry. Restored, the
    // two are the same channel.
    name: 'never-written channel at its initial value',
    drops: (channel, value, c, graph) => {
      const initial = initialValues(graph)
      return (
        c.channel_versions[channel] === undefined &&
        initial.has(channel) &&
        isDeepStrictEqual(normalizeValue(value), initial.get(channel))
      )
    },
  },
  {
    // A deferred node's `branch:to:<node>` (LastValueAfterFinish) is the one LangGraph
    // channel whose `checkpoint()` returns `undefined` when empty instead of throwing
    // EmptyChannelError, so after it was consumed its entry is `undefined`, which
    // `fromCheckpoint` restores as empty. Superstep leaves an empty channel out.
    name: 'empty deferred branch:to: as undefined',
    drops: (channel, value, _c, graph) =>
      value === undefined &&
      graph.nodes.some((n) => n.defer === true && channel === `branch:to:${n.id}`),
  },
]

/** What a channel holds before anything is written to it, for channels where that is a value. */
function initialValues(graph: GraphDocumentJson): Map<string, unknown> {
  const out = new Map<string, unknown>([['__pregel_tasks', []]])
  const deferred = new Set(graph.nodes.filter((n) => n.defer === true).map((n) => n.id))
  for (const e of graph.edges ?? []) {
    // A join into a deferred node is LangGraph's NamedBarrierValueAfterFinish: [seen, finished]
    if (Array.isArray(e.from))
      out.set(`join:${e.from.join('+')}:${e.to}`, deferred.has(e.to) ? [[], false] : [])
  }
  for (const f of graph.state) {
    if (f.channel === 'topic') out.set(f.name, [])
    else if (f.reducer !== undefined && f.reducer !== 'overwrite' && 'default' in f) {
      out.set(f.name, f.default)
    }
  }
  return out
}

/** How often each normalisation fired. */
const normalised: Record<string, number> = {}

/** What must agree on one checkpoint; LangGraph's side goes through {@link NORMALISATIONS}. */
function comparable(c: RawCheckpoint, graph?: GraphDocumentJson) {
  const valued = Object.entries(c.channel_values).flatMap(([channel, value]) => {
    const rule = graph && NORMALISATIONS.find((r) => r.drops(channel, value, c, graph))
    if (rule) normalised[rule.name] = (normalised[rule.name] ?? 0) + 1
    return rule ? [] : [channel]
  })
  const { source, step, channel_versions, versions_seen } = c
  return { source, step, channel_versions, versions_seen, valued: valued.sort() }
}

/** Checkpoint by checkpoint, so that a failure names the first one that differs. */
function expectSameThread(
  ours: RawCheckpoint[],
  theirs: RawCheckpoint[],
  graph: GraphDocumentJson,
  how: string,
): void {
  const outline = (t: RawCheckpoint[]) => t.map((c) => `${c.source}@${c.step}`)
  expect(outline(ours), `${how}: checkpoints`).toEqual(outline(theirs))
  theirs.forEach((raw, i) => {
    const expected = comparable(raw, graph)
    const where = `${how}: checkpoint #${i} (${raw.source} at step ${raw.step})`
    expect(comparable(ours[i] as RawCheckpoint), where).toEqual(expected)
    tally(expected)
  })
}

/** What the suite went through, so that a vacuous pass shows. */
const seen = {
  checkpoints: 0,
  start: 0,
  tasks: 0,
  branch: 0,
  join: 0,
  seenStart: 0,
  seenInterrupt: 0,
  tasksValued: 0,
}

function tally(c: ReturnType<typeof comparable>): void {
  const channels = Object.keys(c.channel_versions)
  seen.checkpoints++
  if (channels.includes('__start__')) seen.start++
  if (channels.includes('__pregel_tasks')) seen.tasks++
  if (channels.some((ch) => ch.startsWith('branch:to:'))) seen.branch++
  if (channels.some((ch) => ch.startsWith('join:'))) seen.join++
  if ('__start__' in c.versions_seen) seen.seenStart++
  if ('__interrupt__' in c.versions_seen) seen.seenInterrupt++
  if (c.valued.includes('__pregel_tasks')) seen.tasksValued++
}

/**
 * Cases and sessions where Superstep's runtime is known to differ from LangGraph.js here,
 * file → why. They run as `it.fails`, so the suite passes while the difference shows.
 */
const KNOWN_MISMATCHES: Readonly<Record<string, string>> = {}

function check(file: string | undefined, fallback: string, body: () => Promise<void>): void {
  const why = file && KNOWN_MISMATCHES[file]
  if (why) it.fails(`${file}: known mismatch, ${why}`, body)
  else it(file ?? fallback, body)
}

describe('channels: every channel version and versions_seen of every case is LangGraph.js’s', () => {
  for (const c of loadCases()) {
    check(c.file, c.description, async () => {
      const parsed = parseGraph(c.graph)
      if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues))
      const theirs = await langGraphThread(() => runOnLangGraph(c))
      const run = (host?: CloneCodeHost) =>
        superstepThread(() =>
          runGraph(parsed.spec, {
            input: structuredClone(c.input),
            recursionLimit: c.recursionLimit,
            env: createCountingEnv(),
            ...(host ? { host } : {}),
          }),
        )
      expectSameThread(await run(), theirs, c.graph, 'local')
      expectSameThread(await run(new CloneCodeHost()), theirs, c.graph, 'host')
    })
  }
})

describe('channels: every channel version and versions_seen of every session is LangGraph.js’s', () => {
  for (const s of loadSessions()) {
    check(s.file, s.description, async () => {
      const parsed = parseGraph(s.graph)
      if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues))
      const theirs = await langGraphThread(() => runSessionOnLangGraph(s))
      const run = (host?: CloneCodeHost) =>
        superstepThread(() =>
          runSession(parsed.spec, structuredClone(s.ops), {
            recursionLimit: s.recursionLimit,
            env: createCountingEnv(),
            ...(host ? { host } : {}),
          }),
        )
      expectSameThread(await run(), theirs, s.graph, 'local')
      expectSameThread(await run(new CloneCodeHost()), theirs, s.graph, 'host')
    })
  }
})

describe('channels: the suite', () => {
  it('went through start, tasks, branch and join channels, and interrupts in versions_seen', () => {
    expect(seen.checkpoints).toBeGreaterThan(500)
    for (const [what, n] of Object.entries(seen)) expect(n, what).toBeGreaterThan(0)
    for (const { name } of NORMALISATIONS) expect(normalised[name], name).toBeGreaterThan(0)
  })
})
