/**
 * The "shadow" text the TypeScript worker sees for a piece of code. Node, router and reducer
 * code is a bare expression such as `(state) => state.count`, so nothing gives `state` a
 * type. The editor therefore keeps, beside the visible model, a hidden model holding
 * `/** @type {NodeFn} *\/ (` + code + `\n)`: the JSDoc cast types the function, so completion
 * after `state.` lists the fields, and the parentheses make the syntax check the same as the
 * validator's (one expression; `function (s) {}` is fine). Offsets differ by a constant.
 */
export interface ShadowText {
  text: string
  /** Length of the prefix before the code: a visible offset plus this is the shadow offset. */
  prefixLength: number
}

/** The shadow text of `code` checked against `contextType` (e.g. `NodeFn`). */
export function wrapCode(code: string, contextType: string): ShadowText {
  const prefix = `/** @type {${contextType}} */ (`
  // The newline keeps a trailing line comment from swallowing the closing parenthesis.
  return { text: `${prefix}${code}\n)`, prefixLength: prefix.length }
}

/** A span of the shadow text mapped into the code, clamped to it: `[start, end)` offsets. */
export function toCodeSpan(
  shadowStart: number,
  length: number,
  prefixLength: number,
  codeLength: number,
): { start: number; end: number } {
  const clamp = (n: number) => Math.min(Math.max(n, 0), codeLength)
  const start = clamp(shadowStart - prefixLength)
  return { start, end: Math.max(start, clamp(shadowStart - prefixLength + length)) }
}

/** TypeScript's completion entry, the fields the editor uses. */
export interface TsCompletionEntry {
  name: string
  kind: string
  sortText: string
  kindModifiers?: string
  insertText?: string
  replacementSpan?: { start: number; length: number }
}

/**
 * Drops entries that are not real symbols: in JavaScript files TypeScript also offers every
 * identifier of the file (kind `warning`), which would include the wrapper's `NodeFn`.
 */
export function symbolEntries(entries: readonly TsCompletionEntry[]): TsCompletionEntry[] {
  return entries.filter((e) => e.kind !== 'warning')
}

/** A TypeScript diagnostic message (a string or a chain) as one string. */
export function flattenMessage(
  message: string | { messageText: string; next?: unknown[] },
): string {
  if (typeof message === 'string') return message
  const next = (message.next ?? []) as { messageText: string; next?: unknown[] }[]
  return [message.messageText, ...next.map(flattenMessage)].join('\n')
}
