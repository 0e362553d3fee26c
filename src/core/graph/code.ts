import { parse } from 'acorn'

export interface CodeProblem {
  message: string
  line: number
  column: number
}

/**
 * Checks that `code` is one JavaScript expression (what node, router and reducer code must
 * be), without running it. Returns the syntax error with its position in `code`, or null.
 */
export function checkExpressionSyntax(code: string): CodeProblem | null {
  if (code.trim() === '') return { message: 'Code is empty.', line: 1, column: 1 }
  try {
    // Wrapping in parentheses admits exactly one expression; the newline keeps a trailing
    // line comment from swallowing the closing parenthesis.
    const wrapped = `(${code}\n)`
    const program = parse(wrapped, {
      ecmaVersion: 'latest',
      sourceType: 'script',
      preserveParens: true,
    })
    const [only, ...rest] = program.body
    const whole =
      only?.type === 'ExpressionStatement' &&
      only.expression.type === 'ParenthesizedExpression' &&
      only.expression.start === 0 &&
      only.expression.end === wrapped.length
    if (!whole || rest.length > 0) {
      return {
        message: 'Code must be a single expression (a function), not statements.',
        line: 1,
        column: 1,
      }
    }
    return null
  } catch (e) {
    const err = e as SyntaxError & { loc?: { line: number; column: number } }
    const loc = err.loc ?? { line: 1, column: 0 }
    const message = err.message.replace(/\s*\(\d+:\d+\)$/, '')
    const lines = code.split('\n')
    if (loc.line > lines.length) {
      // The error is on the wrapper's closing line: the code ended too early.
      const last = lines.length
      return {
        message: `${message} (the code ends too early)`,
        line: last,
        column: (lines[last - 1] ?? '').length + 1,
      }
    }
    const column = loc.line === 1 ? Math.max(loc.column, 1) : loc.column + 1
    return { message, line: loc.line, column }
  }
}
