/**
 * JavaScript source text for document data: property keys and JSON values, each an exact,
 * equivalent literal whatever the characters it holds (strings through `jsString`, text.ts).
 */
import { jsString } from './text'

const IDENTIFIER_NAME = /^[A-Za-z_$][A-Za-z0-9_$]*$/

/**
 * A property key for an object literal: bare when it is an identifier name, quoted
 * otherwise, and computed for `__proto__` (a plain `__proto__:` sets the prototype).
 */
export function jsKey(key: string): string {
  if (key === '__proto__') return `[${jsString(key)}]`
  return IDENTIFIER_NAME.test(key) ? key : jsString(key)
}

/** A literal for a JSON value; short values stay on one line, long ones are indented. */
export function jsLiteral(value: unknown, indent = ''): string {
  const flat = flatLiteral(value)
  if (flat.length + indent.length <= 80 || !isContainer(value)) return flat
  const inner = `${indent}  `
  if (Array.isArray(value)) {
    return `[\n${value.map((v) => `${inner}${jsLiteral(v, inner)},\n`).join('')}${indent}]`
  }
  const entries = Object.entries(value as Record<string, unknown>)
  const lines = entries.map(([k, v]) => `${inner}${jsKey(k)}: ${jsLiteral(v, inner)},\n`)
  return `{\n${lines.join('')}${indent}}`
}

function isContainer(value: unknown): boolean {
  return typeof value === 'object' && value !== null
}

function flatLiteral(value: unknown): string {
  if (value === null || value === undefined) return String(value)
  if (typeof value === 'string') return jsString(value)
  if (typeof value === 'number') return numberLiteral(value)
  if (typeof value === 'boolean') return String(value)
  if (Array.isArray(value)) return `[${value.map(flatLiteral).join(', ')}]`
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
    if (entries.length === 0) return '{}'
    return `{ ${entries.map(([k, v]) => `${jsKey(k)}: ${flatLiteral(v)}`).join(', ')} }`
  }
  throw new TypeError(`not a JSON value: ${typeof value}`)
}

function numberLiteral(n: number): string {
  if (Object.is(n, -0)) return '-0'
  if (Number.isNaN(n)) return 'NaN'
  if (!Number.isFinite(n)) return n > 0 ? 'Infinity' : '-Infinity'
  return String(n)
}
