import { spawnSync } from 'node:child_process'
import { parse } from 'acorn'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { printableLabel } from '../lib/codePoint'
import {
  jsBlockCommentLines,
  jsDocComment,
  jsLineComment,
  jsString,
  markdownLine,
  pyComment,
  pyCommentText,
  pyProse,
  pyString,
  tomlString,
} from './text'

/**
 * Every character that ends or breaks a line in a target language or an editor: JavaScript's
 * line terminators, and what Python's `str.splitlines` breaks at (NEL, VT, FF, FS, GS, RS).
 */
const BREAKS = [
  '\n',
  '\r',
  '\r\n',
  '\u2028',
  '\u2029',
  '\u0085',
  '\v',
  '\f',
  '\x1c',
  '\x1d',
  '\x1e',
]

/** What else can end a string or a comment, or hide what follows it. */
const OTHERS = ['*/', '/*', "'", '"', '"""', '\\', '`', '${', '-->', '<!--', '#', '\0', '\x1b']
const STRANGE = ['\u202e', '\u200b', '\ufeff', '\u00a0', '\ud800', '\udfff', '😀', '\udb40\udc01']

const HOSTILE = [...BREAKS, ...OTHERS, ...STRANGE]
const texts = HOSTILE.map((c) => `a${c}globalThis.PWNED = 1 ${c}${c} b${c}`)

const label = printableLabel
const cases = texts.map((t, i) => [label(HOSTILE[i] ?? ''), t])

/** A raw line break of any language: none may survive in a literal or one comment line. */
// eslint-disable-next-line no-control-regex -- matching controls is the point
const RAW_BREAK = /[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/

/** The statements TypeScript reads in `source`, or its syntax errors. */
function tsStatements(source: string): ts.SyntaxKind[] | string[] {
  const file = ts.createSourceFile('x.ts', source, ts.ScriptTarget.ES2022, true)
  // The parser's own diagnostics (what `transpileModule` reports), without a program.
  const { parseDiagnostics } = file as unknown as { parseDiagnostics: ts.Diagnostic[] }
  if (parseDiagnostics.length > 0)
    return parseDiagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))
  return file.statements.map((s) => s.kind)
}

/** The statement count of `source` as a JavaScript module and as a script (acorn). */
function jsStatementCounts(source: string): [number, number] {
  const count = (sourceType: 'module' | 'script') =>
    parse(source, { ecmaVersion: 'latest', sourceType }).body.length
  return [count('module'), count('script')]
}

const ONE_CONST = [ts.SyntaxKind.VariableStatement]

describe('the TypeScript/JavaScript escapes', () => {
  it.each(cases)(
    'jsString writes one printable line that reads back as the text: %s',
    (_, text) => {
      const literal = jsString(text)
      expect(literal).not.toMatch(RAW_BREAK)
      expect(literal).not.toMatch(/[\p{Cc}\p{Cf}\p{Cs}]/u)
      expect(new Function(`return ${literal}`)()).toBe(text)
      const source = `const x = ${literal}\n`
      expect(tsStatements(source)).toEqual(ONE_CONST)
      const file = ts.createSourceFile('x.ts', source, ts.ScriptTarget.ES2022, true)
      const decl = (file.statements[0] as ts.VariableStatement).declarationList.declarations[0]
      expect((decl?.initializer as ts.StringLiteral).text).toBe(text)
    },
  )

  it.each(cases)('comments hold the text and nothing runs after them: %s', (_, text) => {
    const sources = [
      `${jsLineComment(text)}\nconst x = 1\n`,
      `  ${jsLineComment(text, '  ').trimStart()}\nconst x = 1\n`,
      `${jsDocComment(jsBlockCommentLines(text))}\nconst x = 1\n`,
      `${jsDocComment([`Graph ${jsString(text)}:`, text, '', text])}\nconst x = 1\n`,
      `// ${jsString(text)}\nconst x = 1\n`,
    ]
    for (const source of sources) {
      expect(tsStatements(source), source).toEqual(ONE_CONST)
      expect(jsStatementCounts(source), source).toEqual([1, 1])
      // Every line of the comment is a line of the comment, in any editor.
      const lines = source.split(new RegExp(`\\r\\n|${RAW_BREAK.source}`))
      expect(
        lines.slice(0, -2).every((l) => /^ *(\/\/|\/\*\*| \*)/.test(l)),
        source,
      ).toBe(true)
    }
  })

  it('writes the plain escapes JavaScript readers expect', () => {
    expect(jsString('it\'s "q" \\ \n\t')).toBe("'it\\'s \"q\" \\\\ \\n\\t'")
    expect(jsString('\u2028\u2029\u0085\v\f\0')).toBe("'\\u2028\\u2029\\u0085\\u000b\\f\\u0000'")
    expect(jsString('\ud800 😀 \u{e0001}')).toBe("'\\ud800 😀 \\u{e0001}'")
    expect(jsLineComment('a */ b\u2028c')).toBe('// a */ b\n// c')
    expect(jsBlockCommentLines('a */ b\u0085c')).toEqual(['a *\\/ b', 'c'])
  })
})

interface PyResult {
  value?: unknown
  statements?: number
  linesOk?: boolean
  error?: string
}

const PY_CHECK = String.raw`
import ast, json, sys, tomllib
out = []
for kind, source in json.load(sys.stdin):
    try:
        if kind == "toml":
            out.append({"value": tomllib.loads(source)["x"]})
            continue
        tree = ast.parse(source)
        r = {"statements": len(tree.body)}
        if kind == "literal":
            r["value"] = tree.body[0].value.value
        # What an editor or str.splitlines() shows: every line but the code is a comment.
        r["linesOk"] = all(
            l.lstrip().startswith("#") or l.startswith("x = ") or l == "y = 2"
            for l in source.splitlines()
        )
        out.append(r)
    except Exception as e:
        out.append({"error": repr(e)})
print(json.dumps(out))
`

/** Parses every `[kind, source]` with one python3: literal values, statements, lines. */
function checkPython(cases: [string, string][]): PyResult[] {
  const py = spawnSync('python3', ['-c', PY_CHECK], {
    input: JSON.stringify(cases),
    encoding: 'utf8',
  })
  if (py.status !== 0) throw new Error(py.stderr)
  return JSON.parse(py.stdout) as PyResult[]
}

describe('the Python and TOML escapes', () => {
  it('pyString reads back as the text; comments hold it; nothing runs after them', () => {
    const cases: [string, string][] = texts.flatMap((text): [string, string][] => [
      ['literal', `x = ${pyString(text)}\n`],
      ['comment', `x = 1\n${pyComment(text).join('\n')}\ny = 2\n`],
      ['comment', `x = 1\n${pyComment(text, '    ').join('\n')}\ny = 2\n`],
      ['comment', `x = 1\n${pyProse(`${text} `.repeat(12)).join('\n')}\ny = 2\n`],
      ['comment', `x = 1  # ${pyCommentText(text)}\ny = 2\n`],
      ['comment', `x = 1\n# Node ${pyString(text)}: a node.\ny = 2\n`],
      ['toml', `x = ${tomlString(text)}\n`],
    ])
    const results = checkPython(cases)
    texts.forEach((text, i) => {
      const [literal, ...comments] = results.slice(i * 7, i * 7 + 6)
      const toml = results[i * 7 + 6]
      expect(literal, cases[i * 7]?.[1]).toEqual({ statements: 1, value: text, linesOk: true })
      for (const [j, c] of comments.entries())
        expect(c, cases[i * 7 + j + 1]?.[1]).toEqual({ statements: 2, linesOk: true })
      // TOML holds Unicode scalar values only: a lone surrogate is U+FFFD there.
      const scalar = text.replace(/\p{Cs}/gu, '\ufffd')
      expect(toml).toEqual({ value: scalar })
      expect(pyString(text)).not.toMatch(RAW_BREAK)
      expect(pyCommentText(text)).not.toMatch(RAW_BREAK)
      expect(tomlString(text)).not.toMatch(RAW_BREAK)
    })
  })

  it('writes the plain escapes Python readers expect', () => {
    expect(pyString('"\\\n\u2028\u0085\v\f\0\ud800 😀')).toBe(
      '"\\"\\\\\\n\\u2028\\x85\\x0b\\x0c\\x00\\ud800 😀"',
    )
    expect(pyComment('a\u2028b\u0085c\fd\x1ee')).toEqual(['# a', '# b', '# c', '# d', '# e'])
    expect(pyCommentText('a\nb\u202ec')).toBe('a b\\u202ec')
    expect(tomlString('a"\\\n\u2028\ud800')).toBe('"a\\"\\\\\\n\\u2028\\ufffd"')
  })
})

describe('markdownLine', () => {
  it('makes one line of text that holds no HTML', () => {
    for (const text of texts) {
      const line = markdownLine(`<script>${text}</script> & more`)
      expect(line).not.toMatch(RAW_BREAK)
      expect(line).not.toMatch(/[<>]|&(?!amp;|lt;|gt;)/)
    }
    expect(markdownLine('My graph\u2028# not a heading <b>')).toBe(
      'My graph # not a heading &lt;b&gt;',
    )
  })
})
