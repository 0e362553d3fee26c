/**
 * The one place where text from a graph document (its name and description, node ids, field
 * names and descriptions, tool names and descriptions, model settings, route keys) becomes
 * part of generated source. Per target language, one function per place the text can go:
 *
 * - TypeScript/JavaScript: `jsString` (a string literal), `jsLineComment` (`//` lines),
 *   `jsBlockCommentLines` and `jsDocComment` (a `/** … *\/` block);
 * - Python: `pyString` (a string literal), `pyComment` and `pyProse` (`#` lines),
 *   `pyCommentText` (text inside one `#` line);
 * - Markdown: `markdownLine`; TOML: `tomlString`. JSON files use `JSON.stringify`.
 *
 * Each is safe against every character that ends or breaks a line in any of these languages
 * or in an editor: LF, CR, CRLF, U+2028, U+2029 (JavaScript's line terminators), NEL
 * (U+0085), VT, FF and FS/GS/RS (where Python's `str.splitlines` breaks). A string literal
 * escapes them; comment text is split at them, and shows controls, format characters (bidi
 * overrides) and lone surrogates as escapes, so the file reads as written, stays valid UTF-8,
 * and no comment ends before its text does. A block comment's text cannot hold `*\/`.
 */

/** Every line break of any target language or editor; CRLF counts once. */
// eslint-disable-next-line no-control-regex -- matching controls is the point
const LINE_BREAK = /\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/

/** What comment text shows as an escape: controls but tab, format characters, lone surrogates. */
const COMMENT_UNSAFE = /(?!\t)[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu

/**
 * What a string literal shows as an escape rather than raw: controls, format characters,
 * private use, separators and spaces but the plain space, lone surrogates.
 */
const UNPRINTABLE = /^[\p{Cc}\p{Cf}\p{Co}\p{Zl}\p{Zp}\p{Zs}\p{Cs}]$/u

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g

function hex(cp: number, width: number): string {
  return cp.toString(16).padStart(width, '0')
}

/** One code point (or lone surrogate) as a JavaScript escape: `\uXXXX` or `\u{XXXXX}`. */
function jsEscape(cp: number): string {
  return cp < 0x10000 ? `\\u${hex(cp, 4)}` : `\\u{${hex(cp, 5)}}`
}

/** One code point (or lone surrogate) as a Python escape: `\xXX`, `\uXXXX` or `\UXXXXXXXX`. */
function pyEscape(cp: number): string {
  if (cp < 0x100) return `\\x${hex(cp, 2)}`
  if (cp < 0x10000) return `\\u${hex(cp, 4)}`
  return `\\U${hex(cp, 8)}`
}

/** `s` as a literal body: `simple` escapes first, unprintable characters by `escape`. */
function literalBody(
  s: string,
  simple: Readonly<Record<string, string>>,
  escape: (cp: number) => string,
): string {
  let out = ''
  for (const ch of s) {
    const known = simple[ch]
    if (known !== undefined) out += known
    else if (ch !== ' ' && UNPRINTABLE.test(ch)) out += escape(ch.codePointAt(0) ?? 0)
    else out += ch
  }
  return out
}

/** Free text as comment lines: split at every line break, unsafe characters escaped. */
function commentLines(text: string, escape: (cp: number) => string): string[] {
  return text
    .split(LINE_BREAK)
    .map((line) => line.replace(COMMENT_UNSAFE, (ch) => escape(ch.codePointAt(0) ?? 0)).trimEnd())
}

/**
 * `text` with every lone surrogate (which UTF-8 cannot hold, so a file would get U+FFFD)
 * written as the escape `\uXXXX`. Inside a JavaScript or Python string literal that escape
 * means the same code unit; in a comment it is text. For code written verbatim.
 */
export function escapeLoneSurrogates(text: string): string {
  return text.replace(LONE_SURROGATE, (ch) => jsEscape(ch.charCodeAt(0)))
}

/**
 * A line broken at spaces so that no piece is longer than `width` (a word longer than
 * that stays whole). Only spaces are touched, so the words read as written.
 */
export function wrapLine(line: string, width: number): string[] {
  if (line.length <= width) return [line]
  const indent = /^ */.exec(line)?.[0] ?? ''
  const out: string[] = []
  let current = ''
  for (const word of line.slice(indent.length).split(/ +/)) {
    const next = current === '' ? indent + word : `${current} ${word}`
    if (next.length > width && current !== '') {
      out.push(current)
      current = indent + word
    } else current = next
  }
  out.push(current)
  return out
}

// --- TypeScript / JavaScript -------------------------------------------------------------

const JS_SIMPLE: Readonly<Record<string, string>> = {
  '\\': '\\\\',
  "'": "\\'",
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\b': '\\b',
  '\f': '\\f',
}

/**
 * A single-quoted JavaScript/TypeScript string literal equal to `s`: the quote and backslash
 * escaped, and every line break, control, format character, unusual space and lone surrogate
 * written as an escape, so the literal is one line of printable text whatever `s` holds.
 */
export function jsString(s: string): string {
  return `'${literalBody(s, JS_SIMPLE, jsEscape)}'`
}

/** Free text as `//` comment lines at `indent`, wrapped at 90 columns. */
export function jsLineComment(text: string, indent = ''): string {
  return commentLines(text, jsEscape)
    .flatMap((line) => wrapLine(line, 87 - indent.length))
    .map((line) => (line === '' ? `${indent}//` : `${indent}// ${line}`))
    .join('\n')
}

/** `*\/` written `*\\/`, so a line cannot close the block comment it is in. */
function breakBlockEnd(line: string): string {
  return line.replace(/\*\//g, '*\\/')
}

/** Free text as the lines of a `/** … *\/` block, wrapped at 90 columns, `*\/` broken. */
export function jsBlockCommentLines(text: string): string[] {
  return commentLines(text, jsEscape)
    .flatMap((line) => wrapLine(line, 87))
    .map(breakBlockEnd)
}

/** Lines (already wrapped) as a `/** … *\/` block, each made safe as `jsBlockCommentLines`. */
export function jsDocComment(lines: string[]): string {
  const safe = lines.flatMap((l) => commentLines(l, jsEscape)).map(breakBlockEnd)
  return ['/**', ...safe.map((l) => (l === '' ? ' *' : ` * ${l}`)), ' */'].join('\n')
}

// --- Python ------------------------------------------------------------------------------

const PY_SIMPLE: Readonly<Record<string, string>> = {
  '\\': '\\\\',
  '"': '\\"',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
}

/**
 * A JavaScript string as a double-quoted Python `str` literal holding the same code points:
 * quotes, backslashes and line breaks escaped, controls, format characters, unusual spaces and
 * lone surrogates written as `\x`/`\u`/`\U` escapes (a lone surrogate is a valid Python `str`
 * element, and the escape keeps the source file valid UTF-8), printable non-ASCII kept as is.
 * A surrogate pair becomes its one code point, as Python counts characters.
 */
export function pyString(s: string): string {
  return `"${literalBody(s, PY_SIMPLE, pyEscape)}"`
}

/**
 * Free text as Python comment lines (`# …`): one per line of the text, split at every line
 * break; controls, format characters (bidi overrides included) and lone surrogates shown as
 * escapes, so the file stays valid UTF-8 without NUL bytes; trailing spaces cut.
 */
export function pyComment(text: string, indent = ''): string[] {
  return commentLines(text, pyEscape).map((line) =>
    line === '' ? `${indent}#` : `${indent}# ${line}`,
  )
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

/** Text safe inside one Python comment line: line breaks become spaces, the rest as `pyComment`. */
export function pyCommentText(text: string): string {
  return commentLines(text, pyEscape).join(' ').trim()
}

// --- Markdown and TOML -------------------------------------------------------------------

const HTML_ENTITY: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' }

/**
 * Free text as one line of Markdown (a heading, say): line breaks become spaces, unsafe
 * characters escaped as in comments, and `&`, `<`, `>` as entities so no HTML is made.
 */
export function markdownLine(text: string): string {
  return commentLines(text, jsEscape)
    .join(' ')
    .trim()
    .replace(/[&<>]/g, (ch) => HTML_ENTITY[ch] ?? ch)
}

const TOML_SIMPLE: Readonly<Record<string, string>> = {
  '\\': '\\\\',
  '"': '\\"',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\b': '\\b',
  '\f': '\\f',
}

/**
 * A TOML basic string equal to `s`, escaped as `pyString` does with TOML's `\uXXXX` and
 * `\UXXXXXXXX`; a lone surrogate, which TOML cannot hold, becomes U+FFFD.
 */
export function tomlString(s: string): string {
  const escape = (cp: number) =>
    cp >= 0xd800 && cp <= 0xdfff
      ? '\\ufffd'
      : cp < 0x10000
        ? `\\u${hex(cp, 4)}`
        : `\\U${hex(cp, 8)}`
  return `"${literalBody(s, TOML_SIMPLE, escape)}"`
}
