/**
 * Python source text for values from a graph document: string literals, JSON values as
 * Python literals, comments, calls. Everything the Python emitter writes from user data goes
 * through here, so no name, key or description can end a string or a comment early.
 */

/** Characters a Python string literal shows as an escape rather than raw. */
const UNPRINTABLE = /^[\p{Cc}\p{Cf}\p{Co}\p{Zl}\p{Zp}\p{Zs}\p{Cs}]$/u

const SIMPLE_ESCAPES: Record<string, string> = {
  '\\': '\\\\',
  '"': '\\"',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
}

function hex(cp: number, width: number): string {
  return cp.toString(16).padStart(width, '0')
}

/** One code point (or lone surrogate) as a Python escape sequence. */
function escapeCodePoint(cp: number): string {
  if (cp < 0x100) return `\\x${hex(cp, 2)}`
  if (cp < 0x10000) return `\\u${hex(cp, 4)}`
  return `\\U${hex(cp, 8)}`
}

/**
 * A JavaScript string as a double-quoted Python `str` literal holding the same code points:
 * quotes, backslashes and line breaks escaped, controls, format characters, unusual spaces and
 * lone surrogates written as `\x`/`\u`/`\U` escapes (a lone surrogate is a valid Python `str`
 * element, and the escape keeps the source file valid UTF-8), printable non-ASCII kept as is.
 * A surrogate pair becomes its one code point, as Python counts characters.
 */
export function pyString(s: string): string {
  let out = '"'
  for (const ch of s) {
    const simple = SIMPLE_ESCAPES[ch]
    if (simple !== undefined) out += simple
    else if (ch !== ' ' && UNPRINTABLE.test(ch)) out += escapeCodePoint(ch.codePointAt(0) ?? 0)
    else out += ch
  }
  return `${out}"`
}

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

/** Line terminators of JavaScript (Python's own are among them). */
const LINE_BREAK = /\r\n|[\n\r\u2028\u2029]/

/** What a comment shows escaped: controls (not tab), format characters, lone surrogates. */
const COMMENT_UNSAFE = /[\p{Cc}\p{Cf}\p{Cs}]/gu

function commentSafe(line: string): string {
  return line
    .replace(COMMENT_UNSAFE, (ch) => (ch === '\t' ? ch : escapeCodePoint(ch.codePointAt(0) ?? 0)))
    .trimEnd()
}

/**
 * Free text as Python comment lines (`# …`): one per line of the text, split at every line
 * terminator; controls, format characters (bidi overrides included) and lone surrogates
 * shown as `\uXXXX`, so the file stays valid UTF-8 without NUL bytes; trailing spaces cut.
 */
export function pyComment(text: string, indent = ''): string[] {
  return text.split(LINE_BREAK).map((line) => {
    const safe = commentSafe(line)
    return safe === '' ? `${indent}#` : `${indent}# ${safe}`
  })
}

/**
 * Free text as comment lines like `pyComment`, long lines broken at spaces so none passes
 * `width` (a word longer than the width stays whole).
 */
export function pyProse(text: string, indent = '', width = 92): string[] {
  const lead = `${indent}#`
  return pyComment(text, indent).flatMap((line) => {
    const out: string[] = []
    let current = lead
    for (const word of line.slice(lead.length + 1).split(' ')) {
      if (current !== lead && current.length + 1 + word.length > width) {
        out.push(current)
        current = lead
      }
      current = `${current} ${word}`
    }
    out.push(current === `${lead} ` ? lead : current)
    return out
  })
}

/** Text safe inside one comment line: line breaks become spaces, the rest as `pyComment`. */
export function oneLine(text: string): string {
  return commentSafe(text.split(LINE_BREAK).join(' ')).trim()
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
