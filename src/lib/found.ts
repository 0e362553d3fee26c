/** What a validation problem found: the value at the problem's path, shown on one line. */

/** The value at `path` in `doc` (a zod issue's path), or undefined when there is none. */
export function valueAt(doc: unknown, path: readonly PropertyKey[]): unknown {
  let v = doc
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined
    v = (v as Record<PropertyKey, unknown>)[key]
  }
  return v
}

/** A found value, short enough for one line of an error: JSON, cut at 60 characters. */
export function shown(v: unknown): string {
  if (v === undefined) return 'nothing'
  const text = JSON.stringify(v) ?? String(v)
  return text.length > 60 ? `${text.slice(0, 57)}…` : text
}

/**
 * ` (found …)` for a zod issue about `doc`; empty for a custom issue, whose message already
 * says what it found.
 */
export function foundNote(doc: unknown, issue: { code: string; path: PropertyKey[] }): string {
  return issue.code === 'custom' ? '' : ` (found ${shown(valueAt(doc, issue.path))})`
}
