import { parseExpression, type CodeProblem } from '../../lib/parseJs'

export type { CodeProblem } from '../../lib/parseJs'

/**
 * Checks that `code` is one JavaScript expression (what node, router and reducer code must
 * be), without running it. Returns the syntax error with its position in `code`, or null.
 */
export function checkExpressionSyntax(code: string): CodeProblem | null {
  const parsed = parseExpression(code)
  return parsed.ok ? null : parsed.problem
}
