/**
 * The free variables of a piece of JavaScript: the names it refers to but does not bind
 * itself (globals, `Send`, a misspelt field…). An emitted module must never bind one of
 * those at the top level, or the code would see the module's binding instead of what it
 * sees in Superstep. Names the code binds itself (parameters, locals) may be reused freely:
 * inside the code they shadow the module's.
 */
import type { AnyNode } from 'acorn'

interface Scope {
  parent: Scope | null
  /** A function scope (where `var` lands) rather than a block. */
  fn: boolean
  names: Set<string>
}

const scopeIn = (parent: Scope | null, fn: boolean): Scope => ({ parent, fn, names: new Set() })

/** The free variables of a parsed program (acorn's ESTree). */
export function freeNames(program: AnyNode): Set<string> {
  const refs: [string, Scope][] = []
  walk(program, scopeIn(null, true), refs)
  const free = new Set<string>()
  for (const [name, scope] of refs) if (!isBound(name, scope)) free.add(name)
  return free
}

function isBound(name: string, scope: Scope | null): boolean {
  for (let s = scope; s; s = s.parent) if (s.names.has(name)) return true
  return false
}

function functionScope(scope: Scope): Scope {
  let s = scope
  while (!s.fn && s.parent) s = s.parent
  return s
}

/** The names a binding pattern introduces (`a`, `{ a, b: [c] }`, `...rest`, `d = 1`). */
function declare(scope: Scope, p: AnyNode | null | undefined): void {
  if (!p) return
  switch (p.type) {
    case 'Identifier':
      scope.names.add(p.name)
      return
    case 'ObjectPattern':
      for (const prop of p.properties) declare(scope, prop.type === 'Property' ? prop.value : prop)
      return
    case 'ArrayPattern':
      for (const el of p.elements) declare(scope, el)
      return
    case 'AssignmentPattern':
      declare(scope, p.left)
      return
    case 'RestElement':
      declare(scope, p.argument)
      return
    default:
      return
  }
}

/** The expressions inside a binding pattern: defaults and computed keys. */
function walkPattern(p: AnyNode | null | undefined, scope: Scope, refs: [string, Scope][]): void {
  if (!p) return
  switch (p.type) {
    case 'ObjectPattern':
      for (const prop of p.properties) {
        if (prop.type === 'Property') {
          if (prop.computed) walk(prop.key, scope, refs)
          walkPattern(prop.value, scope, refs)
        } else walkPattern(prop, scope, refs)
      }
      return
    case 'ArrayPattern':
      for (const el of p.elements) walkPattern(el, scope, refs)
      return
    case 'AssignmentPattern':
      walkPattern(p.left, scope, refs)
      walk(p.right, scope, refs)
      return
    case 'RestElement':
      walkPattern(p.argument, scope, refs)
      return
    default:
      return
  }
}

function walkFunction(n: AnyNode, scope: Scope, refs: [string, Scope][]): void {
  if (
    n.type !== 'FunctionDeclaration' &&
    n.type !== 'FunctionExpression' &&
    n.type !== 'ArrowFunctionExpression'
  ) {
    return
  }
  const inner = scopeIn(scope, true)
  if (n.type === 'FunctionExpression' && n.id) inner.names.add(n.id.name)
  for (const p of n.params) declare(inner, p)
  for (const p of n.params) walkPattern(p, inner, refs)
  walk(n.body, inner, refs)
}

function walkClass(n: AnyNode, scope: Scope, refs: [string, Scope][]): void {
  if (n.type !== 'ClassDeclaration' && n.type !== 'ClassExpression') return
  if (n.superClass) walk(n.superClass, scope, refs)
  for (const el of n.body.body) {
    if (el.type === 'StaticBlock') walk(el, scope, refs)
    else {
      if (el.computed) walk(el.key, scope, refs)
      if (el.value) walk(el.value, scope, refs)
    }
  }
}

function walk(n: AnyNode, scope: Scope, refs: [string, Scope][]): void {
  switch (n.type) {
    case 'Identifier':
      refs.push([n.name, scope])
      return
    case 'FunctionDeclaration':
      if (n.id) scope.names.add(n.id.name)
      return walkFunction(n, scope, refs)
    case 'FunctionExpression':
    case 'ArrowFunctionExpression':
      return walkFunction(n, scope, refs)
    case 'ClassDeclaration':
      if (n.id) scope.names.add(n.id.name)
      return walkClass(n, scope, refs)
    case 'ClassExpression': {
      const inner = scopeIn(scope, false)
      if (n.id) inner.names.add(n.id.name)
      return walkClass(n, inner, refs)
    }
    case 'VariableDeclaration':
      for (const d of n.declarations) {
        declare(n.kind === 'var' ? functionScope(scope) : scope, d.id)
        walkPattern(d.id, scope, refs)
        if (d.init) walk(d.init, scope, refs)
      }
      return
    case 'CatchClause': {
      const inner = scopeIn(scope, false)
      declare(inner, n.param)
      walkPattern(n.param, inner, refs)
      return walk(n.body, inner, refs)
    }
    case 'BlockStatement':
    case 'StaticBlock':
    case 'ForStatement':
    case 'ForInStatement':
    case 'ForOfStatement':
    case 'SwitchStatement':
      return walkChildren(n, scopeIn(scope, false), refs)
    case 'MemberExpression':
      walk(n.object, scope, refs)
      if (n.computed) walk(n.property, scope, refs)
      return
    case 'Property':
      if (n.computed || n.shorthand) walk(n.key, scope, refs)
      if (!n.shorthand) walk(n.value, scope, refs)
      return
    case 'LabeledStatement':
      return walk(n.body, scope, refs)
    case 'BreakStatement':
    case 'ContinueStatement':
    case 'MetaProperty':
      return
    default:
      return walkChildren(n, scope, refs)
  }
}

function walkChildren(n: AnyNode, scope: Scope, refs: [string, Scope][]): void {
  for (const value of Object.values(n)) {
    if (Array.isArray(value)) {
      for (const child of value) if (isAstNode(child)) walk(child, scope, refs)
    } else if (isAstNode(value)) walk(value, scope, refs)
  }
}

function isAstNode(v: unknown): v is AnyNode {
  return typeof v === 'object' && v !== null && typeof (v as { type?: unknown }).type === 'string'
}
