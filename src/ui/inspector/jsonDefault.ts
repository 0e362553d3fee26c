/** The outcome of reading a field's default as typed: a JSON value, no default, or an error. */
export type DefaultParse =
  { ok: true; value: unknown; empty: boolean } | { ok: false; error: string }

/**
 * Reads the text of a default input. Blank text means "no default" (`value: undefined`);
 * anything else must be one JSON value, else the error says why (the parser's message).
 */
export function parseDefaultText(text: string): DefaultParse {
  if (text.trim() === '') return { ok: true, value: undefined, empty: true }
  try {
    return { ok: true, value: JSON.parse(text) as unknown, empty: false }
  } catch (e) {
    return { ok: false, error: `Invalid JSON: ${(e as Error).message}` }
  }
}

/** The text a default is shown as: compact JSON, or blank for no default. */
export function formatDefault(value: unknown): string {
  return value === undefined ? '' : JSON.stringify(value)
}
