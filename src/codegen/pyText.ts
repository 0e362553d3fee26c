/**
 * Python source text for values from a graph document: numbers, JSON values as Python
 * literals, calls and displays. Strings and comments go through text.ts (`pyString`,
 * `pyComment`, `pyProse`, `pyCommentText`), so no name, key or description can end a string
 * or a comment early.
 */
import { pyString } from './text'

/**
 * A JavaScript number as a Python literal of the same value: an `int` for safe integers,
 * else a `float` (JavaScript's shortest round-trip digits, which Python reads back exactly).
 */
export function pyNumber(n: number): string {
  if (Number.isNaN(n)) return 'float("nan")'
  if (!Number.isFinite(n)) return n > 0 ? 'float("inf")' : 'float("-inf")'
  if (Object.is(n, -0)) return '-0.0'
  if (Number.isSafeInteger(n)) return String(n)
  const text = String(n)
  return /[.e]/.test(text) ? text : `${text}.0`
}

/** A JSON value (as JavaScript holds it) as a Python literal: dicts keep the key order. */
export function pyValue(v: unknown): string {
  if (v === null || v === undefined) return 'None'
  if (typeof v === 'boolean') return v ? 'True' : 'False'
  if (typeof v === 'number') return pyNumber(v)
  if (typeof v === 'string') return pyString(v)
  if (Array.isArray(v)) return `[${v.map(pyValue).join(', ')}]`
  if (typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>)
    return `{${entries.map(([k, x]) => `${pyString(k)}: ${pyValue(x)}`).join(', ')}}`
  }
  throw new TypeError(`Not a JSON value: ${typeof v}`)
}

/**
 * A call, on one line when it fits in `width`, else one argument per line with a trailing
 * comma (as black writes it).
 */
export function pyCall(callee: string, args: string[], indent = '', width = 99): string {
  const flat = `${indent}${callee}(${args.join(', ')})`
  if (flat.length <= width && !args.some((a) => a.includes('\n'))) return flat
  const inner = args.map((a) => `${indent}    ${a.replace(/\n/g, `\n${indent}    `)},`)
  return [`${indent}${callee}(`, ...inner, `${indent})`].join('\n')
}

/** A list, tuple or dict display, flat when it fits, else one item per line. */
export function pyDisplay(
  open: string,
  items: string[],
  close: string,
  indent = '',
  width = 88,
): string {
  const flat = `${open}${items.join(', ')}${close}`
  if (indent.length + flat.length <= width || items.length === 0) return flat
  return [open, ...items.map((i) => `${indent}    ${i},`), `${indent}${close}`].join('\n')
}
