/**
 * The statements of a function body as Python statements: `const`/`let` bindings (each a
 * fresh Python name, so shadowing stays apart), `if`/`else if`/`else`, `return`,
 * `throw new Error(…)`, `interrupt(…);`, an `await` that only waits. Anything else falls back.
 */
import type { AnyNode, Expression, Statement } from 'acorn'
import { NUM, STR, only } from './jsKinds'
import {
  PREC,
  isGlobal,
  refuse,
  translateExpr,
  truthTest,
  wrap,
  type ExprContext,
} from './jsToPythonExpr'
import { result } from './jsToPythonResults'
import { Scope, exprContext, type FnState } from './jsToPythonScope'

const INDENT = '    '

const STATEMENT_NAMES: Record<string, string> = {
  ForStatement: 'a loop',
  ForInStatement: 'a loop',
  ForOfStatement: 'a loop',
  WhileStatement: 'a loop',
  DoWhileStatement: 'a loop',
  SwitchStatement: '`switch`',
  TryStatement: '`try`',
  LabeledStatement: 'a label',
  BreakStatement: '`break`',
  ContinueStatement: '`continue`',
  FunctionDeclaration: 'a function inside the function (closures are not translated)',
  ClassDeclaration: 'a class',
  WithStatement: '`with`',
  DebuggerStatement: '`debugger`',
}

/** Names a block declares with `const`/`let`, all in the dead zone until declared. */
function hoist(stmts: Statement[], scope: Scope): void {
  for (const s of stmts) {
    if (s.type !== 'VariableDeclaration') continue
    for (const d of s.declarations)
      if (d.id.type === 'Identifier') scope.set(d.id.name, { kind: 'tdz' })
  }
}

export function statements(
  stmts: Statement[],
  fn: FnState,
  scope: Scope,
  indent: string,
): string[] {
  hoist(stmts, scope)
  return stmts.flatMap((s) => statement(s, fn, scope, indent))
}

function nested(s: Statement, fn: FnState, scope: Scope, indent: string): string[] {
  const inner = new Scope(scope)
  const lines =
    s.type === 'BlockStatement'
      ? statements(s.body, fn, inner, indent)
      : statements([s], fn, inner, indent)
  return lines.length > 0 ? lines : [`${indent}pass`]
}

function statement(s: Statement, fn: FnState, scope: Scope, indent: string): string[] {
  const ctx = exprContext(fn, scope)
  switch (s.type) {
    case 'VariableDeclaration':
      if (s.kind !== 'const' && s.kind !== 'let') return refuse(`\`${s.kind}\``)
      return s.declarations.map((d) => {
        if (d.id.type !== 'Identifier') return refuse('destructuring')
        if (!d.init) return refuse('a declaration without a value')
        const value = translateExpr(d.init, ctx)
        const py = fn.namer.take(d.id.name, 'v')
        scope.set(d.id.name, {
          kind: 'local',
          py,
          kinds: value.kinds,
          lone: value.lone === true,
          messages: value.messages === true,
        })
        return `${indent}${py} = ${value.py}`
      })
    case 'ReturnStatement':
      return [`${indent}return ${s.argument ? result(s.argument, fn, scope) : 'None'}`]
    case 'IfStatement':
      return ifStatement(s, fn, scope, indent, 'if')
    case 'BlockStatement':
      return statements(s.body, fn, new Scope(scope), indent)
    case 'EmptyStatement':
      return []
    case 'ExpressionStatement': {
      if (s.directive !== undefined) return []
      const e = s.expression
      if (
        e.type === 'CallExpression' &&
        e.callee.type === 'Identifier' &&
        e.callee.name === 'interrupt'
      )
        return [`${indent}${translateExpr(e, ctx).py}`]
      if (e.type === 'AwaitExpression') return awaitStatement(e.argument, ctx, indent)
      translateExpr(e, ctx) // refuses with the reason of the construct, when it has one
      return refuse('an expression statement (only `interrupt(…)` calls are translated)')
    }
    case 'ThrowStatement':
      return [`${indent}${throwStatement(s.argument, ctx)}`]
    default:
      return refuse(STATEMENT_NAMES[s.type] ?? `a ${s.type}`)
  }
}

function ifStatement(
  s: Statement & { type: 'IfStatement' },
  fn: FnState,
  scope: Scope,
  indent: string,
  keyword: 'if' | 'elif',
): string[] {
  const test = truthTest(s.test, exprContext(fn, scope), 'an `if`')
  const lines = [
    `${indent}${keyword} ${test.py}:`,
    ...nested(s.consequent, fn, scope, indent + INDENT),
  ]
  const alt = s.alternate
  if (!alt) return lines
  if (alt.type === 'IfStatement') return [...lines, ...ifStatement(alt, fn, scope, indent, 'elif')]
  return [...lines, `${indent}else:`, ...nested(alt, fn, scope, indent + INDENT)]
}

/**
 * `await` as a statement, for what only waits: `await null` (or any literal) and
 * `await Promise.resolve()` wait for nothing; `await new Promise((r) => setTimeout(r, ms))`
 * sleeps, as `sleep(ms / 1000)` (a negative delay is none, as in `setTimeout`).
 */
function awaitStatement(arg: Expression, ctx: ExprContext, indent: string): string[] {
  if (arg.type === 'Literal' || isGlobal(arg, 'undefined', ctx)) return []
  if (
    arg.type === 'CallExpression' &&
    arg.arguments.length === 0 &&
    arg.callee.type === 'MemberExpression' &&
    !arg.callee.computed &&
    isGlobal(arg.callee.object, 'Promise', ctx) &&
    arg.callee.property.type === 'Identifier' &&
    arg.callee.property.name === 'resolve'
  )
    return []
  const executor = arg.type === 'NewExpression' && arg.arguments.length === 1 && arg.arguments[0]
  const timer =
    arg.type === 'NewExpression' &&
    isGlobal(arg.callee, 'Promise', ctx) &&
    executor &&
    executor.type === 'ArrowFunctionExpression' &&
    executor.params.length === 1 &&
    executor.params[0]?.type === 'Identifier' &&
    executor.body.type === 'CallExpression' &&
    executor.body.arguments.length === 2 &&
    isGlobal(executor.body.callee, 'setTimeout', ctx)
      ? { resolve: executor.params[0].name, call: executor.body }
      : null
  const [callback, delay] = timer?.call.arguments ?? []
  if (!timer || callback?.type !== 'Identifier' || callback.name !== timer.resolve || !delay)
    return refuse('`await` of anything but a delay (`new Promise((r) => setTimeout(r, ms))`)')
  if (delay.type === 'SpreadElement') return refuse('spreading arguments')
  ctx.use('sleep')
  if (delay.type === 'Literal' && typeof delay.value === 'number')
    return [`${indent}sleep(${Math.max(delay.value, 0) / 1000})`]
  const ms = translateExpr(delay, ctx)
  if (!only(ms.kinds, NUM)) refuse('a delay that may not be a number')
  return [`${indent}sleep(max(${wrap(ms, PREC.ternary)}, 0) / 1000)`]
}

const ERRORS: Record<string, string> = { Error: 'Exception', TypeError: 'TypeError' }

/** `throw new Error(message)` as `raise Exception(message)`. */
function throwStatement(arg: Expression, ctx: ExprContext): string {
  const isError =
    (arg.type === 'NewExpression' || arg.type === 'CallExpression') &&
    arg.callee.type === 'Identifier' &&
    ERRORS[arg.callee.name] !== undefined &&
    !ctx.lookup(arg.callee.name) &&
    arg.arguments.length <= 1
  if (!isError)
    return refuse('`throw` of anything but `new Error(message)` or `new TypeError(message)`')
  const pyClass = ERRORS[(arg.callee as AnyNode & { name: string }).name] as string
  const [m] = arg.arguments
  if (!m) return `raise ${pyClass}()`
  if (m.type === 'SpreadElement') return refuse('spreading arguments')
  const message = translateExpr(m, ctx)
  if (!only(message.kinds, STR)) refuse('an error message that may not be a string')
  return `raise ${pyClass}(${wrap(message, PREC.ternary)})`
}
