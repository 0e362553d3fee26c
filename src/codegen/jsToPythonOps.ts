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
  guard,
  isGlobal,
  refuse,
  wrap,
  type ExprContext,
  type PyExpr,
} from './jsToPythonCore'
import { pyString } from './text'

/**
 * Translates an expression used as a condition: as it is where JavaScript's truthiness and
 * Python's agree on every kind it may have, else through `_js_truthy` (exact for JSON values
 * and objects). `a && b` and `a || b` test each side so.
 */
export function truthTest(node: AnyNode, ctx: ExprContext, what: string): PyExpr {
  if (node.type === 'LogicalExpression' && node.operator !== '??') {
    const l = truthTest(node.left, ctx, what)
    const r = truthTest(node.right, ctx, what)
    const [pyOp, prec] = node.operator === '&&' ? ['and', PREC.and] : ['or', PREC.or]
    return {
      py: `${wrap(l, prec)} ${pyOp} ${wrap(r, prec + 1)}`,
      prec,
      kinds: l.kinds | r.kinds,
      pure: l.pure && r.pure,
    }
  }
  const e = ctx.translate(node)
  if (only(e.kinds, SAME_TRUTHINESS)) return e
  return atom(`${ctx.helper('_js_truthy')}(${wrap(e, PREC.ternary)})`, BOOL, e.pure)
}

/**
 * JavaScript's String(value): `x` for a string, `str(x)` for a small integer, else
 * `_js_text(x)` (exact for JSON values; it raises for others), or `_js_string` of the read
 * with `_MISSING` where a missing key (undefined) and null must give different text.
 */
export function asText(e: PyExpr, what: string, ctx: ExprContext): PyExpr {
  if (only(e.kinds, STR)) return e
  if (only(e.kinds, INT)) return atom(`str(${e.py})`, STR, e.pure)
  if (!(e.kinds & UNDEF))
    return atom(`${ctx.helper('_js_text')}(${wrap(e, PREC.ternary)})`, STR, e.pure)
  if (e.missingPy) {
    ctx.helper('_MISSING')
    return atom(`${ctx.helper('_js_string')}(${e.missingPy})`, STR, e.pure)
  }
  return refuse(
    `${what} of a value of ${describeKinds(e.kinds)} (undefined and null read alike here; JavaScript writes "undefined" and "null")`,
  )
}

/** `e` as a number: as it is when proven one, else through the `_js_number` guard. */
function asNumber(e: PyExpr, ctx: ExprContext): PyExpr {
  return only(e.kinds, NUM) ? e : guard(ctx, '_js_number', e, NUM)
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
    if (e) parts.push(asText(ctx.translate(e), 'a template placeholder', ctx))
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
  const l0 = ctx.translate(leftNode)
  const r0 = ctx.translate(rightNode)
  let [l, r] = [l0, r0]
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
  // The guards: an operand that may not be a number becomes `_js_number(operand, where)`.
  const numbers = () => {
    ;[l, r] = [asNumber(l0, ctx), asNumber(r0, ctx)]
  }
  if (op === '+') {
    if (bothNumbers) return arith('+', PREC.add, intOrNum)
    if (only(l.kinds, STR) || only(r.kinds, STR)) {
      const text = (e: PyExpr) => asText(e, '`+` with a string', ctx)
      return concat([text(l), text(r)])
    }
    // With a number on one side, JavaScript adds unless the other is text (or converts it):
    // the guard lets numbers through and raises for the rest.
    if (only(l.kinds, NUM) || only(r.kinds, NUM)) {
      numbers()
      return arith('+', PREC.add, NUM)
    }
    return refuse(
      `\`+\` on ${describeKinds(l.kinds)} and ${describeKinds(r.kinds)} (JavaScript converts the operands, Python raises or does something else)`,
    )
  }
  if (op === '-' || op === '*') {
    if (bothNumbers) return arith(op, op === '-' ? PREC.add : PREC.mul, intOrNum)
    numbers()
    return arith(op, op === '-' ? PREC.add : PREC.mul, NUM)
  }
  if (op === '/') {
    const divisor = rightNode.type === 'Literal' && typeof rightNode.value === 'number'
    if (divisor && rightNode.value !== 0) {
      numbers()
      return arith('/', PREC.mul, NUM)
    }
    return refuse('`/` (dividing by zero gives Infinity in JavaScript and raises in Python)')
  }
  if (COMPARE.has(op)) {
    if (bothNumbers) return compare(l, op, r)
    // Strings order by UTF-16 units in JavaScript, by code points in Python: never guessed.
    if (!only(l.kinds, STR) && !only(r.kinds, STR)) {
      numbers()
      return compare(l, op, r)
    }
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
  if (isGlobal(node, 'undefined', ctx)) return 'undefined'
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
  const l = ctx.translate(leftNode)
  const r = ctx.translate(rightNode)
  const lone = l.lone === true || r.lone === true
  if (only(l.kinds, SAME_TRUTHINESS)) {
    const [pyOp, prec] = op === '&&' ? ['and', PREC.and] : ['or', PREC.or]
    return {
      py: `${wrap(l, prec)} ${pyOp} ${wrap(r, prec + 1)}`,
      prec,
      kinds: l.kinds | r.kinds,
      lone,
      pure: l.pure && r.pure,
    }
  }
  // JavaScript's `a && b` is `a` when `a` is falsy, else `b`: with `a` evaluated twice.
  if (!l.pure) refuse(`\`${op}\` on a value of ${describeKinds(l.kinds)} with effects`)
  const test = truthTest(leftNode, ctx, `\`${op}\``)
  const [yes, no] = op === '&&' ? [r, l] : [l, r]
  return {
    py: `${wrap(yes, PREC.ternary + 1)} if ${wrap(test, PREC.ternary + 1)} else ${wrap(no, PREC.ternary)}`,
    prec: PREC.ternary,
    kinds: l.kinds | r.kinds,
    lone,
    pure: r.pure,
  }
}

export function unary(op: string, argNode: AnyNode, ctx: ExprContext): PyExpr {
  if (op === '!') {
    const a = truthTest(argNode, ctx, '`!`')
    return { py: `not ${wrap(a, PREC.not)}`, prec: PREC.not, kinds: BOOL, pure: a.pure }
  }
  if (op === '-' || op === '+') {
    const a = asNumber(ctx.translate(argNode), ctx)
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
