import { spawnSync } from 'node:child_process'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { printableLabel } from '../lib/codePoint'
import { END, START } from '../core/graph/constants'
import type { GraphSpec } from '../core/graph/schema'
import { parseGraph } from '../core/graph/validate'
import { emitProject } from './project'

/**
 * Every character that ends or breaks a line in a target language or an editor, and what
 * else can end a string or a comment early.
 */
const HOSTILE = [
  ...['\n', '\r', '\r\n', '\u2028', '\u2029', '\u0085', '\v', '\f', '\x1c', '\x1d', '\x1e'],
  ...['*/', "'", '"', '"""', '\\', '`', '-->', '<!--', '#', '\0', '\u202e', '\ud800'],
]

/**
 * A graph whose every piece of free text (name, description, field names and descriptions,
 * node ids and descriptions, tool names, descriptions and parameters, model settings and
 * replies, route keys) is made by `text` from the place it is for.
 */
function graphWith(text: (place: string) => string): GraphSpec {
  const field = text('field')
  const messages = text('messages')
  const reduced = text('reduced')
  const [code, tools, model, scripted, human] = ['code', 'tools', 'model', 'scripted', 'human'].map(
    (kind) => text(`node ${kind}`),
  ) as [string, string, string, string, string]
  const tool = text('tool')
  const doc = {
    superstep: 1,
    name: text('graph'),
    description: text('description'),
    state: [
      { name: field, description: text('field description'), reducer: 'append', default: [] },
      { name: messages, description: text('about messages'), reducer: 'add_messages', default: [] },
      {
        name: reduced,
        description: text('reduced description'),
        reducer: 'custom',
        code: '(a, b) => b',
        default: { [text('key')]: text('value') },
      },
    ],
    nodes: [
      { id: code, description: text('node description'), code: '(s) => ({})' },
      {
        id: tools,
        kind: 'tools',
        messagesField: messages,
        description: text('tools description'),
        tools: [
          {
            name: tool,
            description: text('tool description'),
            parameters: {
              type: 'object',
              properties: { [text('param')]: { type: 'string', description: text('param doc') } },
            },
            code: '(args) => 1',
          },
        ],
      },
      {
        id: model,
        kind: 'model',
        messagesField: messages,
        bindTools: tools,
        model: { provider: 'openai', model: text('gpt'), baseUrl: text('url'), temperature: 0.5 },
      },
      {
        id: scripted,
        kind: 'model',
        messagesField: messages,
        model: {
          provider: 'scripted',
          replies: [
            { tool_calls: [{ name: tool, args: { [text('arg')]: text('arg value') } }] },
            { content: text('reply') },
          ],
        },
      },
      { id: human, kind: 'human', show: field, writeTo: reduced },
    ],
    edges: [
      { from: START, to: code },
      { from: tools, to: model },
      { from: model, to: scripted },
      { from: [scripted, tools], to: human },
      { from: human, to: END },
    ],
    branches: [
      {
        from: code,
        router: '(s) => "k"',
        paths: { [text('route one')]: tools, [text('route two')]: END },
      },
    ],
    interruptBefore: [human],
    interruptAfter: [model],
  }
  const parsed = parseGraph(doc)
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues, null, 2))
  return parsed.spec
}

/** The hostile text at `place`: the character, then code that must never run. */
const hostile = (c: string) => (place: string) =>
  `${place}${c}globalThis.PWNED = 1; ${c} PWNED() ${c}`

/** The same text with each character of `c` a space: the same length, nothing strange. */
const harmless = (c: string) => hostile(' '.repeat([...c].length))

/**
 * A TypeScript module's syntax tree as the kinds of its nodes, depth first, and the text of
 * every identifier; string literal values are left out, and comments are no nodes at all.
 * Parse errors come first, so a module that does not parse never equals one that does.
 */
function tsShape(source: string): string[] {
  const file = ts.createSourceFile('graph.ts', source, ts.ScriptTarget.ES2022, true)
  const { parseDiagnostics } = file as unknown as { parseDiagnostics: ts.Diagnostic[] }
  const out = parseDiagnostics.map(
    (d) => `error: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
  )
  const visit = (node: ts.Node): void => {
    const kind = ts.SyntaxKind[node.kind]
    out.push(ts.isIdentifier(node) ? `${kind} ${node.text}` : kind)
    ts.forEachChild(node, visit)
  }
  visit(file)
  return out
}

/** `ast.dump` of every module with its string constants emptied, from one python3. */
const PY_SHAPE = String.raw`
import ast, json, sys

class Blank(ast.NodeTransformer):
    def visit_Constant(self, node):
        if isinstance(node.value, str):
            node.value = ""
        return node

out = []
for source in json.load(sys.stdin):
    try:
        out.append(ast.dump(Blank().visit(ast.parse(source))))
    except SyntaxError as e:
        out.append("error: " + repr(e))
print(json.dumps(out))
`

function pyShapes(sources: string[]): string[] {
  const py = spawnSync('python3', ['-c', PY_SHAPE], {
    input: JSON.stringify(sources),
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  })
  if (py.status !== 0) throw new Error(py.stderr)
  return JSON.parse(py.stdout) as string[]
}

const label = printableLabel

const file = (files: { path: string; text: string }[], path: string) =>
  files.find((f) => f.path === path)?.text ?? ''

const projects = HOSTILE.map((c) => ({
  c,
  bad: emitProject(graphWith(hostile(c))),
  good: emitProject(graphWith(harmless(c))),
}))

describe('an export of hostile text has the syntax tree of one of harmless text', () => {
  it.each(projects.map((p) => [label(p.c), p] as const))(
    'TypeScript, src/graph.ts and src/run.ts: %s',
    (_, { bad, good }) => {
      for (const path of ['src/graph.ts', 'src/run.ts']) {
        const shape = tsShape(file(bad, path))
        expect(shape.filter((s) => s.startsWith('error'))).toEqual([])
        expect(shape, path).toEqual(tsShape(file(good, path)))
      }
      expect(file(bad, 'src/graph.ts')).toContain('PWNED')
    },
  )

  it('Python, python/graph.py: every character at once (one python3)', () => {
    const sources = projects.flatMap(({ bad, good }) => [
      file(bad, 'python/graph.py'),
      file(good, 'python/graph.py'),
    ])
    const shapes = pyShapes(sources)
    projects.forEach(({ c }, i) => {
      const [bad, good] = [shapes[2 * i], shapes[2 * i + 1]]
      expect(bad, label(c)).not.toMatch(/^error/)
      expect(bad, label(c)).toBe(good)
    })
  })

  it('the README title and the package files stay one line of plain text', () => {
    for (const { c, bad } of projects) {
      const title = file(bad, 'README.md').split('\n')[0] ?? ''
      expect(title, label(c)).toMatch(/^# graph/)
      expect(title).not.toMatch(/[\p{Cc}\p{Zl}\p{Zp}<>]/u)
      expect(JSON.parse(file(bad, 'package.json'))).toMatchObject({ name: expect.any(String) })
      expect(file(bad, 'python/pyproject.toml')).toMatch(/^name = "[a-z0-9-]+"$/m)
    }
  })
})
