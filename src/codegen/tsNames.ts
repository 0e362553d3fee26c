/**
 * Identifiers for the TypeScript emitter: a safe, readable, unique name for every node,
 * router and reducer, that never shadows a global and never captures a name the
 * document's own code refers to.
 */
import { parse, type AnyNode } from 'acorn'
import { freeNames } from './freeNames'

/** Reserved words of strict-mode modules, and names that cannot or should not be bound. */
const RESERVED = new Set(
  [
    'await break case catch class const continue debugger default delete do else enum export',
    'extends false finally for function if implements import in instanceof interface let new',
    'null package private protected public return static super switch this throw true try',
    'typeof var void while with yield arguments eval undefined NaN Infinity globalThis',
    // TypeScript reserves these at the top level of a module (`require`, `exports`) or for
    // async functions (`Promise`); type names that are keywords in type position.
    'require exports module any unknown never object string number boolean symbol bigint',
  ]
    .join(' ')
    .split(' '),
)

/**
 * Globals the emitted module or common node code may use: a module-level binding with one
 * of these names would change what that code means, so no emitted name takes one.
 */
const GLOBALS = new Set(
  [
    'Object Function Array Number Boolean String Symbol BigInt Date RegExp Error AggregateError',
    'EvalError RangeError ReferenceError SyntaxError TypeError URIError Promise Proxy Reflect',
    'JSON Math Intl Atomics Map Set WeakMap WeakSet WeakRef FinalizationRegistry ArrayBuffer',
    'SharedArrayBuffer DataView Int8Array Uint8Array Uint8ClampedArray Int16Array Uint16Array',
    'Int32Array Uint32Array Float32Array Float64Array BigInt64Array BigUint64Array Iterator',
    'parseInt parseFloat isNaN isFinite encodeURI encodeURIComponent decodeURI',
    'decodeURIComponent escape unescape console process Buffer structuredClone setTimeout',
    'clearTimeout setInterval clearInterval setImmediate queueMicrotask crypto performance',
    'fetch URL URLSearchParams TextEncoder TextDecoder AbortController AbortSignal Headers',
    'Request Response Blob window self document navigator global',
    // The names document code has in scope (Superstep and LangGraph give it these).
    'Send Command interrupt START END',
  ]
    .join(' ')
    .split(' '),
)

/** A JavaScript identifier (ASCII) that reads like `raw`: `my node!` → `my_node`. */
export function toIdentifier(raw: string, fallback: string): string {
  const words = raw
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '') // accents go, their letters stay: résumé → resume
    .split(/[^A-Za-z0-9_$]+/)
    .filter((w) => w !== '')
  const name = words.length === 0 ? fallback : words.join('_')
  return /^[0-9]/.test(name) ? `_${name}` : name
}

/** `inc` → `Inc`, for names made of a prefix and a node or field name. */
export function upperFirst(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1)
}

/** Hands out unique module-level names, first come first served. */
export class Namer {
  private readonly taken: Set<string>

  /** `avoid`: names that must stay free (identifiers the document's code mentions). */
  constructor(avoid: Iterable<string>) {
    this.taken = new Set(avoid)
  }

  /** `preferred` if free and allowed, else `preferred_2`, `preferred_3`, … */
  claim(preferred: string): string {
    const ok = (n: string) => !this.taken.has(n) && !RESERVED.has(n) && !GLOBALS.has(n)
    let name = preferred
    for (let i = 2; !ok(name); i++) name = `${preferred}_${i}`
    this.taken.add(name)
    return name
  }
}

/** What the emitter needs to know about one piece of document code. */
export interface CodeNames {
  /** The free variables of the code: globals, `Send`, … (what it refers to but does not bind). */
  names: Set<string>
  /** The code is a comma expression (`a, b`): it must be parenthesized to stay one value. */
  sequence: boolean
  /**
   * A function inside the code has parameters (a callback, say): TypeScript may find no
   * type for them, which `strict` (noImplicitAny) reports.
   */
  innerParams: boolean
}

/**
 * Reads node, router or reducer code (an expression, as the format says). Code that does
 * not parse (it cannot in a valid document) counts every word in it as a name.
 */
export function readCodeNames(code: string): CodeNames {
  let program: AnyNode
  try {
    program = parse(`(${code}\n)`, { ecmaVersion: 'latest', sourceType: 'script' })
  } catch {
    const words = code.match(/[\p{ID_Start}$_][\p{ID_Continue}$\u200c\u200d]*/gu) ?? []
    return { names: new Set(words), sequence: false, innerParams: false }
  }
  const [first] = program.type === 'Program' ? program.body : []
  const top = first?.type === 'ExpressionStatement' ? first.expression : null
  let innerParams = false
  visit(program, (n) => {
    if (FUNCTIONS.has(n.type) && n !== top && 'params' in n && n.params.length > 0) {
      innerParams = true
    }
  })
  return { names: freeNames(program), sequence: top?.type === 'SequenceExpression', innerParams }
}

const FUNCTIONS = new Set(['ArrowFunctionExpression', 'FunctionExpression', 'FunctionDeclaration'])

function visit(n: AnyNode, fn: (n: AnyNode) => void): void {
  fn(n)
  for (const value of Object.values(n)) {
    if (Array.isArray(value)) {
      for (const child of value) if (isAstNode(child)) visit(child, fn)
    } else if (isAstNode(value)) visit(value, fn)
  }
}

function isAstNode(v: unknown): v is AnyNode {
  return typeof v === 'object' && v !== null && typeof (v as { type?: unknown }).type === 'string'
}
