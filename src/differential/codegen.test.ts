/**
 * The TypeScript export, run: every differential case and session (and a batch of nasty
 * fuzz documents) is emitted as a module, imported, and run on `@langchain/langgraph` the
 * way the oracle runs its own translation; the report must equal Superstep's own runtime's,
 * compared exactly as differential.test.ts and sessions.test.ts compare. All emitted
 * modules are also typechecked by one `tsc --strict` run.
 */
import { execFile } from 'node:child_process'
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { MemorySaver } from '@langchain/langgraph'
import { afterAll, describe, expect, it } from 'vitest'
import { escapeLoneSurrogates } from '../codegen/text'
import { emitTypeScript } from '../codegen/typescript'
import { userCode } from '../codegen/tsContext'
import { fuzzGraph } from '../codegen/fuzzGraphs'
import type { GraphSpec } from '../core/graph/schema'
import { parseGraph } from '../core/graph/validate'
import type { RunReport } from '../core/report'
import { runGraph, runSession, type SessionReport } from '../core/run'
import { createCountingEnv } from '../lib/env'
import { lookupSubgraph, scopeOf, subgraphsCalledBy } from '../core/graph/subgraphScope'
import type { SubgraphScope } from '../core/graph/subgraphScope'
import { nsNodes } from '../core/pregel/namespace'
import { canonicalizeReport, hasSubgraphs, loadCases } from './compare'
import { TEMPLATES } from '../templates'
import {
  runOnLangGraph,
  type BuiltLangGraph,
  type CompiledLangGraph,
  type DiffCase,
  type GraphDocumentJson,
} from './oracle'
import { canonicalizeSession, loadSessions, runSessionOnLangGraph } from './session'
import type { SessionCase } from './session'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
/**
 * Inside the repository, so that the modules resolve `@langchain/langgraph`; one folder per
 * test process, so that two runs side by side do not share files.
 */
const DIR = join(ROOT, 'node_modules/.cache/superstep-codegen', String(process.pid))

/** Case reports agree on: status, every checkpoint's step, source, next, values, versions; pending interrupts; error name+code. */
function comparableRun(r: RunReport) {
  const c = canonicalizeReport(JSON.parse(JSON.stringify(r)) as RunReport)
  return {
    status: c.status,
    values: c.values,
    checkpoints: c.checkpoints,
    interrupts: c.interrupts,
    error: c.error && { name: c.error.name, code: c.error.code },
    subgraphCheckpoints: c.subgraphCheckpoints,
    interruptNs: c.interruptNs,
  }
}

/** Session reports agree on the same, plus parents, interrupts and per-op errors. */
function comparableSession(r: Omit<SessionReport, 'warnings'>) {
  const c = canonicalizeSession(JSON.parse(JSON.stringify({ ...r, warnings: undefined })))
  const err = (e: SessionReport['error']) => e && { name: e.name, code: e.code }
  return {
    status: c.status,
    values: c.values,
    checkpoints: c.checkpoints,
    error: err(c.error),
    opErrors: c.opErrors.map((o) => ({ op: o.op, error: err(o.error) })),
    subgraphCheckpoints: c.subgraphCheckpoints,
  }
}

function specOf(doc: unknown): GraphSpec {
  const parsed = parseGraph(doc)
  if (!parsed.ok || !parsed.spec) throw new Error(`invalid document: ${parsed.issues[0]?.message}`)
  return parsed.spec
}

// Emit everything up front; identical modules are written (and typechecked) once.
rmSync(DIR, { recursive: true, force: true })
mkdirSync(DIR, { recursive: true })
const files = new Map<string, string>()
/** Each written module's text and where the document's own code sits in it. */
const written = new Map<string, { source: string; code: [number, number][] }>()
function moduleFor(spec: GraphSpec, label: string): string {
  const source = emitTypeScript(spec)
  let file = files.get(source)
  if (file === undefined) {
    const safe = label.replace(/\.json$/, '').replace(/[^a-z0-9-]+/gi, '-')
    file = join(DIR, `${String(files.size).padStart(3, '0')}-${safe}.ts`)
    writeFileSync(file, source)
    files.set(source, file)
    written.set(basename(file), { source, code: codeSpans(spec, source) })
  }
  return file
}

/** The spans of node, tool, router and custom reducer code in a module (each is `= <code>\n`). */
function codeSpans(spec: GraphSpec, source: string): [number, number][] {
  const codes = userCode(spec).map(escapeLoneSurrogates)
  return codes.flatMap((code) => {
    const spans: [number, number][] = []
    for (let at = source.indexOf(code); at >= 0; at = source.indexOf(code, at + 1)) {
      spans.push([at, at + code.length])
    }
    return spans
  })
}

/** Every field kind with a default, Command with `ends`, a join, a deferred node, a path list, a breakpoint. */
const KITCHEN_SINK: SessionCase = {
  description: 'every kind of field, Command, join, defer, path list, breakpoint',
  file: 'kitchen-sink',
  graph: {
    superstep: 1,
    name: 'kitchen sink',
    state: [
      {
        name: 'messages',
        reducer: 'add_messages',
        default: [{ type: 'human', content: 'hello', id: 'h0' }],
      },
      { name: 'tags', reducer: 'union', default: ['x'] },
      { name: 'meta', reducer: 'merge', default: { a: 1, nested: { keep: [1] } } },
      { name: 'total', reducer: 'add', default: 10 },
      { name: 'log', reducer: 'append' },
      { name: 'best', reducer: 'custom', code: '(a, b) => Math.max(a, b)', default: 0 },
      { name: 'events', channel: 'topic', accumulate: true },
      { name: 'signal', channel: 'ephemeral' },
      { name: 'answer', default: 'ignored' },
    ],
    nodes: [
      {
        id: 'a',
        code: "(s) => new Command({ update: { log: ['a'], tags: ['y', 'x'], signal: 1, events: 'a' }, goto: ['b', 'c'] })",
        ends: ['b', 'c'],
      },
      {
        id: 'b',
        code: "(s) => ({ log: ['b'], total: 1, best: 5, meta: { b: 2 }, events: ['b1', 'b2'] })",
      },
      {
        id: 'c',
        code: "(s) => ({ log: ['c:' + s.signal], total: 2, best: 3, messages: [{ role: 'assistant', content: 'hi', id: 'a1' }] })",
      },
      { id: 'join', code: "(s) => ({ answer: s.log.join(',') + ':' + s.total })" },
      { id: 'late', code: "(s) => ({ log: ['late:' + s.messages.length] })", defer: true },
    ],
    edges: [
      { from: '__start__', to: 'a' },
      { from: ['b', 'c'], to: 'join' },
      { from: 'late', to: '__end__' },
    ],
    branches: [
      { from: 'join', router: "(s) => (s.total > 100 ? END : 'late')", paths: ['late', '__end__'] },
    ],
    interruptBefore: ['join'],
  },
  ops: [
    { op: 'invoke', input: {} },
    { op: 'invoke', input: null },
  ],
}

/**
 * A scripted model's reply comes from the state (the AI messages already there), not from
 * a count of calls: a conversation handed in with an AI message in it plays the second
 * reply first. (The oracle counts calls, as LangChain's fake models do, so this is no shared
 * session: the emitted module plays as Superstep does.)
 */
const SCRIPTED_FROM_STATE: SessionCase = {
  description: 'a scripted model picks its reply from the AI messages in the state',
  file: 'scripted-from-state',
  graph: {
    superstep: 1,
    name: 'scripted from state',
    state: [{ name: 'messages', reducer: 'add_messages', default: [] }],
    nodes: [
      {
        id: 'bot',
        kind: 'model',
        model: {
          provider: 'scripted',
          replies: [
            { content: 'one' },
            { content: 'two', tool_calls: [{ name: 't' }] },
            { content: 'three' },
          ],
        },
      },
    ],
    edges: [
      { from: '__start__', to: 'bot' },
      { from: 'bot', to: '__end__' },
    ],
  },
  ops: [
    {
      op: 'invoke',
      input: {
        messages: [
          { type: 'human', content: 'hi', id: 'h1' },
          { type: 'ai', content: 'earlier', id: 'a0' },
        ],
      },
    },
    { op: 'invoke', input: { messages: [{ role: 'user', content: 'again', id: 'h2' }] } },
  ],
}

/**
 * One name, two subgraphs: the root's code and the code of its subgraph `inner` both call
 * `subgraphs.step`, which is the root's `step` for the one and `inner`'s own `step` for the
 * other (the nearest definition). The module then gives each graph's code its own `subgraphs`.
 */
const SHADOWED_SUBGRAPH: DiffCase = {
  description: 'a subgraph name that means another subgraph one level down',
  file: 'shadowed-subgraph-name',
  graph: {
    superstep: 1,
    name: 'shadowed subgraph name',
    state: [{ name: 'log', reducer: 'append', default: [] }],
    nodes: [
      {
        id: 'outer',
        code: "async (s) => { const r = await subgraphs.step.invoke({ tag: 'outer' }); return { log: r.out } }",
      },
      { id: 'inner', kind: 'graph', graph: 'inner' },
    ],
    edges: [
      { from: '__start__', to: 'outer' },
      { from: 'outer', to: 'inner' },
      { from: 'inner', to: '__end__' },
    ],
    subgraphs: {
      step: {
        state: [{ name: 'tag' }, { name: 'out', reducer: 'append', default: [] }],
        nodes: [{ id: 'mark', code: "(s) => ({ out: ['root step:' + s.tag] })" }],
        edges: [
          { from: '__start__', to: 'mark' },
          { from: 'mark', to: '__end__' },
        ],
      },
      inner: {
        state: [{ name: 'log', reducer: 'append', default: [] }],
        nodes: [
          {
            id: 'call',
            code: "async (s) => { const r = await subgraphs.step.invoke({ tag: 'inner' }); return { log: r.out } }",
          },
        ],
        edges: [
          { from: '__start__', to: 'call' },
          { from: 'call', to: '__end__' },
        ],
        subgraphs: {
          step: {
            state: [{ name: 'tag' }, { name: 'out', reducer: 'append', default: [] }],
            nodes: [{ id: 'mark', code: "(s) => ({ out: ['inner step:' + s.tag] })" }],
            edges: [
              { from: '__start__', to: 'mark' },
              { from: 'mark', to: '__end__' },
            ],
          },
        },
      },
    },
  },
  input: {},
}

// The templates with subgraphs run too, with their first input (their runs are no case's).
const subgraphTemplates = TEMPLATES.filter((t) => hasSubgraphs(t.doc as DiffCase['graph'])).map(
  (t): DiffCase => ({
    description: `template ${t.id}`,
    file: `template-${t.id}`,
    graph: t.doc as DiffCase['graph'],
    input: t.input,
  }),
)
/**
 * Node code and routers that read `config.configurable`: the stream case, run with its own
 * settings. Its subgraph also reads `thread_id`, which is `diff` in the oracle's run and
 * `cli` in runGraph's, so here that one read is of a fixed word (the stream differential
 * compares it).
 */
const CONFIGURABLE: DiffCase = {
  ...(JSON.parse(
    readFileSync(
      join(ROOT, 'src/differential/streamCases/02-configurable-settings.json'),
      'utf8',
    ).replaceAll('config.configurable.thread_id', "'a thread'"),
  ) as DiffCase),
  file: 'stream-02-configurable-settings',
}
const cases = [...loadCases(), ...subgraphTemplates, SHADOWED_SUBGRAPH, CONFIGURABLE].map((c) => ({
  c,
  spec: specOf(c.graph),
}))
const sessions = [...loadSessions(), KITCHEN_SINK, SCRIPTED_FROM_STATE].map((s) => ({
  s,
  spec: specOf(s.graph),
}))
const fuzz = Array.from({ length: 24 }, (_, i) => fuzzGraph(1000 + i))
const caseFiles = cases.map(({ c, spec }) => moduleFor(spec, `case-${c.file ?? ''}`))
const sessionFiles = sessions.map(({ s, spec }) => moduleFor(spec, `session-${s.file ?? ''}`))
const fuzzFiles = fuzz.map((spec, i) => moduleFor(spec, `fuzz-${i}`))
// The app's examples are typechecked too (their runs are the cases' runs).
const EXAMPLES = join(ROOT, 'examples')
for (const f of readdirSync(EXAMPLES)
  .filter((f) => f.endsWith('.json'))
  .sort()) {
  moduleFor(specOf(JSON.parse(readFileSync(join(EXAMPLES, f), 'utf8'))), `example-${f}`)
}

// Typechecked, not run: a model on OpenAI (bound to its tools), and tools and human nodes on
// a messages field other than `messages`.
const react = specOf(JSON.parse(readFileSync(join(EXAMPLES, 'react-agent.json'), 'utf8')))
moduleFor(
  {
    ...react,
    nodes: react.nodes.map((n) =>
      n.kind === 'model'
        ? {
            ...n,
            model: {
              provider: 'openai',
              baseUrl: 'http://localhost:1/v1',
              model: 'm',
              temperature: 0,
            },
          }
        : n,
    ),
  },
  'openai-react',
)
moduleFor(
  {
    ...react,
    name: 'other messages field',
    state: [
      { name: 'chat', reducer: 'add_messages', default: [] },
      { name: 'messages', reducer: 'add_messages', default: [] },
      { name: 'answer' },
    ],
    nodes: [
      ...react.nodes.map((n) => ({ ...n, messagesField: 'chat' })),
      { id: 'ask', kind: 'human', show: 'chat', writeTo: 'answer' },
    ],
  },
  'other-messages-field',
)

writeFileSync(
  join(DIR, 'tsconfig.json'),
  JSON.stringify({
    compilerOptions: {
      target: 'ES2022',
      module: 'ESNext',
      moduleResolution: 'bundler',
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      types: [],
    },
    files: [...files.values()],
  }),
)

// One tsc for all modules, started now so that it runs beside the runtime comparisons.
const typecheck = new Promise<{ code: number | null; output: string }>((resolve) => {
  const tsc = join(ROOT, 'node_modules/typescript/bin/tsc')
  const args = [tsc, '-p', DIR, '--pretty', 'false']
  execFile(process.execPath, args, { cwd: ROOT }, (err, stdout, stderr) => {
    resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, output: stdout + stderr })
  })
})

afterAll(() => rmSync(DIR, { recursive: true, force: true }))

function withoutStars(s: SessionCase): SessionCase {
  const graph = { ...s.graph }
  if (graph.interruptBefore?.includes('*')) delete graph.interruptBefore
  if (graph.interruptAfter?.includes('*')) delete graph.interruptAfter
  return { ...s, graph }
}

/** The emitted module, freshly instantiated (a new MemorySaver) for every run. */
let runs = 0
interface EmittedModule {
  graph: CompiledLangGraph & {
    checkpointer?: unknown
    getSubgraphs(ns: string, recurse: boolean): Iterable<[string, CompiledLangGraph]>
  }
  builder: { nodes: Record<string, unknown> }
  State: { spec: Record<string, unknown> }
}

/**
 * The subgraph document whose checkpoints a namespace holds, found by the node ids from the
 * root down: a graph node's subgraph, or the one subgraph a code node calls.
 */
function docAtNamespace(root: GraphDocumentJson, ns: string): GraphDocumentJson {
  let doc = root
  let scope: SubgraphScope | undefined = scopeOf(root as unknown as GraphSpec, undefined)
  for (const id of nsNodes(ns)) {
    const node = doc.nodes.find((n) => n.id === id)
    const called = node ? subgraphsCalledBy(node.code ?? '') : []
    const name = node?.kind === 'graph' ? node.graph : called.length === 1 ? called[0] : undefined
    const hit = name === undefined ? undefined : lookupSubgraph(scope, name)
    if (!hit) throw new Error(`codegen harness: no subgraph at namespace "${ns}"`)
    doc = { ...(hit.spec as unknown as GraphDocumentJson), superstep: 1 }
    scope = scopeOf(hit.spec, hit.scope)
  }
  return doc
}

/**
 * Imports the module; the build gives its `graph` and, for a subgraph's checkpoints, the
 * module's own compiled subgraph at that namespace (LangGraph's `getSubgraphs`).
 */
async function importFresh(file: string, doc?: GraphDocumentJson): Promise<() => BuiltLangGraph> {
  try {
    const mod = (await import(/* @vite-ignore */ `${file}?run=${++runs}`)) as EmittedModule
    const checkpointer = mod.graph.checkpointer
    expect(checkpointer).toBeInstanceOf(MemorySaver)
    const subgraphAt = (ns: string) => {
      const path = nsNodes(ns).join('|')
      for (const [found, compiled] of mod.graph.getSubgraphs(path, true)) {
        if (found === path && doc) return { doc: docAtNamespace(doc, ns), compiled }
      }
      throw new Error(`codegen harness: the module has no subgraph at namespace "${ns}"`)
    }
    return () => ({ graph: mod.graph, checkpointer: checkpointer as MemorySaver, subgraphAt })
  } catch (err) {
    // A module that throws on import is a graph LangGraph refused: the runner reports it.
    return () => {
      throw err
    }
  }
}

describe('codegen: emitted TypeScript runs every case as Superstep does', () => {
  it('gives each graph its own `subgraphs` where one name means two subgraphs', () => {
    const source = emitTypeScript(specOf(SHADOWED_SUBGRAPH.graph))
    expect(source).toContain('((subgraphs: typeof innerSubgraphs): NodeFn =>')
    expect(source).not.toMatch(/^const subgraphs = /m)
  })
  it('runs the supervisor and handoff templates (subgraphs) too', () => {
    expect(subgraphTemplates.map((t) => t.file)).toEqual(
      expect.arrayContaining(['template-supervisor', 'template-handoff']),
    )
  })
  cases.forEach(({ c, spec }, i) => {
    it(c.file ?? c.description, async () => {
      const build = await importFresh(caseFiles[i] as string, c.graph)
      const theirs = comparableRun(await runOnLangGraph(c, build))
      const ours = await runGraph(spec, {
        input: structuredClone(c.input),
        recursionLimit: c.recursionLimit,
        ...(c.configurable && { configurable: c.configurable }),
        env: createCountingEnv(),
      })
      expect(theirs).toEqual(comparableRun(ours))
    })
  })
  it("passes the document's declared defaults as `configurable` (its exported constant)", async () => {
    const i = cases.findIndex(({ c }) => c === CONFIGURABLE)
    const spec = cases[i]?.spec as GraphSpec
    /** The module's example invocation: its defaults, the caller's own over them. */
    const theirs = async (own: Record<string, unknown>) => {
      const mod = (await import(/* @vite-ignore */ `${caseFiles[i]}?run=${++runs}`)) as {
        graph: CompiledLangGraph
        configurable: Record<string, unknown>
      }
      expect(mod.configurable).toEqual({ greeting: 'hello', times: 1, shout: false })
      const config = { configurable: { ...mod.configurable, ...own, thread_id: 'cli' } }
      return mod.graph.invoke(structuredClone(CONFIGURABLE.input), config)
    }
    const ours = async (own: Record<string, unknown>) => {
      const input = structuredClone(CONFIGURABLE.input)
      return (await runGraph(spec, { input, configurable: own, env: createCountingEnv() })).values
    }
    const none = await theirs({})
    expect(none).toEqual(await ours({}))
    expect(none).toMatchObject({ text: 'hello nobody from undefined on a thread' })
    const own = { who: 'Ada', shout: true }
    expect(await theirs(own)).toEqual(await ours(own))
    expect(await theirs(own)).toMatchObject({ text: 'HELLO ADA from Ada on a thread' })
  })
})

describe('codegen: emitted TypeScript runs every session as Superstep does', () => {
  sessions.forEach(({ s, spec }, i) => {
    it(s.file ?? s.description, async () => {
      const build = await importFresh(sessionFiles[i] as string, s.graph)
      // The runner would also pass a `"*"` breakpoint list in every invoke's config; left
      // out, the emitted module's own `compile({ interruptBefore: '*' })` is what runs.
      const theirs = comparableSession(await runSessionOnLangGraph(withoutStars(s), build))
      const ours = await runSession(spec, structuredClone(s.ops), {
        recursionLimit: s.recursionLimit,
        env: createCountingEnv(),
      })
      expect(theirs).toEqual(comparableSession(ours))
    })
  })
})

describe('codegen: nasty names survive into the running graph', () => {
  fuzz.forEach((spec, i) => {
    it(`fuzz document ${i}`, async () => {
      const file = fuzzFiles[i] as string
      const mod = (await import(/* @vite-ignore */ `${file}?run=${++runs}`)) as EmittedModule
      expect(Object.keys(mod.builder.nodes)).toEqual(spec.nodes.map((n) => n.id))
      const fields = spec.state.map((f) => f.name)
      expect(Object.keys(mod.State.spec).sort()).toEqual([...fields].sort())
      const c = { description: spec.name, graph: spec, input: {} }
      const theirs = comparableRun(await runOnLangGraph(c, await importFresh(file)))
      const ours = await runGraph(spec, { input: {}, env: createCountingEnv() })
      expect(theirs).toEqual(comparableRun(ours))
    })
  })
})

/**
 * What TypeScript may say about the document's own code, which is JavaScript: a callback
 * parameter inside it has no type (noImplicitAny, TS7006/TS7031), a comma expression's left
 * side has no effect (TS2695), a recursive arrow has no return type (TS7023/TS7024).
 * Anything else, and anything outside that code, is a bug.
 */
const JAVASCRIPT_IN_TYPESCRIPT = new Set([
  'TS7006',
  'TS7031',
  'TS2695',
  // a recursive arrow without types (`const d = (v) => … v.map(d) …`): its return type is any
  'TS7023',
  'TS7024',
])

interface Diagnostic {
  file: string
  line: number
  column: number
  code: string
  message: string
}

function parseDiagnostics(output: string): Diagnostic[] {
  const out: Diagnostic[] = []
  for (const m of output.matchAll(/^(.+?)\((\d+),(\d+)\): error (TS\d+): (.*)$/gm)) {
    const [, file = '', line = '0', column = '0', code = '', message = ''] = m
    out.push({ file: basename(file), line: Number(line), column: Number(column), code, message })
  }
  return out
}

/** A 1-based line and column (as tsc counts them: CR, LF, CRLF, U+2028, U+2029) as an offset. */
function offsetOf(source: string, line: number, column: number): number {
  let offset = 0
  const breaks = /\r\n|[\r\n\u2028\u2029]/g
  for (let l = 1; l < line; l++) {
    const m = breaks.exec(source)
    if (!m) return -1
    offset = m.index + m[0].length
  }
  return offset + column - 1
}

function inDocumentCode(d: Diagnostic): boolean {
  const w = written.get(d.file)
  if (!w) return false
  const at = offsetOf(w.source, d.line, d.column)
  return w.code.some(([start, end]) => at >= start && at < end)
}

describe('codegen: emitted TypeScript typechecks', () => {
  it('passes tsc --strict (one run over every distinct module), but for JavaScript-isms in document code', async () => {
    const { code, output } = await typecheck
    const diagnostics = parseDiagnostics(output)
    // Every line of output is a diagnostic we understood.
    expect(output.split('\n').filter((l) => l.trim() !== '').length).toBe(diagnostics.length)
    const bugs = diagnostics.filter(
      (d) => !inDocumentCode(d) || !JAVASCRIPT_IN_TYPESCRIPT.has(d.code),
    )
    expect(bugs).toEqual([])
    const seen = diagnostics.map((d) => `${d.file.replace(/^\d+-/, '')} ${d.code}`)
    console.info(
      `tsc --strict on ${files.size} modules: ${diagnostics.length} diagnostics, all in document code:\n${[...new Set(seen)].join('\n')}`,
    )
    expect(code).toBe(diagnostics.length === 0 ? 0 : 2)
  }, 120_000)
})
