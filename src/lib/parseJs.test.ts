import { describe, expect, it } from 'vitest'
import { parseExpression, walkTree, type AnyNode } from './parseJs'

const problem = (code: string) => {
  const p = parseExpression(code)
  return p.ok ? null : p.problem
}

describe('parseExpression', () => {
  it.each([
    'a',
    '(a)',
    '((a))',
    '(s) => ({ n: 1 })',
    'async (s) => { await 1; return {} }',
    '(a, b) => a + b',
    '(s) => s.x // a trailing comment',
    'function named(s) { return s }',
  ])('admits one expression: %s', (code) => {
    expect(problem(code)).toBeNull()
  })

  // Each of these closes the wrapper's own parenthesis and parses as something else.
  it.each(['a), (b', 'a) + (b', 'a)(b', 'a) => (b', "(s) => ({})); console.log('x'); (0"])(
    'refuses code that escapes the wrapper: %s',
    (code) => {
      expect(problem(code)?.message).toMatch(/single expression/)
    },
  )

  it('gives syntax errors at their 1-based place in the code', () => {
    expect(problem('(s) => s.x +* 2')).toMatchObject({ line: 1, column: 13 })
    expect(problem('(s) => {\n  const b = = 2\n}')).toMatchObject({ line: 2, column: 13 })
    expect(problem('(s) =>')?.message).toMatch(/ends too early/)
    expect(problem(' ')?.message).toBe('Code is empty.')
  })

  it('answers the same code with the same tree (read-only, shared)', () => {
    const a = parseExpression('(s) => s.count + 1')
    expect(parseExpression('(s) => s.count + 1')).toBe(a)
  })

  it('walks every node with its ancestors', () => {
    const p = parseExpression('(s) => f(s.x)')
    if (!p.ok) throw new Error('does not parse')
    const seen: string[] = []
    walkTree(p.expression, (n: AnyNode, parents) => {
      if (n.type === 'Identifier') seen.push(`${n.name}<${parents.map((q) => q.type).join('<')}`)
    })
    expect(seen).toEqual([
      's<ArrowFunctionExpression',
      'f<ArrowFunctionExpression<CallExpression',
      's<ArrowFunctionExpression<CallExpression<MemberExpression',
      'x<ArrowFunctionExpression<CallExpression<MemberExpression',
    ])
  })
})
