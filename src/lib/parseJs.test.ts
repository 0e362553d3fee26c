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
    // One closing parenthesis too many is named where it stands, not as an early end.
    expect(problem('(s) => ({ count: 1 }))')).toEqual({
      message: 'Unexpected `)`: it closes a bracket that was never opened (one too many?)',
      line: 1,
      column: 22,
    })
    expect(problem('(s) => `${s.a}`')).toBeNull()
    expect(problem(' ')?.message).toBe('Code is empty.')
  })

  // Script code (acorn here, `new Function` in the app) reads `<!--` and a line-leading `-->`
  // as line comments; TypeScript and modules (the export) read operators and run the rest.
  it.each([
    ['(s) => 0 <!--globalThis.y, 1\n', 1, 10],
    ['(s) => (\n  0 <!-- x\n)', 2, 5],
    ['(s) => s.x\n--> globalThis.y = 1\n', 2, 1],
    ['(s) => s.x\n  /* c */ --> y\n', 2, 11],
    ['<!-- a\n(s) => 1', 1, 1],
  ])('refuses an HTML-like comment at its place: %j', (code, line, column) => {
    const p = problem(code)
    expect(p).toMatchObject({ line, column })
    expect(p?.message).toMatch(/HTML-like comment.*TypeScript and JavaScript modules/)
  })

  it.each([
    '(s) => s.x < !--s.y',
    '(s) => s.x-- > 0',
    '(s) => s.x --> 0',
    "(s) => '<!-- in a string -->'",
    '(s) => s.x // <!-- in a comment\n',
    '(s) => /* <!-- --> */ s.x',
  ])('admits what only looks like one: %j', (code) => {
    expect(problem(code)).toBeNull()
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

describe('code TypeScript would read otherwise', () => {
  it('refuses a raw U+2028/U+2029 and an unparenthesised `a < b > c`, at their place', () => {
    const sep = parseExpression("(s) => ({ x: 'a\u2028b' })")
    expect(sep).toMatchObject({ ok: false, problem: { line: 1, column: 16 } })
    expect(!sep.ok && sep.problem.message).toMatch(/U\+2028/)
    const chain = parseExpression('(s) =>\n  s.a < s.b > (s.c)')
    expect(chain).toMatchObject({ ok: false, problem: { line: 2, column: 3 } })
    expect(!chain.ok && chain.problem.message).toMatch(/generic call/)
    for (const fine of [
      "(s) => ({ x: 'a\\u2028b' })",
      '(s) => (s.a < s.b) > s.c',
      '(s) => s.a < (s.b > s.c)',
      '(s) => s.a > s.b < s.c',
      '(s) => [s.a < 1, s.b > 2]',
    ])
      expect(parseExpression(fine)).toMatchObject({ ok: true })
  })
})
