import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { emitPython } from '../codegen/python'
import { parseGraph } from '../core/graph/validate'
import { runGraph, runSession } from '../core/run'
import type { CheckpointReport, ErrorReport, RunReport } from '../core/report'
import { createCountingEnv } from '../lib/env'
import { TEMPLATES } from '../templates'
import { canonicalizeReport, loadCases } from './compare'
import type { DiffCase } from './oracle'
import { canonicalizeSession, loadSessions, type SessionReport } from './session'

/**
 * The Python differential: every case whose code the export translates runs as an emitted
 * module on the real LangGraph Python, and must do what Superstep (that is, LangGraph.js)
 * does, checkpoint for checkpoint, except where LangGraph Python differs on purpose: those
 * differences are listed below, each checked to be exactly what it says.
 *
 * LangGraph Python lives in `.cache/langgraph-python` (`npm run setup:python`, which CI runs).
 */

const PYTHONPATH = fileURLToPath(new URL('../../.cache/langgraph-python', import.meta.url))
const HARNESS = readFileSync(new URL('./langgraphPython.py', import.meta.url), 'utf8')
const env = { ...process.env, PYTHONPATH, PYTHONDONTWRITEBYTECODE: '1' }
const hasLangGraph =
  spawnSync('python3', ['-c', 'import langgraph.graph, langgraph.prebuilt'], { env }).status === 0
if (!hasLangGraph)
  console.warn(
    '\n!!! Python differential SKIPPED: LangGraph Python is not in .cache/langgraph-python.' +
      '\n!!! Install it with: npm run setup:python\n',
  )

/** What is compared: no versions (LangGraph Python's are its own strings). */
interface Comparable {
  status: string
  error: { name: string; message?: string } | null
  checkpoints: Omit<CheckpointReport, 'versions'>[]
  values: Record<string, unknown>
  interrupts: unknown[]
  /** Documents with subgraphs: every checkpoint of every subgraph, with its `ns`. */
  subgraphCheckpoints?: (Omit<CheckpointReport, 'versions'> & { ns: string[] })[]
}

/** JSON with every object's keys sorted: the same value gives the same text whatever its key order. */
function sortedJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(sortedJson).join(',')}]`
  if (typeof v === 'object' && v !== null) {
    const record = v as Record<string, unknown>
    const keys = Object.keys(record).sort()
    return `{${keys.map((k) => `${JSON.stringify(k)}:${sortedJson(record[k])}`).join(',')}}`
  }
  return JSON.stringify(v) ?? 'undefined'
}

/**
 * The subgraphs' checkpoints as a sorted list. LangGraph Python runs parallel tasks in
 * threads, so the checkpoints of two subgraphs running side by side interleave (by time-
 * ordered id) in whatever order the threads ran; compared is the same checkpoints in each
 * namespace, a parent named by its step (an index would depend on that order).
 */
function canonicalSubgraphs<T extends { step: number; ns: string[]; parent?: number | null }>(
  list: T[],
): T[] {
  const named = list.map((c) =>
    c.parent === undefined
      ? c
      : { ...c, parent: c.parent === null ? null : (list[c.parent]?.step ?? null) },
  )
  const keyed = named.map((c) => [sortedJson({ ns: c.ns, step: c.step, c }), c] as const)
  return keyed.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, c]) => c)
}

function comparable(r: Comparable | RunReport): Comparable {
  const json = JSON.parse(JSON.stringify(r)) as Comparable
  return canonicalizeReport({
    status: json.status,
    error: json.error && { name: PYTHON_ERROR_NAME[json.error.name] ?? json.error.name },
    checkpoints: json.checkpoints.map(({ step, source, next, values }) => ({
      step,
      source,
      next,
      values,
    })),
    values: json.values,
    interrupts: json.interrupts,
    ...(json.subgraphCheckpoints && {
      subgraphCheckpoints: canonicalSubgraphs(
        json.subgraphCheckpoints.map(({ step, source, next, values, ns }) => ({
          step,
          source,
          next,
          values,
          ns,
        })),
      ),
    }),
  } as unknown as RunReport) as unknown as Comparable
}

/**
 * A plain error in each language: `throw new Error(…)` is `raise Exception(…)`, and where
 * LangGraph.js refuses an argument with a plain Error (bulkUpdateState's "No supersteps
 * provided"), LangGraph Python raises ValueError.
 */
const PYTHON_ERROR_NAME: Record<string, string> = { Exception: 'Error', ValueError: 'Error' }

type Checkpoint = Comparable['checkpoints'][number]
const at = (r: Comparable, step: number) => r.checkpoints.find((c) => c.step === step) as Checkpoint

/** The tool message that answers `callId` in every checkpoint and in the end values. */
function toolAnswers(r: Comparable, callId: string): Record<string, unknown>[] {
  const all = [...r.checkpoints.map((c) => c.values), r.values]
  return all.flatMap((v) =>
    ((v.messages ?? []) as Record<string, unknown>[]).filter((m) => m.tool_call_id === callId),
  )
}

/**
 * Where LangGraph Python does otherwise than LangGraph.js (docs/runtime.md): each entry checks
 * that Python did exactly this and writes LangGraph.js's outcome in its place, so the rest
 * of the run must still agree, and a difference that changes or goes away fails the case.
 */
const KNOWN: Record<string, { why: string; align: (py: Comparable) => void }> = {
  '15-branch-path-map-unknown-label.json': {
    why: 'a label missing from the path map is a KeyError in Python',
    align: (py) => {
      expect(py.error?.name).toBe('KeyError')
      py.error = { name: 'Error' }
    },
  },
  '24-join-uneven.json': {
    why: "Python's snapshot lists a join's node as next while the join still waits",
    align: (py) => {
      expect(at(py, 1).next).toEqual(['b2', 'd'])
      at(py, 1).next = ['b2']
    },
  },
  '26-join-plus-direct-edge.json': {
    why: "LangGraph.js's last checkpoint lists d as next after d ran (reference c41); Python's lists nothing",
    align: (py) => {
      expect(at(py, 2).next).toEqual([])
      at(py, 2).next = ['d']
    },
  },
  '43-messages-tool-calls.json': {
    why: 'a tool message written without a status has status "success" in Python (ToolMessage\'s default); in LangGraph.js it has none',
    align: (py) => {
      const answers = toolAnswers(py, 'call1')
      expect(answers.length).toBeGreaterThan(0)
      for (const m of answers) {
        expect(m.status).toBe('success')
        delete m.status
      }
    },
  },
  '53-send-unknown-node.json': {
    why: 'Python ignores a Send to an unknown node (with a warning); LangGraph.js raises',
    align: (py) => {
      expect(py.status).toBe('done')
      expect(py.checkpoints.map((c) => c.step)).toEqual([-1, 0, 1, 2])
      py.status = 'error'
      py.error = { name: 'InvalidUpdateError' }
      py.checkpoints = py.checkpoints.slice(0, 2)
      py.values = py.checkpoints[1]?.values ?? {}
    },
  },
  '88-tool-args-additional-properties.json': {
    why: "LangChain Python does not check a call's arguments against a JSON-schema args_schema",
    align: (py) => {
      const answers = toolAnswers(py, 'c1')
      expect(answers.length).toBeGreaterThan(0)
      for (const m of answers) {
        expect(m).toMatchObject({ status: 'success', content: '{"text":"hi","loud":true}' })
        m.status = 'error'
        m.content =
          'Error: Received tool input did not match expected schema\n Please fix your mistakes.'
      }
    },
  },
  '142-tool-messages-without-id.json': {
    why: 'a tool message written without a status has status "success" in Python (as in case 43)',
    align: (py) => {
      for (const id of ['1', '2']) {
        const answers = toolAnswers(py, id)
        expect(answers.length).toBeGreaterThan(0)
        for (const m of answers) {
          expect(m.status).toBe('success')
          delete m.status
        }
      }
    },
  },
  '192-it-error-propagates-from-parallel-node.json': {
    why: "with an empty state schema, LangGraph Python's snapshot values are every channel's: __start__ and branch:to:<node> show up",
    align: (py) => {
      expect(py.checkpoints[0]?.values).toEqual({ __start__: {} })
      expect(py.checkpoints[1]?.values).toEqual({ 'branch:to:agent': null, 'branch:to:bad': null })
      for (const c of py.checkpoints) c.values = {}
      py.values = {}
    },
  },
  '90-router-view-of-own-writes.json': {
    why: "what a router reads of ephemeral and non-accumulating topic fields: LangGraph.js clears the ones its node wrote and keeps the others; Python keeps the node's writes and clears the others",
    align: (py) => {
      const python = [
        'a:{"e":"a","t":["a"],"ta":["a"],"lv":"a","r":["a"],"seen":[]}',
        'b:{"e":"b","lv":"b","ta":["a"],"r":["a"],"seen":[]}',
      ]
      const js = [
        'a:{"ta":["a"],"lv":"a","r":["a"],"seen":[]}',
        'b:{"t":["a"],"ta":["a"],"lv":"b","r":["a"],"seen":[]}',
      ]
      const views = [...py.checkpoints.map((c) => c.values), py.values].filter((v) => v.seen)
      expect(views.some((v) => (v.seen as string[]).length === 2)).toBe(true)
      for (const v of views) {
        const n = (v.seen as string[]).length
        expect(v.seen).toEqual(python.slice(0, n))
        v.seen = js.slice(0, n)
      }
    },
  },
}

/**
 * Node code calling a subgraph (`await subgraphs.x.invoke(input)`) in a way the translator
 * takes, at two levels: the root calls `count`, and `count`'s own node calls `tick`, a subgraph
 * defined inside it. (Cases 252 and session 285 call subgraphs too, with code it leaves to a
 * human: `.split()` of an unknown value, a write that may be undefined.)
 */
const SUBGRAPH_CALL: DiffCase = {
  description: 'node code calls a subgraph, which calls its own',
  file: 'subgraph-call-from-code',
  graph: {
    superstep: 1,
    name: 'subgraph call from code',
    state: [{ name: 'log', reducer: 'append', default: [] }],
    nodes: [
      {
        id: 'call',
        code: "async (s) => { const out = await subgraphs.count.invoke({ n: s.log.length }); return { log: ['n=' + String(out.n)] } }",
      },
    ],
    edges: [
      { from: '__start__', to: 'call' },
      { from: 'call', to: '__end__' },
    ],
    subgraphs: {
      count: {
        state: [{ name: 'n', reducer: 'add', default: 0 }],
        nodes: [
          {
            id: 'bump',
            code: 'async (s) => { const t = await subgraphs.tick.invoke({ by: 2 }); return { n: t.by ?? 0 } }',
          },
        ],
        edges: [
          { from: '__start__', to: 'bump' },
          { from: 'bump', to: '__end__' },
        ],
        subgraphs: {
          tick: {
            state: [{ name: 'by', reducer: 'add', default: 0 }],
            nodes: [{ id: 'twice', code: '(s) => ({ by: 1 })' }],
            edges: [
              { from: '__start__', to: 'twice' },
              { from: 'twice', to: '__end__' },
            ],
          },
        },
      },
    },
  },
  input: { log: ['a', 'b'] },
}

/** The items whose graph exports to Python with nothing left to translate by hand. */
function translated<T extends { graph: unknown }>(items: T[]) {
  return items.flatMap((item) => {
    const parsed = parseGraph(item.graph)
    if (!parsed.ok) return []
    const source = emitPython(parsed.spec)
    if (source.includes('translate this JavaScript by hand')) return []
    return [{ item, spec: parsed.spec, source }]
  })
}

/** Runs the emitted modules (cases or sessions) in one python3 on LangGraph Python. */
function runOnPython<T>(modules: { name: string; source: string }[]): T[] {
  const py = spawnSync('python3', ['-c', HARNESS], {
    input: JSON.stringify(modules),
    encoding: 'utf8',
    env,
    maxBuffer: 1 << 28,
  })
  if (py.status !== 0) throw new Error(py.stderr)
  return JSON.parse(py.stdout) as T[]
}

describe.skipIf(!hasLangGraph)(
  'differential: emitted Python runs on LangGraph Python as Superstep runs',
  () => {
    // The differential cases, and the templates with their first input (what users export first).
    const exportedTemplates = TEMPLATES
    const templates = TEMPLATES.map((t): DiffCase => ({
      description: `template ${t.id}`,
      file: `template ${t.id}`,
      graph: t.doc as DiffCase['graph'],
      input: t.input,
    }))
    const exported = [...loadCases(), SUBGRAPH_CALL]
    const cases = translated([...exported, ...templates]).map(({ item, ...t }) => ({
      c: item,
      ...t,
    }))
    const theirs = hasLangGraph
      ? runOnPython<Comparable>(
          cases.map(({ c, source }) => ({
            name: c.file ?? c.description,
            source,
            input: c.input ?? null,
            recursionLimit: c.recursionLimit,
            subgraphs: Object.keys(c.graph.subgraphs ?? {}).length > 0,
          })),
        )
      : []

    // Left to translate by hand: map-reduce's `pick`.
    const byHand = ['map-reduce']
    it('translates most cases and every template but map-reduce', () => {
      expect(cases.length).toBeGreaterThanOrEqual(80)
      const ids = cases.map(({ c }) => c.file).filter((f) => f?.startsWith('template '))
      expect(ids).toEqual(
        exportedTemplates.filter((t) => !byHand.includes(t.id)).map((t) => `template ${t.id}`),
      )
    })
    it('translates a subgraph called from node code', () => {
      expect(cases.map(({ c }) => c.file)).toContain('subgraph-call-from-code')
    })
    it('lists only differences of cases it runs', () => {
      const ran = new Set(cases.map(({ c }) => c.file))
      expect(Object.keys(KNOWN).filter((f) => !ran.has(f))).toEqual([])
    })
    cases.forEach(({ c, spec }, i) => {
      it(c.file ?? c.description, async () => {
        const mine = comparable(
          await runGraph(spec, {
            input: structuredClone(c.input),
            recursionLimit: c.recursionLimit,
            env: createCountingEnv(),
          }),
        )
        const py = comparable(theirs[i] as Comparable)
        KNOWN[c.file ?? '']?.align(py)
        expect(py).toEqual(mine)
      })
    })
  },
)

/** A session's report without versions and warnings; errors by name. */
function comparableSession(r: SessionReport): SessionReport {
  const json = JSON.parse(JSON.stringify(r)) as SessionReport
  const err = (e: SessionReport['error']) =>
    e && ({ name: PYTHON_ERROR_NAME[e.name] ?? e.name } as SessionReport['error'])
  return canonicalizeSession({
    status: json.status,
    values: json.values,
    checkpoints: json.checkpoints.map((c) => ({ ...c, versions: {} })),
    error: err(json.error),
    opErrors: json.opErrors.map((o) => ({ op: o.op, error: err(o.error) as ErrorReport })),
    ...(json.subgraphCheckpoints && {
      subgraphCheckpoints: canonicalSubgraphs(
        json.subgraphCheckpoints.map((c) => ({ ...c, versions: {} })),
      ),
    }),
  })
}

/**
 * A session's shape: status, error, the end values and each checkpoint as
 * `step source [next] ^parent`, oldest first, joined by ` | `.
 */
interface Outline {
  status: string
  error: string | null
  checkpoints: string
  values: Record<string, unknown>
}
function outline(r: SessionReport): Outline {
  return {
    status: r.status,
    error: r.error?.name ?? null,
    checkpoints: r.checkpoints
      .map((c) => `${c.step} ${c.source} [${c.next.join(',')}] ^${c.parent ?? '-'}`)
      .join(' | '),
    values: r.values,
  }
}

/**
 * Sessions where LangGraph Python's own handling of Commands, interrupts and replays differs
 * (docs/runtime.md): what Python did, outlined; Superstep's run is LangGraph.js's
 * (sessions.test.ts) and must differ from it.
 */
const KNOWN_SESSIONS: Record<string, { why: string; python: Outline }> = {
  '30-interrupt-parallel-both-one-resume.json': {
    why: 'several pending interrupts: Python refuses one resume value without interrupt ids (RuntimeError); LangGraph.js gives it to every one',
    python: {
      status: 'error',
      error: 'RuntimeError',
      checkpoints: '-1 input [__start__] ^- | 0 loop [ask1,ask2] ^0',
      values: { log: [] },
    },
  },
  '32-interrupt-in-two-sends.json': {
    why: 'several pending interrupts (of two Sends): Python refuses one resume value without interrupt ids (RuntimeError); LangGraph.js gives it to every one',
    python: {
      status: 'error',
      error: 'RuntimeError',
      checkpoints: '-1 input [__start__] ^- | 0 loop [ask,ask] ^0',
      values: { items: ['p', 'q'], results: [] },
    },
  },
  '283-subgraph-two-interrupts-parallel.json': {
    why: 'two pending interrupts, one in each of two parallel subgraphs: Python refuses one resume value without interrupt ids (RuntimeError, as in session 30); LangGraph.js gives it to both',
    python: {
      status: 'error',
      error: 'RuntimeError',
      checkpoints: '-1 input [__start__] ^- | 0 loop [left,right] ^0',
      values: { log: [] },
    },
  },
  '39-resume-null-value.json': {
    why: 'Command(resume=None): LangGraph.js raises EmptyInputError; LangGraph Python 1.2.12 fails inside (UnboundLocalError)',
    python: {
      status: 'error',
      error: 'UnboundLocalError',
      checkpoints: '-1 input [__start__] ^- | 0 loop [a] ^0 | 1 loop [ask] ^1',
      values: { x: 'a', log: ['a'] },
    },
  },
  '41-resume-empty-thread.json': {
    why: 'a Command on an empty thread: Python runs the graph from START; LangGraph.js saves one input checkpoint and runs nothing',
    python: {
      status: 'done',
      error: null,
      checkpoints:
        '-1 input [__start__] ^- | 0 loop [a] ^0 | 1 loop [b] ^1 | 2 loop [c] ^2 | 3 loop [] ^3',
      values: { x: 'c:b:a', log: ['a', 'b', 'c'] },
    },
  },
  '69-replay-latest-checkpoint.json': {
    why: 'a replay addressed at the latest checkpoint: Python forks it; LangGraph.js continues in place',
    python: {
      status: 'done',
      error: null,
      checkpoints:
        '-1 input [__start__] ^- | 0 loop [a] ^0 | 1 loop [b] ^1 | 2 fork [b] ^2 | 3 loop [c] ^3 | 4 loop [] ^4',
      values: { x: 'c:b:a', log: ['a', 'b', 'c'] },
    },
  },
  '120-pregel-two-processes-interrupt-after-one.json': {
    why: 'a replay addressed at the latest (finished) checkpoint: Python forks it (a fork checkpoint with nothing next); LangGraph.js does nothing',
    python: {
      status: 'interrupted',
      error: null,
      checkpoints:
        '-1 input [__start__] ^- | 0 loop [one] ^0 | 1 loop [two] ^1 | 2 loop [] ^2 | 3 input [__start__] ^3 | 4 loop [one] ^4 | 5 loop [two] ^5 | 6 input [__start__] ^6 | 7 loop [one] ^7 | 8 loop [two] ^8 | 9 loop [] ^9 | 10 fork [] ^10 | 9 fork [two] ^9 | 10 loop [] ^12 | 8 fork [one] ^8 | 9 loop [two] ^14',
      values: { inbox: 4, output: 4, input: 3 },
    },
  },
  '171-command-with-static-breakpoints.json': {
    why: 'Command(update) while paused at a static breakpoint: Python applies it in the next loop step; LangGraph.js saves an input checkpoint first',
    python: {
      status: 'done',
      error: null,
      checkpoints: '-1 input [__start__] ^- | 0 loop [node1] ^0 | 1 loop [node2] ^1 | 2 loop [] ^2',
      values: { foo: 'def|node-1|node-2' },
    },
  },
  '176-command-with-static-breakpoint-after.json': {
    why: 'Command(update) while paused after a node: Python applies it in the next loop step; LangGraph.js saves an input checkpoint first',
    python: {
      status: 'done',
      error: null,
      checkpoints: '-1 input [__start__] ^- | 0 loop [node1] ^0 | 1 loop [node2] ^1 | 2 loop [] ^2',
      values: { foo: 'def|node-2' },
    },
  },
  '177-command-with-static-breakpoint-goto.json': {
    why: 'Command(goto) while paused at a breakpoint: Python fails in the first step (the pending node runs too); LangGraph.js saves an input checkpoint first',
    python: {
      status: 'error',
      error: 'InvalidUpdateError',
      checkpoints: '-1 input [__start__] ^- | 0 loop [node1] ^0',
      values: { foo: 'def' },
    },
  },
  '182-debug-retry-update-null-input-checkpoint.json': {
    why: "updateState(null) without asNode on an input checkpoint: Python applies it as START (nothing was seen yet), so the fork's first node is next; LangGraph.js keeps __start__ next",
    python: {
      status: 'done',
      error: null,
      checkpoints:
        '-1 input [__start__] ^- | 0 loop [one] ^0 | 1 loop [two] ^1 | 2 loop [] ^2 | 0 update [one] ^0 | 1 loop [two] ^4 | 2 loop [] ^5',
      values: { messages: ['one', 'two'] },
    },
  },
  '74-replay-update-checkpoint-superseded.json': {
    why: 'a replay addressed at a superseded update checkpoint: Python continues from it; LangGraph.js writes a fork checkpoint first',
    python: {
      status: 'done',
      error: null,
      checkpoints:
        '-1 input [__start__] ^- | 0 loop [a] ^0 | 1 loop [b] ^1 | 2 loop [c] ^2 | 3 loop [] ^3 | 2 update [b] ^2 | 3 loop [c] ^5 | 4 loop [] ^6 | 3 loop [c] ^5 | 4 loop [] ^8',
      values: { x: 'c:b:forked', log: ['a', 'b', 'c'] },
    },
  },
  '75-replay-fork-checkpoint-superseded.json': {
    why: 'a replay addressed at a superseded fork checkpoint: Python continues from it; LangGraph.js writes a fork checkpoint first',
    python: {
      status: 'done',
      error: null,
      checkpoints:
        '-1 input [__start__] ^- | 0 loop [a] ^0 | 1 loop [b] ^1 | 2 loop [c] ^2 | 3 loop [] ^3 | 2 fork [b] ^2 | 3 loop [c] ^5 | 4 loop [] ^6 | 3 loop [c] ^5 | 4 loop [] ^8',
      values: { x: 'c:b:a', log: ['a', 'b', 'c'] },
    },
  },
  '78-fail-parallel-command-update-retry.json': {
    why: 'Command(update) after a failed step: Python applies it in the next loop step; LangGraph.js saves an input checkpoint first',
    python: {
      status: 'done',
      error: null,
      checkpoints:
        '-1 input [__start__] ^- | 0 loop [ok,flaky] ^0 | 1 loop [after] ^1 | 2 loop [] ^2',
      values: { log: ['flaky', 'ok:first', 'after'], fixed: true },
    },
  },
  '81-fail-parallel-update-retry.json': {
    why: 'updateState after a failed parallel step: Python keeps both tasks next, so they re-run; LangGraph.js applies it as the task that succeeded, next []',
    python: {
      status: 'done',
      error: null,
      checkpoints:
        '-1 input [__start__] ^- | 0 loop [ok,flaky] ^0 | 1 update [ok,flaky] ^1 | 2 loop [after] ^2 | 3 loop [] ^3',
      values: { log: ['flaky', 'ok:rerun', 'after'], fixed: true },
    },
  },
  '82-fail-parallel-update-asnode-retry.json': {
    why: "updateState as the task that succeeded after a failed parallel step: Python drops that task's pending writes; LangGraph.js commits them first",
    python: {
      status: 'done',
      error: null,
      checkpoints: '-1 input [__start__] ^- | 0 loop [ok,flaky] ^0 | 1 update [] ^1',
      values: { log: [], fixed: true },
    },
  },
  '85-command-update-empty-thread.json': {
    why: 'a Command on an empty thread: Python runs the graph from START; LangGraph.js saves one input checkpoint and runs nothing',
    python: {
      status: 'done',
      error: null,
      checkpoints:
        '-1 input [__start__] ^- | 0 loop [a] ^0 | 1 loop [b] ^1 | 2 loop [] ^2 | 3 loop [b] ^3 | 4 loop [] ^4',
      values: { n: 6, path: ['a:6', 'b:6', 'a:6', 'b:6'] },
    },
  },
  '86-command-goto-empty-thread.json': {
    why: "Command(goto) on an empty thread: Python runs START's edges as well; LangGraph.js runs only the goto node",
    python: {
      status: 'done',
      error: null,
      checkpoints: '-1 input [__start__] ^- | 0 loop [a,b] ^0 | 1 loop [b] ^1 | 2 loop [] ^2',
      values: { n: 0, path: ['a:0', 'b:0', 'b:0'] },
    },
  },
  '87-command-update-goto.json': {
    why: 'Command(update, goto) on a finished thread: Python applies it in one more loop step; LangGraph.js saves an input checkpoint first',
    python: {
      status: 'done',
      error: null,
      checkpoints:
        '-1 input [__start__] ^- | 0 loop [a] ^0 | 1 loop [b] ^1 | 2 loop [] ^2 | 3 loop [] ^3',
      values: { n: 10, path: ['a:0', 'b:0', 'b:10'] },
    },
  },
  '88-command-goto-send.json': {
    why: 'Command(goto=Send) on a finished thread: Python applies it in one more loop step; LangGraph.js saves an input checkpoint first',
    python: {
      status: 'done',
      error: null,
      checkpoints:
        '-1 input [__start__] ^- | 0 loop [a] ^0 | 1 loop [b] ^1 | 2 loop [] ^2 | 3 loop [] ^3',
      values: { n: 0, path: ['a:0', 'b:0', 'b:7'] },
    },
  },
  '89-command-update-while-paused.json': {
    why: 'Command(update) while paused: Python applies it in the next loop step; LangGraph.js saves an input checkpoint first',
    python: {
      status: 'done',
      error: null,
      checkpoints: '-1 input [__start__] ^- | 0 loop [a] ^0 | 1 loop [b] ^1 | 2 loop [] ^2',
      values: { n: 5, path: ['a:0', 'b:5'] },
    },
  },
  '90-command-empty.json': {
    why: 'an empty Command(): LangGraph.js raises EmptyInputError; LangGraph Python 1.2.12 fails inside (UnboundLocalError)',
    python: {
      status: 'error',
      error: 'UnboundLocalError',
      checkpoints: '-1 input [__start__] ^- | 0 loop [a] ^0 | 1 loop [b] ^1 | 2 loop [] ^2',
      values: { n: 0, path: ['a:0', 'b:0'] },
    },
  },
}

describe.skipIf(!hasLangGraph)(
  'differential sessions: emitted Python runs the ops on one thread as Superstep does',
  () => {
    const exported = loadSessions()
    const sessions = translated(exported).map(({ item, ...t }) => ({ s: item, ...t }))
    const theirs = hasLangGraph
      ? runOnPython<SessionReport>(
          sessions.map(({ s, source }) => ({
            name: s.file ?? s.description,
            source,
            ops: s.ops,
            recursionLimit: s.recursionLimit,
            subgraphs: Object.keys(s.graph.subgraphs ?? {}).length > 0,
            interruptBefore: s.graph.interruptBefore,
            interruptAfter: s.graph.interruptAfter,
          })),
        )
      : []

    it('translates most sessions', () => expect(sessions.length).toBeGreaterThanOrEqual(50))
    it('lists only differences of sessions it runs', () => {
      const ran = new Set(sessions.map(({ s }) => s.file))
      expect(Object.keys(KNOWN_SESSIONS).filter((f) => !ran.has(f))).toEqual([])
    })
    sessions.forEach(({ s, spec }, i) => {
      it(s.file ?? s.description, async () => {
        const mine = comparableSession(
          await runSession(spec, structuredClone(s.ops), {
            recursionLimit: s.recursionLimit,
            env: createCountingEnv(),
          }),
        )
        const py = comparableSession(theirs[i] as SessionReport)
        const known = KNOWN_SESSIONS[s.file ?? '']
        if (known) {
          expect(outline(py)).toEqual(known.python)
          expect(outline(mine)).not.toEqual(known.python)
        } else expect(py).toEqual(mine)
      })
    })
  },
)
