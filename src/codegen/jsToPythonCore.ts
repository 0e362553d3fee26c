/**
 * The vocabulary of the JavaScript-to-Python expression translator: a translated expression
 * (Python text, precedence, the kinds of its value), Python's precedence levels, what names
 * refer to, and how a translation gives up (`refuse`).
 */
import type { AnyNode, Expression } from 'acorn'
import type { JsHelper } from './pyPrelude'
import { pyString } from './text'

/** A translated expression: Python text, its precedence, the kinds of its value. */
export interface PyExpr {
  py: string
  prec: number
  kinds: number
  /** No effects and cheap: safe to evaluate twice (for `??`). */
  pure: boolean
  /**
   * A string holding a lone surrogate: joined to another, JavaScript may pair the two
   * halves into one character where Python keeps two, so it is never joined.
   */
  lone?: boolean
  /**
   * The same read with a missing key as `_MISSING` instead of None, for where undefined and
   * null differ (`String()`): set on reads of a key that may be missing.
   */
  missingPy?: string
  /** A read of an `add_messages` field: its items are LangChain message objects in Python. */
  messages?: boolean
}

/** Python's precedence levels, loosest first (the ones the translator writes). */
export const PREC = {
  ternary: 1,
  or: 2,
  and: 3,
  not: 4,
  compare: 5,
  bitOr: 6,
  add: 10,
  mul: 11,
  unary: 12,
  atom: 15,
} as const

/** Why some JavaScript is not translated; the translation of the whole function gives up. */
export class Untranslatable extends Error {
  override name = 'Untranslatable'
}

export function refuse(reason: string): never {
  throw new Untranslatable(reason)
}

/** What a name in the JavaScript code refers to. */
export type Binding =
  | { kind: 'state' }
  /** The run's config (a node's or router's second parameter): only `config.configurable` is read. */
  | { kind: 'config' }
  | { kind: 'local'; py: string; kinds: number; lone?: boolean; messages?: boolean }
  /** Declared later in its block: using it throws in JavaScript (temporal dead zone). */
  | { kind: 'tdz' }

/** LangGraph names the translated code may need imported. */
export type PyImport =
  'Send' | 'Command' | 'interrupt' | 'END' | 'START' | 'RemoveMessage' | 'sleep' | 'reduce'

export interface ExprContext {
  lookup(name: string): Binding | undefined
  /** Reads field `name` of the state: its Python expression and kinds (or refuses). */
  readField(name: string): { py: string; kinds: number; missingPy?: string; messages?: boolean }
  /** Whether the state parameter is surely a dict (not the argument of some Send). */
  stateIsDict: boolean
  use(name: PyImport): void
  /** Records that the code calls a prelude helper, and returns its name. */
  helper(name: JsHelper): string
  /** What a guard's TypeError names: `node write`, `router of inc`. */
  where: string
  /** The Python name of each compiled subgraph node code may call, by the name it calls. */
  subgraphs?: ReadonlyMap<string, string>
  /** Translates `new Command({ … })` (it needs the state schema). */
  command(node: Expression & { type: 'NewExpression' }): PyExpr
  /** Translates a sub-expression (`translateExpr` with this context). */
  translate(node: AnyNode): PyExpr
  /**
   * A context where the JavaScript names `params` are locals of the given kinds (a callback's
   * parameters), with the fresh Python names they take.
   */
  withParams(params: { name: string; kinds: number }[]): { ctx: ExprContext; py: string[] }
}

/**
 * Properties every JavaScript object inherits: `state.toString` is a function and
 * `'constructor' in state` is true in JavaScript, while the Python dict has no such key.
 */
export const INHERITED = new Set([
  'constructor',
  'hasOwnProperty',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
  'toString',
  'valueOf',
  '__proto__',
  '__defineGetter__',
  '__defineSetter__',
  '__lookupGetter__',
  '__lookupSetter__',
])

/**
 * `helper(e, where)`: a guard from the prelude that returns `e` unchanged where JavaScript and
 * Python agree on it and raises a TypeError otherwise; its value has the kinds `kinds`.
 */
export function guard(ctx: ExprContext, name: JsHelper, e: PyExpr, kinds: number): PyExpr {
  return atom(
    `${ctx.helper(name)}(${wrap(e, PREC.ternary)}, ${pyString(ctx.where)})`,
    kinds,
    e.pure,
  )
}

/** `e`'s text, parenthesised unless its precedence is at least `min`. */
export function wrap(e: PyExpr, min: number): string {
  return e.prec >= min ? e.py : `(${e.py})`
}

export function atom(py: string, kinds: number, pure = true): PyExpr {
  return { py, prec: PREC.atom, kinds, pure }
}

/** Whether `node` names the JavaScript global `name`, not shadowed by the code's own names. */
export function isGlobal(node: AnyNode, name: string, ctx: ExprContext): boolean {
  return node.type === 'Identifier' && node.name === name && !ctx.lookup(name)
}

/** The name of a property key: `x`, `'x'`, `['x']`, `1`; null when computed from a value. */
export function staticKey(key: AnyNode, computed: boolean): string | null {
  if (key.type === 'Identifier' && !computed) return key.name
  if (key.type === 'Literal' && typeof key.value === 'string') return key.value
  if (key.type === 'Literal' && typeof key.value === 'number' && Number.isSafeInteger(key.value))
    return String(key.value)
  return null
}
