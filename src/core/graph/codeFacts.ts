import {
  childNodes as children,
  parseExpression,
  walkTree as walk,
  type AnyNode,
  type Expression,
} from '../../lib/parseJs'
import { memoByString, type StringMemo } from '../../lib/memo'
import { END } from './constants'

/** How often one run of some code may start a node with `Send`. */
export type SendCount = 'once' | 'many'

/**
 * What the design checks read from a piece of node or router code, by parsing it (never by
 * running it). Everything is a "may": code the analysis cannot follow contributes nothing,
 * so the checks built on it stay quiet rather than guess.
 */
export interface CodeFacts {
  /** Keys of the object literals the function returns (also inside `Command({ update })`). */
  writes: Set<string>
  /** Nodes started with `new Send('name', …)`, and whether possibly several at once. */
  sends: Map<string, SendCount>
  /** String literals and `END`: the names a router without a path map may return. */
  strings: Set<string>
  /** An array literal or a `.map(` / `.flatMap(` / `.filter(` call anywhere (router heuristic). */
  mayReturnList: boolean
  /** Some `Command({ goto })` may go to several nodes at once. */
  gotoMayBeList: boolean
  /** Calls `interrupt(…)`. */
  usesInterrupt: boolean
}

const LIST_METHODS = new Set(['map', 'flatMap', 'filter'])
const MANY_METHODS = new Set(['map', 'flatMap', 'forEach'])
const FUNCTIONS = new Set(['ArrowFunctionExpression', 'FunctionExpression', 'FunctionDeclaration'])
const LOOPS = new Set([
  'ForStatement',
  'ForInStatement',
  'ForOfStatement',
  'WhileStatement',
  'DoWhileStatement',
])

/** The code as an expression tree, or null when it does not parse. */
export function parseCode(code: string): Expression | null {
  const parsed = parseExpression(code)
  return parsed.ok ? parsed.expression : null
}

/** `name(…)` or `new name(…)` with a plain identifier callee (also `x.name(…)` if `member`). */
function calls(n: AnyNode, name: string, member = false): n is AnyNode & { arguments: AnyNode[] } {
  if (n.type !== 'CallExpression' && n.type !== 'NewExpression') return false
  const c = n.callee
  if (c.type === 'Identifier') return c.name === name
  return member && c.type === 'MemberExpression' && propName(c.property, c.computed) === name
}

/** The name of a property key: `x`, `'x'`, `['x']`; null when computed from a variable. */
function propName(key: AnyNode, computed: boolean): string | null {
  if (key.type === 'Identifier' && !computed) return key.name
  if (key.type === 'Literal' && typeof key.value === 'string') return key.value
  return null
}

/** The value of property `name` of an object literal. */
function prop(obj: AnyNode | undefined, name: string): AnyNode | undefined {
  if (obj?.type !== 'ObjectExpression') return undefined
  for (const p of obj.properties) {
    if (p.type === 'Property' && propName(p.key, p.computed) === name) return p.value
  }
  return undefined
}

function isMethodCall(n: AnyNode, methods: ReadonlySet<string>): boolean {
  if (n.type !== 'CallExpression' || n.callee.type !== 'MemberExpression') return false
  const name = propName(n.callee.property, n.callee.computed)
  return name !== null && methods.has(name)
}

/** The expressions a function returns (its arrow body, or its `return`s, not nested ones'). */
function returned(fn: AnyNode): { values: AnyNode[]; locals: Map<string, AnyNode> } {
  const values: AnyNode[] = []
  const locals = new Map<string, AnyNode>()
  if (fn.type !== 'ArrowFunctionExpression' && fn.type !== 'FunctionExpression')
    return { values, locals }
  if (fn.body.type !== 'BlockStatement') return { values: [fn.body], locals }
  const go = (n: AnyNode) => {
    if (n.type === 'ReturnStatement' && n.argument) values.push(n.argument)
    if (n.type === 'VariableDeclarator' && n.id.type === 'Identifier' && n.init)
      locals.set(n.id.name, n.init)
    for (const c of children(n)) if (!FUNCTIONS.has(c.type)) go(c)
  }
  go(fn.body)
  return { values, locals }
}

/** Keys of the updates a returned value may hold. */
function updateKeys(v: AnyNode, locals: Map<string, AnyNode>, out: Set<string>, depth = 0): void {
  if (depth > 8) return
  const more = (x: AnyNode | null | undefined) => x && updateKeys(x, locals, out, depth + 1)
  switch (v.type) {
    case 'ObjectExpression':
      for (const p of v.properties) {
        const name = p.type === 'Property' ? propName(p.key, p.computed) : null
        if (name !== null) out.add(name)
      }
      return
    case 'ConditionalExpression':
      return void (more(v.consequent), more(v.alternate))
    case 'LogicalExpression':
      return void (more(v.left), more(v.right))
    case 'SequenceExpression':
      return void more(v.expressions.at(-1))
    case 'AwaitExpression':
      return void more(v.argument)
    case 'ArrayExpression':
      for (const e of v.elements) if (e && e.type !== 'SpreadElement') more(e)
      return
    case 'Identifier':
      return void more(locals.get(v.name))
    default:
      if (calls(v, 'Command', true)) more(prop(v.arguments[0], 'update'))
  }
}

/** Whether a `goto` value may name several nodes. */
function isListValue(v: AnyNode | undefined): boolean {
  if (!v) return false
  if (v.type === 'ArrayExpression')
    return v.elements.length > 1 || v.elements.some((e) => e?.type === 'SpreadElement')
  if (v.type === 'ConditionalExpression')
    return isListValue(v.consequent) || isListValue(v.alternate)
  return isMethodCall(v, LIST_METHODS)
}

/** The node a `Send` starts, when named by a literal. */
function sendTarget(n: AnyNode): string | null {
  if (!calls(n, 'Send', true)) return null
  const first = n.arguments[0]
  return first?.type === 'Literal' && typeof first.value === 'string' ? first.value : null
}

/**
 * Reads the facts of one piece of code; code that does not parse has none. Remembered per
 * code (the document is checked on every edit): the facts are read-only.
 */
export const readCode: StringMemo<CodeFacts> = memoByString(readFacts, 4000)

/**
 * Keeps the parse and the facts of at least `n` more pieces of code: a document's count, so
 * that one with more code than the memos hold (5,000 nodes, each its own code) is not parsed
 * again whole on every edit.
 */
export function reserveCode(n: number): void {
  parseExpression.reserve(n)
  readCode.reserve(n)
}

function readFacts(code: string): CodeFacts {
  const facts: CodeFacts = {
    writes: new Set(),
    sends: new Map(),
    strings: new Set(),
    mayReturnList: false,
    gotoMayBeList: false,
    usesInterrupt: false,
  }
  const root = parseCode(code)
  if (!root) return facts
  const { values, locals } = returned(root)
  for (const v of values) updateKeys(v, locals, facts.writes)
  walk(root, (n, parents) => {
    if (n.type === 'Literal' && typeof n.value === 'string') facts.strings.add(n.value)
    if (n.type === 'Identifier' && n.name === 'END') facts.strings.add(END)
    if (n.type === 'TemplateLiteral' && n.expressions.length === 0) {
      const text = n.quasis[0]?.value.cooked
      if (typeof text === 'string') facts.strings.add(text)
    }
    if (n.type === 'ArrayExpression' || isMethodCall(n, LIST_METHODS)) facts.mayReturnList = true
    if (calls(n, 'interrupt')) facts.usesInterrupt = true
    if (calls(n, 'Command', true) && isListValue(prop(n.arguments[0], 'goto')))
      facts.gotoMayBeList = true
    const target = sendTarget(n)
    if (target !== null) {
      const many = parents.some((p) => LOOPS.has(p.type) || isMethodCall(p, MANY_METHODS))
      if (many) facts.sends.set(target, 'many')
      else if (!facts.sends.has(target)) facts.sends.set(target, 'once')
    }
    // `[new Send('w', a), new Send('w', b)]` starts `w` twice in one step.
    if (n.type === 'ArrayExpression') {
      const listed = n.elements.map((e) => e && sendTarget(e))
      for (const t of listed) {
        if (t && listed.indexOf(t) !== listed.lastIndexOf(t)) facts.sends.set(t, 'many')
      }
    }
  })
  return facts
}

/**
 * Whether node code calls `interrupt(…)` (LangGraph's human-in-the-loop pause). Parsed,
 * so the word in a comment or a string does not count; code that does not parse: false.
 */
export function usesInterrupt(code: string): boolean {
  return readCode(code).usesInterrupt
}
