import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { END, START } from '../core/graph/constants'
import type { FieldSpec, GraphSpec } from '../core/graph/schema'
import { parseGraph } from '../core/graph/validate'
import { runGraph } from '../core/run'
import { createCountingEnv } from '../lib/env'
import { NAMED_REDUCERS } from '../core/reducers'
import { preludeFor } from './pyPrelude'
import { createRandom } from './fuzzGraphs'
import { emitPython } from './python'

const ROOT = join(import.meta.dirname, '..', '..')

/** Every graph of the repository: the examples, the differential cases and sessions. */
function repoGraphs(): { file: string; spec: GraphSpec }[] {
  const dirs = ['examples', 'src/differential/cases', 'src/differential/sessions']
  return dirs.flatMap((dir) =>
    readdirSync(join(ROOT, dir))
      .filter((f) => f.endsWith('.json'))
      .sort()
      .map((f) => {
        const doc = JSON.parse(readFileSync(join(ROOT, dir, f), 'utf8')) as { graph?: unknown }
        const parsed = parseGraph(doc.graph ?? doc)
        if (!parsed.ok) throw new Error(`${dir}/${f} is not a valid graph`)
        return { file: `${dir}/${f}`, spec: parsed.spec }
      }),
  )
}

/**
 * Just enough of `langgraph` and `langchain_core` to import an emitted module: the builder
 * records its calls, the channels their arguments, so a test can compare them to the document.
 */
const STUBS: Record<string, string> = {
  'langgraph/__init__.py': '',
  'langgraph/graph/__init__.py': String.raw`
START, END = "__start__", "__end__"

class StateGraph:
    def __init__(self, schema):
        self.schema = schema
        self.calls = []

    def add_node(self, name, action, **options):
        self.calls.append(["add_node", name, action.__name__, {k: list(v) if isinstance(v, tuple) else v for k, v in options.items()}])

    def add_edge(self, start, end):
        self.calls.append(["add_edge", start, end])

    def add_conditional_edges(self, source, path, path_map=None):
        self.calls.append(["add_conditional_edges", source, path.__name__, path_map])

    def compile(self, **options):
        if "checkpointer" in options:
            options["checkpointer"] = type(options["checkpointer"]).__name__
        return _Compiled(calls=self.calls, compile=options)

class _Compiled(dict):
    # A compiled subgraph is added as a node: the builder records it by this name.
    __name__ = "CompiledStateGraph"
`,
  'langgraph/graph/message.py': 'def add_messages(left, right):\n    return right\n',
  'langgraph/types.py': String.raw`
class Send:
    def __init__(self, node, arg):
        self.node, self.arg = node, arg

class Command:
    PARENT = "__parent__"

    def __init__(self, **params):
        self.params = params

def interrupt(value):
    return value
`,
  'langgraph/checkpoint/__init__.py': '',
  'langgraph/checkpoint/memory.py': 'class InMemorySaver:\n    pass\n',
  'langgraph/channels/__init__.py': String.raw`
class Topic:
    def __init__(self, typ, accumulate=False):
        self.accumulate = accumulate

class EphemeralValue:
    def __init__(self, typ, guard=True):
        self.guard = guard
`,
  'langchain_core/__init__.py': '',
  'langchain_core/messages.py': String.raw`
AnyMessage = dict

class RemoveMessage:
    def __init__(self, id):
        self.id = id

class AIMessage:
    def __init__(self, **fields):
        self.fields = fields

def convert_to_messages(messages):
    return list(messages)
`,
  'langchain_core/tools.py': String.raw`
def tool(name, *, description, args_schema):
    def wrap(func):
        func.tool = {"name": name, "description": description, "args_schema": args_schema}
        return func
    return wrap
`,
  'langchain_openai/__init__.py': String.raw`
class ChatOpenAI:
    def __init__(self, **options):
        self.options = options

    def bind_tools(self, tools):
        return self
`,
  'langgraph/prebuilt/__init__.py': String.raw`
class ToolNode:
    __name__ = "ToolNode"

    def __init__(self, tools, messages_key="messages", handle_tool_errors=None, wrap_tool_call=None):
        self.tools = tools
        self.messages_key = messages_key
        assert callable(handle_tool_errors)
        assert wrap_tool_call is None or callable(wrap_tool_call)

def tools_condition(state, messages_key="messages"):
    return "__end__"
`,
}

/**
 * Parses each module as Python (from UTF-8 bytes, so a lone surrogate or an encoding
 * declaration would show), runs it over the stubs, and reports its string constants, its
 * State (keys, reducers, starting values) and the builder's calls.
 */
const DESCRIBE = String.raw`
import ast, json, sys, types, typing
from langgraph.channels import Topic, EphemeralValue
try:
    from pydantic import TypeAdapter
except ImportError:
    TypeAdapter = None

def describe(source):
    code = source.encode("utf-8")
    tree = ast.parse(code)
    strings = sorted({n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)})
    module = types.ModuleType("graph_module")
    exec(compile(code, "graph.py", "exec"), module.__dict__)
    fields = []
    for name, hint in typing.get_type_hints(module.State, include_extras=True).items():
        field = {"name": name}
        meta = getattr(hint, "__metadata__", ())
        if meta and isinstance(meta[-1], Topic):
            field["channel"] = ["topic", meta[-1].accumulate]
        elif meta and isinstance(meta[-1], EphemeralValue):
            field["channel"] = ["ephemeral", meta[-1].guard]
        elif meta:
            field["reducer"] = meta[-1].__name__
            try:
                field["start"] = [hint.__origin__()]
            except Exception:
                field["start"] = []
        fields.append(field)
    schema = None
    # (pydantic writes keys as UTF-8: a field name holding a lone surrogate has no schema.)
    if TypeAdapter is not None and all(not any(0xD800 <= ord(c) < 0xE000 for c in f["name"]) for f in fields):
        # What LangGraph's server does for the graph's input schema.
        schema = sorted(TypeAdapter(module.State).json_schema()["properties"])
    local = module.local_graph()["compile"]
    return {"strings": strings, "fields": fields, "graph": module.graph, "local": local, "schema": schema}

out = []
for source in json.loads(sys.stdin.read()):
    try:
        out.append(describe(source))
    except Exception as e:
        out.append({"error": f"{type(e).__name__}: {e}"})
sys.stdout.write(json.dumps(out))
`

let stubDir = ''

beforeAll(() => {
  stubDir = mkdtempSync(join(tmpdir(), 'superstep-py-'))
  for (const [path, text] of Object.entries(STUBS)) {
    mkdirSync(dirname(join(stubDir, path)), { recursive: true })
    writeFileSync(join(stubDir, path), text)
  }
})

afterAll(() => rmSync(stubDir, { recursive: true, force: true }))

interface Described {
  error?: string
  strings: string[]
  fields: { name: string; reducer?: string; start?: unknown[]; channel?: [string, boolean] }[]
  graph: { calls: unknown[][]; compile: Record<string, unknown> }
  /** How `local_graph()` compiles the same builder. */
  local: Record<string, unknown>
  /** The State's keys in pydantic's JSON schema (null without pydantic). */
  schema: string[] | null
}

/** Runs `script` once over all `sources` (one python3 process for the lot). */
function runPython<T>(script: string, input: unknown): T {
  const py = spawnSync('python3', ['-c', script], {
    input: JSON.stringify(input),
    encoding: 'utf8',
    env: { ...process.env, PYTHONPATH: stubDir, PYTHONDONTWRITEBYTECODE: '1' },
    maxBuffer: 1 << 28,
  })
  if (py.status !== 0) throw new Error(py.stderr)
  return JSON.parse(py.stdout) as T
}

const REDUCER_FUNCTION: Record<string, string> = {
  append: '_append',
  add: '_add',
  union: '_union',
  merge: '_merge',
  add_messages: 'add_messages',
}

/** What the stubbed builder must have recorded for `g`: the document, call for call. */
function expectedCalls(g: GraphSpec): unknown[][] {
  const calls: unknown[][] = g.nodes.map((n) => {
    const options: Record<string, unknown> = {}
    if (n.defer) options.defer = true
    if (n.ends && n.ends.length > 0) options.destinations = n.ends
    return ['add_node', n.id, expect.any(String), options]
  })
  for (const e of g.edges) calls.push(['add_edge', e.from, e.to])
  for (const b of g.branches ?? [])
    calls.push(['add_conditional_edges', b.from, expect.any(String), b.paths ?? null])
  const fromStart = (from: string | string[]) =>
    Array.isArray(from) ? from.includes(START) : from === START
  if (!g.edges.some((e) => fromStart(e.from)) && !(g.branches ?? []).some((b) => b.from === START))
    calls.push(['add_conditional_edges', START, '<lambda>', null])
  return calls
}

/** Python's order of strings (by code point, not by UTF-16 unit). */
function pyOrder(a: string, b: string): number {
  const x = [...a].map((c) => c.codePointAt(0) as number)
  const y = [...b].map((c) => c.codePointAt(0) as number)
  for (let i = 0; i < Math.min(x.length, y.length); i++)
    if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number)
  return x.length - y.length
}

function expectSameGraph(g: GraphSpec, d: Described): void {
  expect(d.error).toBeUndefined()
  expect(d.fields.map((f) => f.name)).toEqual(g.state.map((f) => f.name))
  g.state.forEach((f: FieldSpec, i) => {
    const got = d.fields[i]
    if (f.channel)
      expect(got?.channel).toEqual([
        f.channel,
        f.channel === 'topic' ? f.accumulate === true : true,
      ])
    else if (!f.reducer || f.reducer === 'overwrite') expect(got?.reducer).toBeUndefined()
    else {
      if (f.reducer !== 'custom') expect(got?.reducer).toBe(REDUCER_FUNCTION[f.reducer])
      expect(got?.start).toEqual(f.default === undefined ? [] : [f.default])
    }
  })
  expect(d.graph.calls).toEqual(expectedCalls(g))
  if (d.schema) expect(d.schema).toEqual(g.state.map((f) => f.name).sort(pyOrder))
  // The server's graph has no checkpointer (LangGraph's Python server refuses one);
  // local_graph() compiles the same builder with one.
  const compile: Record<string, unknown> = {}
  const breakpoints = (nodes: string[] | undefined) => (nodes?.includes('*') ? '*' : nodes)
  if (g.interruptBefore?.length) compile.interrupt_before = breakpoints(g.interruptBefore)
  if (g.interruptAfter?.length) compile.interrupt_after = breakpoints(g.interruptAfter)
  expect(d.graph.compile).toEqual(compile)
  expect(d.local).toEqual({ checkpointer: 'InMemorySaver', ...compile })
  const strings = new Set(d.strings)
  for (const n of g.nodes) expect(strings.has(n.id)).toBe(true)
  for (const b of g.branches ?? [])
    if (b.paths && !Array.isArray(b.paths))
      for (const k of Object.keys(b.paths)) expect(strings.has(k)).toBe(true)
}

describe('emitPython on the repository graphs', () => {
  const graphs = repoGraphs()

  it('writes modules Python parses and runs into the same graph (all graphs, one python3)', () => {
    expect(graphs.length).toBeGreaterThan(150)
    const described = runPython<Described[]>(
      DESCRIBE,
      graphs.map((g) => emitPython(g.spec)),
    )
    graphs.forEach((g, i) => {
      const d = described[i] as Described
      expect({ file: g.file, error: d.error }).toEqual({ file: g.file, error: undefined })
      expectSameGraph(g.spec, d)
    })
  })

  it('is deterministic: the same document gives the same bytes', () => {
    for (const { spec } of graphs.slice(0, 40)) {
      expect(emitPython(structuredClone(spec))).toBe(emitPython(spec))
    }
  })
})

// ---------------------------------------------------------------------------------------
// Fuzz: documents with nasty names everywhere.
// ---------------------------------------------------------------------------------------

const PIECES = [
  ...'aZq_09 -.#%(){}[]<>,;=+'.split(''),
  ...['"', "'", '`', '\\', '\n', '\r', '\r\n', '\t', '\u2028', '\u2029', '\u0085', '\u0000'],
  ...['\u001b', '\u007f', '\u200b', '\ufeff', '\u202e', '*/', '/*', '"""', "'''", '${', '%s'],
  ...['\\N{DASH}', '\\x41', '\\u0041', 'é', 'ß', '中文', 'ﬁ', 'Ａ', '😀', '\ud800', '\udfff'],
  ...['coding: latin-1', ' -*- coding: utf-16 -*- ', '# type: ignore'],
]

const WORDS = [
  ...'class None True False match case type _ def lambda import pass async await'.split(' '),
  ...'list len str dict print object State graph builder state END START Send Command'.split(' '),
  ...'interrupt Any TypedDict Annotated _add _append _Default copy json __init__ __class__'.split(
    ' ',
  ),
  ...'__x __x__ a-b a_b a__b 1abc node_a route_a reduce_a toString __proto__ constructor'.split(
    ' ',
  ),
]

function nastyName(rand: () => number): string {
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)] as T
  if (rand() < 0.4) return pick(WORDS)
  let s = rand() < 0.3 ? pick(WORDS) : ''
  const n = 1 + Math.floor(rand() * 4)
  for (let i = 0; i < n; i++) s += pick(PIECES)
  return s
}

const RESERVED_FIELDS = new Set([START, END, '__pregel_tasks', '__interrupt__', '__resume__'])

function nastyGraph(rand: () => number): unknown {
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)] as T
  const fresh = (taken: Set<string>, ok: (s: string) => boolean) => {
    for (;;) {
      const s = nastyName(rand)
      if (s !== '' && !taken.has(s) && ok(s)) {
        taken.add(s)
        return s
      }
    }
  }
  const taken = new Set<string>()
  const okField = (s: string) =>
    !RESERVED_FIELDS.has(s) && !s.startsWith('branch:to:') && !s.startsWith('join:')
  const kinds: Partial<FieldSpec>[] = [
    {},
    { reducer: 'overwrite' },
    { reducer: 'append', default: [] },
    { reducer: 'append' },
    { reducer: 'add', default: 0 },
    { reducer: 'add', default: 100 },
    { reducer: 'union', default: ['x'] },
    { reducer: 'merge', default: {} },
    { reducer: 'add_messages', default: [] },
    { reducer: 'custom', code: '(a, b) => b' },
    { reducer: 'custom', code: '(a, b) => [a, b]', default: 1.5 },
    { channel: 'topic', accumulate: true },
    { channel: 'topic' },
    { channel: 'ephemeral' },
  ]
  const state = Array.from({ length: 1 + Math.floor(rand() * 5) }, () => {
    const f: Record<string, unknown> = { name: fresh(taken, okField), ...pick(kinds) }
    if (f.reducer === 'merge' && rand() < 0.5)
      f.default = { [nastyName(rand)]: nastyName(rand), n: 1e21 }
    if (rand() < 0.3) f.description = nastyName(rand)
    return f
  })
  const ids = Array.from({ length: 1 + Math.floor(rand() * 5) }, () =>
    fresh(taken, (s) => !s.includes(':') && !s.includes('|') && s !== START && s !== END),
  )
  const q = (s: string) => JSON.stringify(s)
  const nodes = ids.map((id, i) => {
    const field = (pick(state) as { name: string }).name
    const next = ids[i + 1]
    const code = pick([
      `(s) => ({ ${q(field)}: ${q(nastyName(rand))} })`,
      `(s) => ({ ${q(field)}: [${q(nastyName(rand))}, 1.5, null] })`,
      `(s) => ({ ${q(nastyName(rand))}: s[${q(field)}] })`,
      `(s) => ({ ${q(field)}: interrupt(${q(nastyName(rand))}) })`,
      `(s) => { throw new Error(${q(nastyName(rand))}) }`,
      `(s) => ({ x: s[${q(field)}] + 1 }) // ${nastyName(rand).replace(/[\n\r\u2028\u2029]/g, ' ')}\n`,
    ])
    const node: Record<string, unknown> = { id, code }
    if (next !== undefined && rand() < 0.3) {
      node.code = `(s) => new Command({ update: { ${q(field)}: 1 }, goto: ${q(next)} })`
      node.ends = [next]
    }
    if (rand() < 0.2) node.defer = true
    if (rand() < 0.3) node.description = nastyName(rand)
    return node
  })
  const edges: unknown[] = [{ from: START, to: ids[0] }]
  ids.forEach((id, i) => {
    const next = ids[i + 1]
    if (next !== undefined)
      edges.push(
        rand() < 0.2 && i > 0 ? { from: [ids[i - 1], id], to: next } : { from: id, to: next },
      )
  })
  const last = ids.at(-1) as string
  const keys = [nastyName(rand), nastyName(rand)]
  const branches =
    rand() < 0.3
      ? [{ from: last, router: `(s) => ${q(last === ids[0] ? END : (ids[0] as string))}` }]
      : [
          {
            from: last,
            router: `(s) => ${q(keys[0] as string)}`,
            paths:
              rand() < 0.5
                ? { [keys[0] as string]: END, [keys[1] as string]: ids[0] }
                : [END, ids[0]],
          },
        ]
  const breakpoints = () => (rand() < 0.2 ? ['*'] : ids.filter(() => rand() < 0.3))
  return {
    superstep: 1,
    name: nastyName(rand),
    description: rand() < 0.5 ? nastyName(rand) : undefined,
    state,
    nodes,
    edges,
    branches,
    interruptBefore: breakpoints(),
    interruptAfter: breakpoints(),
  }
}

describe('emitPython on nasty documents', () => {
  it('writes modules that parse and keep every name, for 220 seeded documents', () => {
    const rand = createRandom(20261201)
    const specs: GraphSpec[] = []
    for (let tries = 0; specs.length < 220 && tries < 5000; tries++) {
      const parsed = parseGraph(JSON.parse(JSON.stringify(nastyGraph(rand))))
      if (parsed.ok) specs.push(parsed.spec)
    }
    expect(specs.length).toBe(220)
    const described = runPython<Described[]>(DESCRIBE, specs.map(emitPython))
    specs.forEach((spec, i) => expectSameGraph(spec, described[i] as Described))
  })
})

// ---------------------------------------------------------------------------------------
// The helpers fold like Superstep's reducers.
// ---------------------------------------------------------------------------------------

const VALUES: unknown[] = [
  ...[null, true, false, 0, 1, -1, 1.5, 0.1, 1e21, 1e-7, 123456789012, 2 ** 53, 2 ** 60],
  ...['', 'a', '1', 'é😀', [], [1], [1, [2, 3]], [null], ['a', null, true], [{ a: 1 }]],
  ...[{}, { a: 1 }, { b: { c: 1 }, a: [1] }, { a: 1.0 }],
]

const PRELUDE_RUNNER = (prelude: string) => String.raw`
import copy, json, sys
from typing import Any
${prelude}

cases = json.loads(sys.stdin.read())
out = {}
for name in ("_append", "_add", "_union", "_merge"):
    results = []
    for a, b in cases["pairs"]:
        try:
            results.append({"ok": globals()[name](a, b)})
        except Exception as e:
            results.append({"error": type(e).__name__})
    out[name] = results
out["text"] = [_js_number_text(x) for x in cases["numbers"]]
out["default"] = [_Default(v)() for v in cases["values"]]
sys.stdout.write(json.dumps(out))
`

describe('the emitted reducers', () => {
  it('fold every pair of JSON values as Superstep does, and write numbers as JavaScript', () => {
    const { blocks } = preludeFor(new Set(['_append', '_add', '_union', '_merge', '_Default']))
    const pairs = VALUES.flatMap((a) => VALUES.map((b) => [a, b]))
    const rand = createRandom(7)
    const view = new DataView(new ArrayBuffer(8))
    const numbers: number[] = [
      0.1,
      1e21,
      1e-7,
      1.5e-7,
      123e-20,
      2 ** 53 + 2,
      5e-324,
      1.7976931348623157e308,
      100,
      -0.000001,
      1e20,
      123456.789,
    ]
    while (numbers.length < 3000) {
      view.setUint32(0, Math.floor(rand() * 2 ** 32))
      view.setUint32(4, Math.floor(rand() * 2 ** 32))
      const x = view.getFloat64(0)
      const rounded = Math.round(x * 1000) / 1000
      if (Number.isFinite(x)) numbers.push(x)
      if (Number.isFinite(rounded)) numbers.push(rounded)
    }
    const out = runPython<Record<string, unknown[]>>(PRELUDE_RUNNER(blocks.join('\n\n\n')), {
      pairs,
      numbers,
      values: VALUES,
    })
    for (const [name, reducer] of Object.entries(NAMED_REDUCERS)) {
      const expected = pairs.map(
        ([a, b]) => JSON.parse(JSON.stringify({ ok: reducer(a, b) })) as unknown,
      )
      expect({ name, results: out[`_${name}`] }).toEqual({ name, results: expected })
    }
    expect(out.text).toEqual(numbers.map(String))
    expect(out.default).toEqual(VALUES)
  })
})

// ---------------------------------------------------------------------------------------
// Readability: the counter, as a user reads it.
// ---------------------------------------------------------------------------------------

describe('emitPython output', () => {
  it('reads well for examples/counter.json', () => {
    const counter = repoGraphs().find((g) => g.file === 'examples/counter.json')?.spec as GraphSpec
    expect(emitPython(counter)).toMatchInlineSnapshot(`
      "# LangGraph (Python) module generated by Superstep from a graph document (format v1).
      # Edit it freely: Superstep does not read it back.
      #
      # Graph: counter
      # A one-node cycle: inc adds 1 to count until it reaches 3.
      #
      # Node, router and reducer code is JavaScript in Superstep. It is translated where Python
      # does what JavaScript does: exactly, or under a guard (\`_js_number\`, \`_js_len\`, …) that
      # raises TypeError where JavaScript would do something else with the value it gets.
      # Anything else raises NotImplementedError, with the JavaScript in a comment above it.
      # All of it is translated.

      import json
      import sys
      from typing import Annotated, Any

      from langgraph.checkpoint.memory import InMemorySaver
      from langgraph.graph import END, START, StateGraph
      from typing_extensions import TypedDict


      def _as_list(value: Any) -> list:
          return value if isinstance(value, list) else [value]


      def _js_primitive(value: Any) -> Any:
          # JavaScript turns an array into its items joined by commas, an object into this.
          if isinstance(value, list):
              return ",".join("" if item is None else _js_text(item) for item in value)
          if isinstance(value, dict):
              return "[object Object]"
          return value


      def _js_text(value: Any) -> str:
          """JavaScript's String(value), for JSON values."""
          if value is None:
              return "null"
          if isinstance(value, bool):
              return "true" if value else "false"
          if isinstance(value, (int, float)):
              return _js_number_text(value)
          if isinstance(value, str):
              return value
          if isinstance(value, (list, dict)):
              return _js_primitive(value)
          raise TypeError(f"cannot write a {type(value).__name__} as JavaScript text")


      def _js_number_text(number: Any) -> str:
          """JavaScript's text of a number: shortest digits, \`1e+21\` from 1e21 on, no \`.0\`."""
          if isinstance(number, int) and abs(number) <= 2**53:
              return str(number)
          x = float(number)
          if x != x:
              return "NaN"
          if x in (float("inf"), float("-inf")):
              return "Infinity" if x > 0 else "-Infinity"
          if x == 0:
              return "0"
          mantissa, _, exponent = repr(abs(x)).partition("e")
          whole, _, fraction = mantissa.partition(".")
          raw = whole + fraction
          digits = raw.lstrip("0")
          # the value is 0.<digits> times 10 ** point
          point = len(whole) + int(exponent or 0) - (len(raw) - len(digits))
          digits = digits.rstrip("0")
          k = len(digits)
          if k <= point <= 21:
              text = digits + "0" * (point - k)
          elif 0 < point <= 21:
              text = digits[:point] + "." + digits[point:]
          elif -6 < point <= 0:
              text = "0." + "0" * -point + digits
          else:
              e = point - 1
              head = digits[0] + ("." + digits[1:] if k > 1 else "")
              text = head + "e" + ("+" if e >= 0 else "-") + str(abs(e))
          return ("-" if x < 0 else "") + text


      def _js_number(value: Any, where: str) -> Any:
          """\`value\` when it is a number JavaScript and Python compute alike (a float, or an int
          within 2**31, whose sums stay exact in both); else TypeError, where JavaScript would
          convert it (\`"2" < 3\`, \`null + 1\`, \`"a" + 1\`) and go on."""
          if isinstance(value, float) or (
              isinstance(value, int) and not isinstance(value, bool) and abs(value) <= 2**31
          ):
              return value
          raise TypeError(
              f"{where}: expected a number, got {value!r:.60}; JavaScript would convert it"
              " (or round a large integer) where this Python does not"
          )


      def _append(current: Any, update: Any) -> list:
          """Superstep's \`append\`: list concatenation; a non-list counts as a one-item list."""
          return _as_list(current) + _as_list(update)


      def _add(current: Any, update: Any) -> Any:
          """Superstep's \`add\`, which is JavaScript's \`a + b\`: numbers add (null counts as 0,
          true as 1); when either side is text (a list or dict becomes text first, as in
          JavaScript), both are joined as text: \`_add("n", 1) == "n1"\`."""
          a, b = _js_primitive(current), _js_primitive(update)
          if isinstance(a, str) or isinstance(b, str):
              return _js_text(a) + _js_text(b)
          if not all(x is None or isinstance(x, (bool, int, float)) for x in (a, b)):
              raise TypeError(f"add: cannot add {a!r} and {b!r} as JavaScript does")
          total = (a or 0) + (b or 0)
          # JavaScript numbers are doubles: past 2**53 a sum rounds.
          return float(total) if isinstance(total, int) and abs(total) > 2**53 else total


      class State(TypedDict, total=False):
          count: Annotated[int, _add]  # reducer add, default 0
          log: Annotated[list, _append]  # reducer append, default []


      # Node "inc".
      # JavaScript:
      #     (state) => ({ count: 1, log: ['inc'] })
      def inc(state):
          return {"count": 1, "log": ["inc"]}


      # Router of "inc".
      # JavaScript:
      #     (state) => state.count < 3 ? 'again' : 'done'
      def route_inc(state):
          return "again" if _js_number(state["count"], "router of inc") < 3 else "done"


      builder = StateGraph(State)
      builder.add_node("inc", inc)
      builder.add_edge(START, "inc")
      builder.add_conditional_edges("inc", route_inc, {"again": "inc", "done": END})

      # The graph LangGraph's server runs (langgraph.json): the server keeps the checkpoints
      # and refuses a graph compiled with a checkpointer of its own.
      graph = builder.compile()


      def local_graph():
          """\`graph\` with an in-memory checkpointer, for runs outside LangGraph's server."""
          return builder.compile(checkpointer=InMemorySaver())


      def _run_once(argv):
          """Runs the graph once on a fresh thread and prints its checkpoints, oldest first."""
          local = local_graph()
          config = {"configurable": {"thread_id": "local-1"}}
          result = local.invoke(json.loads(argv[1] if len(argv) > 1 else "{}"), config)
          for s in reversed(list(local.get_state_history(config))):
              step, source = s.metadata.get("step"), s.metadata.get("source")
              print(f"step {step} ({source}) next: [{', '.join(s.next)}]")
          print(json.dumps(result, indent=2, ensure_ascii=False, default=str))


      if __name__ == "__main__":
          _run_once(sys.argv)
      "
    `)
  })

  // LangGraph Python from `npm run setup:python`; the whole suite on it is src/differential/python.test.ts.
  const realEnv = {
    ...process.env,
    PYTHONPATH: fileURLToPath(new URL('../../.cache/langgraph-python', import.meta.url)),
  }
  const hasLangGraph =
    spawnSync('python3', ['-c', 'import langgraph.graph'], { env: realEnv }).status === 0
  it.skipIf(!hasLangGraph)(
    'runs the counter example on the real LangGraph to the same end',
    async () => {
      const counter = repoGraphs().find((g) => g.file === 'examples/counter.json')
        ?.spec as GraphSpec
      // What LangGraph's Python server loads (`graph`, which must have no checkpointer), and
      // the local graph beside it.
      const script = String.raw`
import json, sys
scope = {"__name__": "graph"}
exec(sys.stdin.read(), scope)
graph, local = scope["graph"], scope["local_graph"]()
print(json.dumps({
    "values": graph.invoke({}, {"configurable": {"thread_id": "1"}}),
    "server": graph.checkpointer,
    "local": type(local.checkpointer).__name__,
}))
`
      const py = spawnSync('python3', ['-c', script], {
        input: emitPython(counter),
        encoding: 'utf8',
        env: realEnv,
      })
      expect(py.stderr).toBe('')
      const mine = await runGraph(counter, { input: {}, env: createCountingEnv() })
      expect(JSON.parse(py.stdout)).toEqual({
        values: mine.values,
        server: null,
        local: 'InMemorySaver',
      })
    },
  )

  it.skipIf(!hasLangGraph)(
    '`python graph.py <input>` runs the graph once on its local checkpointer',
    async () => {
      const approval = repoGraphs().find((g) => g.file === 'examples/approval.json')
        ?.spec as GraphSpec
      // Not beside the stubs: Python puts the script's folder first on its path.
      const dir = mkdtempSync(join(tmpdir(), 'superstep-py-main-'))
      const file = join(dir, 'graph.py')
      writeFileSync(file, emitPython(approval))
      const py = spawnSync('python3', [file, '{"request": "x"}'], {
        encoding: 'utf8',
        env: realEnv,
      })
      expect(py.stderr).toBe('')
      const mine = await runGraph(approval, { input: { request: 'x' }, env: createCountingEnv() })
      const steps = mine.checkpoints.map(
        (c) => `step ${c.step} (${c.source}) next: [${c.next.join(', ')}]`,
      )
      expect(py.stdout.split('\n').slice(0, steps.length)).toEqual(steps)
      const result = JSON.parse(py.stdout.split('\n').slice(steps.length).join('\n'))
      expect(result).toMatchObject(mine.values)
      rmSync(dir, { recursive: true, force: true })
    },
  )
})
