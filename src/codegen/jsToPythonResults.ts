/**
 * What a translated function returns, checked for its kind: a node's update (an object
 * literal, a Command, a list of them, or nothing), a router's routes (names, END, Sends),
 * a reducer's value.
 */
import type { AnyNode, Expression } from 'acorn'
import { START } from '../core/graph/constants'
import { LIST, STR, UNDEF, only } from './jsKinds'
import {
  PREC,
  isGlobal,
  refuse,
  translateExpr,
  truthTest,
  wrap,
  type ExprContext,
  type PyExpr,
} from './jsToPythonExpr'
import { exprContext, type FnState, type Scope } from './jsToPythonScope'
import { translateUpdate } from './jsToPythonUpdate'

/** A returned value, checked for what the function kind may return. */
export function result(node: Expression, fn: FnState, scope: Scope): string {
  const ctx = exprContext(fn, scope)
  switch (fn.options.kind) {
    case 'node':
      return wrap(nodeResult(node, fn, ctx), PREC.ternary)
    case 'router':
      return wrap(routerResult(node, fn, ctx, true), PREC.ternary)
    case 'reducer':
    case 'tool':
      return wrap(translateExpr(node, ctx), PREC.ternary)
  }
}

function isUndefined(node: AnyNode, ctx: ExprContext): boolean {
  return isGlobal(node, 'undefined', ctx)
}

function ternary(
  node: AnyNode & { type: 'ConditionalExpression' },
  ctx: ExprContext,
  branch: (n: Expression) => PyExpr,
): PyExpr {
  const test = truthTest(node.test, ctx, 'a condition')
  const yes = branch(node.consequent)
  const no = branch(node.alternate)
  return {
    py: `${wrap(yes, PREC.ternary + 1)} if ${wrap(test, PREC.ternary + 1)} else ${wrap(no, PREC.ternary)}`,
    prec: PREC.ternary,
    kinds: yes.kinds | no.kinds,
    pure: false,
  }
}

const NONE: PyExpr = { py: 'None', prec: PREC.atom, kinds: UNDEF, pure: true }

/**
 * What a node returns: an update object, a Command, a list of them, or nothing. JavaScript
 * treats every falsy value as "no update"; Python only None, so falsy literals become None.
 */
function nodeResult(node: Expression, fn: FnState, ctx: ExprContext): PyExpr {
  if (node.type === 'ObjectExpression') return translateUpdate(node, ctx, fn.fields)
  if (node.type === 'NewExpression') return translateExpr(node, ctx)
  if (node.type === 'ConditionalExpression')
    return ternary(node, ctx, (n) => nodeResult(n, fn, ctx))
  if (isUndefined(node, ctx)) return NONE
  if (node.type === 'Literal' && !node.regex && node.bigint === undefined) {
    if (!node.value) return NONE
    return translateExpr(node, ctx) // a string, number or true: both runtimes fail the run
  }
  if (node.type === 'ArrayExpression') {
    const items = node.elements.map((e) => {
      if (e?.type === 'ObjectExpression') return translateUpdate(e, ctx, fn.fields)
      if (e?.type === 'NewExpression') return translateExpr(e, ctx)
      return refuse('a returned array holding something other than updates and Commands')
    })
    return {
      py: `[${items.map((i) => wrap(i, PREC.ternary)).join(', ')}]`,
      prec: PREC.atom,
      kinds: LIST,
      pure: false,
    }
  }
  return refuse(
    'a node returning something other than an object literal, a Command or a list of them',
  )
}

/**
 * What a router returns: node names, END, Sends, or a list of them. Without a path map a
 * name computed at run time could be `''`, which fails in JavaScript and is ignored in
 * Python, so only literal names are translated there.
 */
function routerResult(node: Expression, fn: FnState, ctx: ExprContext, top: boolean): PyExpr {
  const hasPaths = fn.options.hasPaths === true
  if (node.type === 'Literal' && typeof node.value === 'string') {
    if (!hasPaths && (node.value === '' || node.value === START))
      refuse(`a route to ${JSON.stringify(node.value)}`)
    return translateExpr(node, ctx)
  }
  if (isGlobal(node, 'END', ctx)) return translateExpr(node, ctx)
  if (node.type === 'NewExpression') {
    const e = translateExpr(node, ctx)
    if (node.callee.type !== 'Identifier' || node.callee.name !== 'Send')
      refuse('a route that is a Command')
    return e
  }
  if (node.type === 'ConditionalExpression')
    return ternary(node, ctx, (n) => routerResult(n, fn, ctx, top))
  // `list.map((x) => new Send(…))`: a list of Sends, the map-reduce fan-out.
  if (top && isSendMap(node, ctx)) return translateExpr(node, ctx)
  if (node.type === 'ArrayExpression' && top) {
    const items = node.elements.map((e) =>
      e === null || e.type === 'SpreadElement'
        ? refuse('a hole or spread in a list of routes')
        : routerResult(e, fn, ctx, false),
    )
    return {
      py: `[${items.map((i) => wrap(i, PREC.ternary)).join(', ')}]`,
      prec: PREC.atom,
      kinds: LIST,
      pure: false,
    }
  }
  const e = translateExpr(node, ctx)
  if (hasPaths && only(e.kinds, STR)) return e
  return refuse(
    hasPaths
      ? 'a route that may not be a string'
      : 'a route computed at run time without a path map (an empty name fails in JavaScript and is ignored in Python)',
  )
}

function isSendMap(node: AnyNode, ctx: ExprContext): boolean {
  if (node.type !== 'CallExpression' || node.callee.type !== 'MemberExpression') return false
  const { property, computed } = node.callee
  const fn = node.arguments[0]
  if (computed || property.type !== 'Identifier' || property.name !== 'map') return false
  if (fn?.type !== 'ArrowFunctionExpression') return false
  const body = fn.body
  return body.type === 'NewExpression' && isGlobal(body.callee, 'Send', ctx)
}
