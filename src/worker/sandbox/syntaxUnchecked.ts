/**
 * core/graph/code.ts as the sandbox's loop program has it (vite.config.ts's sandboxLoopPlugin
 * puts this module in its place for sandboxHost.ts): every piece of a graph's code was parsed
 * (acorn) before its run could begin, so no SyntaxError is left to place in the run, and the
 * program every run's sandbox evaluates goes without acorn.
 */
export function checkExpressionSyntax(_code: string): { line: number; column: number } | null {
  return null
}
