/** `U+202E` for a character (its first code point), as Unicode writes it. */
export function codePointLabel(ch: string): string {
  return `U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`
}

/** `text` for a test name or a message: printable characters as they are, the rest as `U+XXXX`. */
export function printableLabel(text: string): string {
  return [...text]
    .map((ch) => (/[\p{L}\p{N}\p{P}\p{S}]/u.test(ch) ? ch : codePointLabel(ch)))
    .join(' ')
}
