/**
 * JavaScript's operators as Python's, where they agree on every kind of operand the value
 * may have: arithmetic on numbers, `+` joining text, comparisons, the equalities, `in`,
 * `&&`/`||`/`??`/`!`, conditions, template literals.
 */
import type { AnyNode } from 'acorn'
import {
  BOOL,
  DICT,
  INT,
  NULL,
  NUM,
  OPAQUE,
  SAME_TRUTHINESS,
  STR,
  UNDEF,
  describeKinds,
  only,
} from './jsKinds'
import {
  INHERITED,
  PREC,
  atom,
  refuse,
  wrap,
  type ExprContext,
  type PyExpr,
} from './jsToPythonCore'
import { pyString } from './pyText'

/** Translates an expression used as a condition: its truthiness must agree. */
export function truthTest(node: AnyNode, ctx: ExprContext, what: string): PyExpr {
  const e = ctx.translate(node)
  if (!only(e.kinds, SAME_TRUTHINESS))
    refuse(
      `${what} on a value of ${describeKinds(e.kinds)} (\`[]\` and \`{}\` are truthy in JavaScript and falsy in Python)`,
    )
  return e
}

/** `str(x)` for an integer, `x` for a string: JavaScript's string conversion, where exact. */
export function asText(e: PyExpr, what: string): PyExpr {
  if (only(e.kinds, STR)) return e
  if (only(e.kinds, INT)) return atom(`str(${e.py})`, STR, e.pure)
  return refuse(
    `${what} of a value of ${describeKinds(e.kinds)} (JavaScript's conversion to text differs from Python's)`,
  )
}

function concat(parts: PyExpr[]): PyExpr {
  if (parts.length > 1 && parts.some((p) => p.lone))
    refuse('joining a string that holds a lone surrogate (JavaScript may pair the halves)')
  if (parts.length === 0) return atom('""', STR)
  if (parts.length === 1) return parts[0] as PyExpr
  return {
    py: parts.map((p, i) => wrap(p, i === 0 ? PREC.add : PREC.add + 1)).join(' + '),
    prec: PREC.add,
    kinds: STR,
    pure: parts.every((p) => p.pure),
  }
}

export function template(node: AnyNode & { type: 'TemplateLiteral' }, ctx: ExprContext): PyExpr {
  const parts: PyExpr[] = []
  node.quasis.forEach((q, i) => {
    const text = q.value.cooked
    if (text === null || text === undefined) refuse('an invalid escape in a template')
    if (text !== '') parts.push({ ...atom(pyString(text), STR), lone: /\p{Cs}/u.test(text) })
    const e = node.expressions[i]
    if (e) parts.push(asText(ctx.translate(e), 'a template placeholder'))
  })
  return concat(parts)
}

const COMPARE = new Set(['<', '>', '<=', '>='])

export function binary(
  op: string,
  leftNode: AnyNode,
  rightNode: AnyNode,
  ctx: ExprContext,
): PyExpr {
  if (op === 'in') return inState(leftNode, rightNode, ctx)
  if (leftNode.type === 'PrivateIdentifier') return refuse('a private name')
  const l = ctx.translate(leftNode)
  const r = ctx.translate(rightNode)
  const pure = l.pure && r.pure
  const arith = (pyOp: string, prec: number, kinds: number): PyExpr => ({
    py: `${wrap(l, prec)} ${pyOp} ${wrap(r, prec + 1)}`,
    prec,
    kinds,
    pure,
  })
  const bothNumbers = only(l.kinds, NUM) && only(r.kinds, NUM)
  // Sums of small integers stay small; a product may leave JavaScript's exact range.
  const intOrNum = only(l.kinds, INT) && only(r.kinds, INT) && op !== '*' ? INT : NUM
  if (op === '+') {
    if (bothNumbers) return arith('+', PREC.add, intOrNum)
    if (only(l.kinds, STR) || only(r.kinds, STR)) {
      const text = (e: PyExpr) => asText(e, '`+` with a string')
      return concat([text(l), text(r)])
    }
    return refuse(
      `\`+\` on ${describeKinds(l.kinds)} and ${describeKinds(r.kinds)} (JavaScript converts the operands, Python raises or does something else)`,
    )
  }
  if (op === '-' || op === '*') {
    if (bothNumbers) return arith(op, op === '-' ? PREC.add : PREC.mul, intOrNum)
    return refuse(`\`${op}\` on values that may not be numbers`)
  }
  if (op === '/') {
    const divisor = rightNode.type === 'Literal' && typeof rightNode.value === 'number'
    if (bothNumbers && divisor && rightNode.value !== 0) return arith('/', PREC.mul, NUM)
    return refuse('`/` (dividing by zero gives Infinity in JavaScript and raises in Python)')
  }
  if (COMPARE.has(op)) {
    if (bothNumbers) return compare(l, op, r)
    return refuse(
      `\`${op}\` on values that may not be numbers (JavaScript converts, Python raises; strings order differently)`,
    )
  }
  if (op === '===' || op === '!==')
    return strictEquals(l, r, leftNode, rightNode, op === '!==', ctx)
  if (op === '==' || op === '!=') return looseEquals(l, r, leftNode, rightNode, op === '!=', ctx)
  return refuse(`the operator \`${op}\``)
}

export function compare(l: PyExpr, op: string, r: PyExpr): PyExpr {
  return {
    py: `${wrap(l, PREC.compare + 1)} ${op} ${wrap(r, PREC.compare + 1)}`,
    prec: PREC.compare,
    kinds: BOOL,
    pure: l.pure && r.pure,
  }
}

function isNullish(node: AnyNode, ctx: ExprContext): 'null' | 'undefined' | null {
  if (node.type === 'Literal' && node.value === null && !node.regex) return 'null'
  if (node.type === 'Identifier' && node.name === 'undefined' && !ctx.lookup('undefined'))
    return 'undefined'
  return null
}

function isNone(e: PyExpr, negate: boolean): PyExpr {
  return compare(e, negate ? 'is not' : 'is', atom('None', NULL))
}

function strictEquals(
  l: PyExpr,
  r: PyExpr,
  ln: AnyNode,
  rn: AnyNode,
  negate: boolean,
  ctx: ExprContext,
): PyExpr {
  for (const [side, other, otherNode] of [
    [ln, r, rn],
    [rn, l, ln],
  ] as const) {
    const nullish = isNullish(side, ctx)
    if (nullish === 'null' && isNullish(otherNode, ctx) === null) {
      if (other.kinds & UNDEF)
        refuse('`=== null` on a value that may be undefined (Python has one None for both)')
      return isNone(other, negate)
    }
    if (nullish === 'undefined') {
      if (other.kinds & NULL)
        refuse('`=== undefined` on a value that may be null (Python has one None for both)')
      return isNone(other, negate)
    }
    if (side.type === 'Literal' && typeof side.value === 'boolean')
      return compare(other, negate ? 'is not' : 'is', atom(side.value ? 'True' : 'False', BOOL))
  }
  const op = negate ? '!=' : '=='
  if (only(l.kinds, STR) || only(r.kinds, STR)) return compare(l, op, r)
  const noBool = (e: PyExpr) => (e.kinds & (BOOL | OPAQUE)) === 0
  if ((only(l.kinds, NUM) && noBool(r)) || (only(r.kinds, NUM) && noBool(l)))
    return compare(l, op, r)
  if (only(l.kinds, BOOL) && only(r.kinds, BOOL)) return compare(l, op, r)
  return refuse(
    `\`${negate ? '!==' : '==='}\` between ${describeKinds(l.kinds)} and ${describeKinds(r.kinds)} (objects compare by identity in JavaScript, by value in Python; \`1 == True\` in Python)`,
  )
}

function looseEquals(
  l: PyExpr,
  r: PyExpr,
  ln: AnyNode,
  rn: AnyNode,
  negate: boolean,
  ctx: ExprContext,
): PyExpr {
  if (isNullish(rn, ctx)) return isNone(l, negate)
  if (isNullish(ln, ctx)) return isNone(r, negate)
  const op = negate ? '!=' : '=='
  if ((only(l.kinds, STR) && only(r.kinds, STR)) || (only(l.kinds, NUM) && only(r.kinds, NUM)))
    return compare(l, op, r)
  return refuse('`==` between values that may differ in type (JavaScript converts them)')
}

/** `'key' in state`. */
function inState(keyNode: AnyNode, objNode: AnyNode, ctx: ExprContext): PyExpr {
  const isState = objNode.type === 'Identifier' && ctx.lookup(objNode.name)?.kind === 'state'
  if (!isState || !ctx.stateIsDict) return refuse('`in` on anything but the state')
  if (keyNode.type !== 'Literal' || typeof keyNode.value !== 'string')
    return refuse('`in` with a key that is not a string literal')
  if (INHERITED.has(keyNode.value))
    return refuse(`\`'${keyNode.value}' in state\` (every JavaScript object inherits it)`)
  return compare(atom(pyString(keyNode.value), STR), 'in', atom('state', DICT))
}

export function logical(
  op: string,
  leftNode: AnyNode,
  rightNode: AnyNode,
  ctx: ExprContext,
): PyExpr {
  if (op === '??') {
    const l = ctx.translate(leftNode)
    const r = ctx.translate(rightNode)
    if (!l.pure) refuse('`??` on an expression with effects')
    return {
      py: `${wrap(l, PREC.ternary + 1)} if ${wrap(l, PREC.compare + 1)} is not None else ${wrap(r, PREC.ternary)}`,
      prec: PREC.ternary,
      kinds: (l.kinds & ~(NULL | UNDEF)) | r.kinds,
      lone: l.lone === true || r.lone === true,
      pure: r.pure,
    }
  }
  const l = truthTest(leftNode, ctx, `\`${op}\``)
  const r = ctx.translate(rightNode)
  const [pyOp, prec] = op === '&&' ? ['and', PREC.and] : ['or', PREC.or]
  return {
    py: `${wrap(l, prec)} ${pyOp} ${wrap(r, prec + 1)}`,
    prec,
    kinds: l.kinds | r.kinds,
    lone: l.lone === true || r.lone === true,
    pure: l.pure && r.pure,
  }
}

export function unary(op: string, argNode: AnyNode, ctx: ExprContext): PyExpr {
  if (op === '!') {
    const a = truthTest(argNode, ctx, '`!`')
    return { py: `not ${wrap(a, PREC.not)}`, prec: PREC.not, kinds: BOOL, pure: a.pure }
  }
  if (op === '-' || op === '+') {
    const a = ctx.translate(argNode)
    if (!only(a.kinds, NUM)) refuse(`unary \`${op}\` on a value that may not be a number`)
    if (op === '+') return a
    return { py: `-${wrap(a, PREC.unary)}`, prec: PREC.unary, kinds: a.kinds, pure: a.pure }
  }
  return refuse(`the operator \`${op}\``)
}

/** `c ? a : b` as `a if c else b`. */
export function conditional(
  node: AnyNode & { type: 'ConditionalExpression' },
  ctx: ExprContext,
): PyExpr {
  const test = truthTest(node.test, ctx, 'a condition')
  const yes = ctx.translate(node.consequent)
  const no = ctx.translate(node.alternate)
  return {
    py: `${wrap(yes, PREC.ternary + 1)} if ${wrap(test, PREC.ternary + 1)} else ${wrap(no, PREC.ternary)}`,
    prec: PREC.ternary,
    kinds: yes.kinds | no.kinds,
    lone: yes.lone === true || no.lone === true,
    pure: test.pure && yes.pure && no.pure,
  }
}
