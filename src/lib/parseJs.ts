import { getLineInfo, parse, tokenizer } from 'acorn'
import type { AnyNode, Expression } from 'acorn'
import { memoByString, type StringMemo } from './memo'

export type { AnyNode, Expression, Pattern, Statement } from 'acorn'

/** Where a piece of code stops being one JavaScript expression, 1-based. */
export interface CodeProblem {
  message: string
  line: number
  column: number
}

export type ParsedExpression =
  { ok: true; expression: Expression } | { ok: false; problem: CodeProblem }

/**
 * Parses `code` as exactly one JavaScript expression (what node, router, reducer and tool
 * code must be), never running it: the tree, or the syntax problem with its position in
 * `code`. The result is shared between callers (the graph is validated on every edit and the
 * canvas asks again per node), so the tree must be treated as read-only.
 */
export const parseExpression: StringMemo<ParsedExpression> = memoByString(parse1, 4000)

/**
 * How a comment every reader agrees on starts. Script code (acorn here, `new Function` in the
 * app) also reads `<!--` anywhere and `-->` first on a line as line comments; a module or a
 * TypeScript file, as the export writes, reads operators there and runs what follows.
 */
const PLAIN_COMMENT = /^\/[/*]/

const HTML_COMMENT =
  'An HTML-like comment (`<!--` or `-->`) is read as a comment here but as code by ' +
  'TypeScript and JavaScript modules; write `< !--` / `-- >` or use // comments.'

/** Thrown from acorn's comment hook to stop at the first HTML-like comment. */
class HtmlComment {
  constructor(readonly offset: number) {}
}

function parse1(code: string): ParsedExpression {
  if (code.trim() === '') return fail('Code is empty.', 1, 1)
  // Wrapped in parentheses, so one expression is admitted; the newline keeps a trailing line
  // comment from swallowing the closing parenthesis.
  const wrapped = `(${code}\n)`
  try {
    const program = parse(wrapped, {
      ecmaVersion: 'latest',
      sourceType: 'script',
      onComment: (_block, _text, start) => {
        if (!PLAIN_COMMENT.test(wrapped.slice(start, start + 2))) throw new HtmlComment(start)
      },
    })
    const [only, ...rest] = program.body
    // The wrapper's parentheses enclose one expression exactly when the tree starts inside
    // them: `a), (b` parses too, but as a sequence that starts at the wrapper's own `(`.
    if (only?.type !== 'ExpressionStatement' || rest.length > 0 || only.expression.start === 0)
      return fail('Code must be a single expression (a function), not statements.', 1, 1)
    const ambiguous = readDifferently(wrapped, only.expression)
    if (ambiguous) return failAt(ambiguous.message, getLineInfo(wrapped, ambiguous.offset))
    return { ok: true, expression: only.expression }
  } catch (e) {
    if (e instanceof HtmlComment) {
      const loc = getLineInfo(wrapped, e.offset)
      return failAt(HTML_COMMENT, loc)
    }
    const err = e as SyntaxError & { loc?: { line: number; column: number } }
    const loc = err.loc ?? { line: 1, column: 0 }
    const message = err.message.replace(/\s*\(\d+:\d+\)$/, '')
    const lines = code.split('\n')
    if (loc.line > lines.length) {
      // The error is on the wrapper's closing line: the code closed a bracket it never opened
      // (so the wrapper's own parenthesis came too soon), or it ended too early.
      const extra = unopenedCloser(code)
      if (extra) {
        const at = getLineInfo(code, extra.offset) // in `code` itself: no wrapper shift
        return fail(extra.message, at.line, at.column + 1)
      }
      const last = lines.length
      return fail(`${message} (the code ends too early)`, last, (lines[last - 1] ?? '').length + 1)
    }
    return failAt(message, loc)
  }
}

const OPENERS = new Set(['(', '[', '{', '${'])
const CLOSERS = new Set([')', ']', '}'])

/** The first closing bracket of `code` that closes nothing it opened, if any. */
function unopenedCloser(code: string): { message: string; offset: number } | null {
  let depth = 0
  try {
    for (const token of tokenizer(code, { ecmaVersion: 'latest' })) {
      const label = token.type.label
      if (OPENERS.has(label)) depth++
      else if (CLOSERS.has(label) && --depth < 0)
        return {
          message: `Unexpected \`${label}\`: it closes a bracket that was never opened (one too many?)`,
          offset: token.start,
        }
    }
  } catch {
    // Code the tokenizer cannot read: the parser's own message stands.
  }
  return null
}

const RAW_SEPARATOR =
  'A raw line or paragraph separator (U+2028/U+2029): JavaScript allows it inside a string, ' +
  'TypeScript ends the string there; write it as \\u2028 or \\u2029.'

const COMPARISON_CHAIN =
  '`a < b > c` compares twice in JavaScript but is a generic call `a<b>(c)` to TypeScript; ' +
  'add parentheses: `(a < b) > c`.'

/**
 * Where code that parses as JavaScript would be read otherwise by TypeScript, which reads the
 * exported module: a raw U+2028/U+2029, or an unparenthesised `a < b > c`.
 */
function readDifferently(
  wrapped: string,
  expression: Expression,
): { message: string; offset: number } | null {
  const separator = wrapped.search(/[\u2028\u2029]/)
  if (separator >= 0) return { message: RAW_SEPARATOR, offset: separator }
  let found: { message: string; offset: number } | null = null
  walkTree(expression, (n) => {
    if (found || n.type !== 'BinaryExpression' || n.operator !== '>') return
    const left = n.left
    // Parenthesised, `(a < b) > c` starts before its left side does.
    if (left.type === 'BinaryExpression' && left.operator === '<' && left.start === n.start)
      found = { message: COMPARISON_CHAIN, offset: left.start }
  })
  return found
}

/** A problem at acorn's 0-based `loc` in the wrapped code, as a 1-based place in the code. */
function failAt(message: string, loc: { line: number; column: number }): ParsedExpression {
  // The wrapper's `(` shifts the first line by one column.
  return fail(message, loc.line, loc.line === 1 ? Math.max(loc.column, 1) : loc.column + 1)
}

function fail(message: string, line: number, column: number): ParsedExpression {
  return { ok: false, problem: { message, line, column } }
}

/** `node` and every node below it, each with its ancestors (nearest last). */
export function walkTree(node: AnyNode, visit: (n: AnyNode, parents: AnyNode[]) => void): void {
  const parents: AnyNode[] = []
  const go = (n: AnyNode) => {
    visit(n, parents)
    parents.push(n)
    for (const c of childNodes(n)) go(c)
    parents.pop()
  }
  go(node)
}

function isNode(v: unknown): v is AnyNode {
  return typeof v === 'object' && v !== null && typeof (v as { type?: unknown }).type === 'string'
}

/** The direct child nodes of `node`, in source order of its fields. */
export function childNodes(node: AnyNode): AnyNode[] {
  const out: AnyNode[] = []
  for (const v of Object.values(node)) {
    if (Array.isArray(v)) out.push(...v.filter(isNode))
    else if (isNode(v)) out.push(v)
  }
  return out
}
