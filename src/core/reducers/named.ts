/**
 * The named reducers of the graph format (all but `add_messages`, which lives in
 * `addMessages.ts`). Each is a plain `(current, update) => next` over JSON-like data,
 * the same function the exported LangGraph code uses, so the two runtimes fold alike.
 */
export type Reducer = (current: unknown, update: unknown) => unknown

/**
 * The named reducers, made by one self-contained function (no outer references): the code
 * sandbox embeds its source to fold a node's writes for its routers as the runtime does.
 */
export function namedReducers() {
  /** `append`: list concatenation; a non-list on either side counts as a one-item list. */
  const append: Reducer = (a, b) => [...asList(a), ...asList(b)]

  /** `add`: JavaScript's `a + b` (numbers add, strings concatenate). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const add: Reducer = (a, b) => (a as any) + (b as any)

  /** `union`: the items of both lists without duplicates, in first-seen order (JSON equality). */
  const union: Reducer = (a, b) => {
    const seen = new Set<string>()
    const out: unknown[] = []
    for (const item of [...asList(a), ...asList(b)]) {
      const key = stableKey(item)
      if (!seen.has(key)) {
        seen.add(key)
        out.push(item)
      }
    }
    return out
  }

  /** `merge`: shallow object merge, later keys win; a non-object update replaces the value. */
  const merge: Reducer = (a, b) => {
    if (!isPlainObject(b)) return b
    return isPlainObject(a) ? { ...a, ...b } : { ...b }
  }

  function asList(v: unknown): unknown[] {
    return Array.isArray(v) ? v : v === undefined ? [] : [v]
  }

  function isPlainObject(v: unknown): v is Record<string, unknown> {
    return typeof v === 'object' && v !== null && !Array.isArray(v)
  }

  /** A key that makes structurally equal JSON values equal (object keys sorted). */
  function stableKey(v: unknown): string {
    if (typeof v !== 'object' || v === null) return typeof v + ':' + String(JSON.stringify(v))
    return JSON.stringify(v, (_k, val: unknown) =>
      isPlainObject(val)
        ? Object.fromEntries(Object.entries(val).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)))
        : val,
    )
  }

  return { append, add, union, merge }
}

export const NAMED_REDUCERS = namedReducers()
export const { append, add, union, merge } = NAMED_REDUCERS
