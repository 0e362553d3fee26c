/**
 * Text helpers shared by the emitters: turning free text from a document (graph names,
 * descriptions) into lines that are safe inside a comment of any language. Nothing here is
 * specific to one target language's string syntax.
 */

/**
 * Every JavaScript line terminator (LF, CR, CRLF, U+2028, U+2029): a superset of Python's,
 * so a comment line split at these cannot end early in either language.
 */
const LINE_BREAK = /\r\n|[\n\r\u2028\u2029]/

/** C0 and C1 controls but tab (line terminators are split on before), and DEL. */
// eslint-disable-next-line no-control-regex -- matching controls is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g

/**
 * `text` with every lone surrogate (which UTF-8 cannot hold, so a file would get U+FFFD)
 * written as the escape `\uXXXX`. Inside a JavaScript or Python string literal that escape
 * means the same code unit; in a comment it is text. Everything else is left as it is.
 */
export function escapeLoneSurrogates(text: string): string {
  return text.replace(LONE_SURROGATE, escapeUnit)
}

/** `\uXXXX` for one UTF-16 code unit. */
function escapeUnit(ch: string): string {
  return `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`
}

/**
 * Free text as comment lines: split at every line terminator (LF, CR, CRLF, U+2028,
 * U+2029, so no line can end a `//` or `#` comment early), controls and lone surrogates
 * written as `\uXXXX`, trailing whitespace removed. Comment delimiters such as `*\/` are left to
 * the caller, who knows which comment syntax it writes.
 */
export function commentLines(text: string): string[] {
  return text
    .split(LINE_BREAK)
    .map((line) => escapeLoneSurrogates(line.replace(CONTROL, escapeUnit)).trimEnd())
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
