/**
 * inspectCheckpoint against Superstep's own runtime on every differential case and session:
 * for every checkpoint of every thread, the schedule adds up to the snapshot's `next`, the
 * channel table's versions are the checkpoint's, and `ran` names the parent's tasks that
 * stored writes. (The runtime itself is matched against LangGraph.js by src/differential.)
 */
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { createCountingEnv } from '../../lib/env'
import { loadCases } from '../../differential/compare'
import { MemorySaver } from '../checkpoint/memorySaver'
import type { CheckpointTuple } from '../checkpoint/types'
import { compileGraph, type CompiledGraph } from '../compile/compileGraph'
import { evaluateLocally } from '../compile/evaluate'
import { parseGraph } from '../graph/validate'
import type { RunConfig } from '../pregel/loop'
import { sortByTaskPath } from '../pregel/algo'
import { GraphRuntime } from '../pregel/runtime'
import { snapshotOf } from '../pregel/state'
import { runSessionOp, type SessionOp } from '../run'
import { inspectCheckpoint } from './inspect'
import { layoutHistoryTree } from './tree'
import type { CheckpointInspection } from './types'

const THREAD = 't'

interface Thread {
  graph: CompiledGraph
  runtime: GraphRuntime
  saver: MemorySaver
}

function threadFor(doc: unknown): Thread {
  const parsed = parseGraph(doc)
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues))
  const env = createCountingEnv()
  const graph = compileGraph(parsed.spec, { evaluate: evaluateLocally, newId: env.newId })
  const saver = new MemorySaver()
  return { graph, saver, runtime: new GraphRuntime({ graph, saver, env }) }
}

/** Runs one session op as `superstep session` does (errors are part of the story). */
async function runOp(t: Thread, op: SessionOp, recursionLimit?: number): Promise<void> {
  const oldest = await tuples(t)
  const checkpointId =
    op.checkpoint === undefined ? undefined : oldest[op.checkpoint]?.config.checkpointId
  const cfg: RunConfig = { threadId: THREAD, checkpointId, recursionLimit }
  try {
    await runSessionOp(t.runtime, op, cfg)
  } catch {
    // A failed step keeps its checkpoints and pending writes; that is what we inspect.
  }
}

/** The thread's tuples, oldest first. */
async function tuples(t: Thread): Promise<CheckpointTuple[]> {
  const out: CheckpointTuple[] = []
  for await (const tuple of t.saver.list({ threadId: THREAD })) out.push(tuple)
  return out.reverse()
}

const sorted = (names: readonly string[]) => [...names].sort()

/** What the suite went through, so that a vacuous pass shows. */
const seen = {
  forks: 0,
  checkpoints: 0,
  ran: 0,
  sends: 0,
  waiting: 0,
  folds: 0,
  interrupts: 0,
  errors: 0,
}

/** The assertions, for every checkpoint of the thread. */
async function checkEveryCheckpoint(t: Thread): Promise<void> {
  const all = await tuples(t)
  const byId = new Map(all.map((tuple) => [tuple.config.checkpointId, tuple]))
  checkTree(all)
  for (const tuple of all) {
    const parent = tuple.parentConfig && byId.get(tuple.parentConfig.checkpointId)
    const inspection = await inspectCheckpoint(t.graph, tuple, parent)
    const snapshot = await snapshotOf(t.graph, tuple)
    const where = `${tuple.metadata.source} checkpoint at step ${tuple.metadata.step}`

    const scheduled = inspection.schedule.flatMap((s) => [
      ...(s.willRun ? [s.node] : []),
      ...Array.from({ length: s.sends }, () => s.node),
    ])
    expect(sorted(scheduled), where).toEqual(sorted(snapshot.next))
    expect(inspection.next, where).toEqual(snapshot.next)
    for (const s of inspection.schedule) {
      // LangGraph's rule: the first trigger, in `triggers` order, available and newer than seen.
      const firing = s.triggers.find((tr) => tr.newer && tr.available)
      expect(s.willRun, `${where}: ${s.node}`).toBe(firing !== undefined)
      const because = firing && `will run: \`${firing.channel}\` is at ${firing.current}, `
      if (because) expect(s.reason.startsWith(because), s.reason).toBe(true)
      else if (s.sends === 0) expect(s.reason.startsWith('will not run: '), s.reason).toBe(true)
    }

    const versions = Object.fromEntries(
      inspection.channels.flatMap((c) => (c.version === undefined ? [] : [[c.name, c.version]])),
    )
    expect(versions, where).toEqual(tuple.checkpoint.channel_versions)
    expect(inspection.channels.map((c) => c.name)).toEqual(Object.keys(t.graph.channels))

    const expectedRan =
      tuple.metadata.source === 'loop' && parent
        ? (await snapshotOf(t.graph, parent)).tasks.filter((s) => s.writes).map((s) => s.name)
        : []
    expect(sorted(inspection.ran.map((r) => r.name)), where).toEqual(sorted(expectedRan))
    if (parent) await checkRanWrites(t, inspection, parent)
    count(inspection)
  }
}

/** Each task's writes are its stored outputs (as getState shows them), markers left out. */
async function checkRanWrites(t: Thread, i: CheckpointInspection, parent: CheckpointTuple) {
  const tasks = new Map((await snapshotOf(t.graph, parent)).tasks.map((s) => [s.id, s]))
  for (const run of i.ran) {
    const stored = (tasks.get(run.id)?.writes ?? []).filter(([ch]) => ch !== '__no_writes__')
    expect(run.writes.map((w) => [w.channel, w.value])).toEqual(stored)
  }
  expect(sortByTaskPath(i.ran)).toEqual(i.ran)
}

/** The history tree of the thread: a fork's line never runs through a checkpoint's own lane. */
function checkTree(oldest: readonly CheckpointTuple[]): void {
  const rows = layoutHistoryTree(
    [...oldest].reverse().map((t) => ({
      checkpointId: t.config.checkpointId,
      ...(t.parentConfig ? { parentId: t.parentConfig.checkpointId } : {}),
      step: t.metadata.step,
      source: t.metadata.source,
    })),
  )
  const laneOf = new Map(rows.map((r) => [r.checkpointId, r.lane]))
  for (const r of rows) {
    expect(r.through).not.toContain(r.lane)
    expect(r.parentLane).toBe(r.parentId === undefined ? undefined : laneOf.get(r.parentId))
    expect(r.isTip).toBe(!rows.some((o) => o.parentId === r.checkpointId))
  }
  if (rows.some((r) => r.lane > 0)) seen.forks++
}

function count(i: CheckpointInspection): void {
  seen.checkpoints++
  seen.ran += i.ran.length
  seen.sends += i.schedule.reduce((n, s) => n + s.sends, 0)
  seen.waiting += i.schedule.filter((s) => s.reason.includes('is waiting for')).length
  seen.folds += i.folds.length
  seen.interrupts += i.ran.filter((r) => r.interrupts.length > 0).length
  seen.errors += i.ran.filter((r) => r.error).length
}

function loadSessionFiles(): { file: string; graph: unknown; ops: SessionOp[]; limit?: number }[] {
  const dir = fileURLToPath(new URL('../../differential/sessions/', import.meta.url))
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => {
      const s = JSON.parse(readFileSync(join(dir, file), 'utf8')) as {
        graph: unknown
        ops: SessionOp[]
        recursionLimit?: number
      }
      return { file, graph: s.graph, ops: s.ops, limit: s.recursionLimit }
    })
}

describe('inspectCheckpoint on every differential case', () => {
  const cases = loadCases()
  it('has the cases', () => expect(cases.length).toBeGreaterThanOrEqual(40))
  for (const c of cases) {
    it(c.file ?? c.description, async () => {
      const t = threadFor(c.graph)
      await runOp(t, { op: 'invoke', input: c.input }, c.recursionLimit)
      await checkEveryCheckpoint(t)
    })
  }
})

describe('inspectCheckpoint on every differential session (interrupts, updates, forks)', () => {
  const sessions = loadSessionFiles()
  it('has the sessions', () => expect(sessions.length).toBeGreaterThanOrEqual(30))
  for (const s of sessions) {
    it(s.file, async () => {
      const t = threadFor(s.graph)
      for (const op of s.ops) await runOp(t, op, s.limit)
      await checkEveryCheckpoint(t)
    })
  }
})

describe('inspectCheckpoint on the differential suite', () => {
  it('went through sends, barriers, folds, interrupts, retried errors and forks', () => {
    expect(seen.checkpoints).toBeGreaterThan(500)
    for (const [what, n] of Object.entries(seen)) expect(n, what).toBeGreaterThan(0)
  })
})
