/**
 * The named reducers of the graph format as TypeScript source, for the emitted module.
 * Each is the same algorithm as `src/core/reducers/named.ts`, written self-contained (its
 * own small helpers inside), so a module needs only the ones its fields use. A test runs
 * these texts against core's functions on many values.
 */

/** The named reducers written into modules (`overwrite` is LangGraph's LastValue: none). */
export type HelperReducer = 'append' | 'add' | 'union' | 'merge'

const LIST = `const list = (v: any): any[] => (Array.isArray(v) ? v : v === undefined ? [] : [v])`
const IS_OBJECT = `const isObject = (v: any): boolean =>
    typeof v === 'object' && v !== null && !Array.isArray(v)`

const SOURCES: Record<HelperReducer, (name: string) => string> = {
  append: (
    name,
  ) => `/** \`append\`: list concatenation; a non-list on either side counts as a one-item list. */
function ${name}(a: any, b: any): any[] {
  ${LIST}
  return [...list(a), ...list(b)]
}`,
  add: (name) => `/** \`add\`: JavaScript's \`a + b\` (numbers add, strings concatenate). */
function ${name}(a: any, b: any): any {
  return a + b
}`,
  union: (
    name,
  ) => `/** \`union\`: the items of both lists without duplicates, in first-seen order (JSON equality). */
function ${name}(a: any, b: any): any[] {
  ${LIST}
  ${IS_OBJECT}
  // Structurally equal JSON values get equal keys (object keys sorted); types stay apart.
  const keyOf = (v: any): string =>
    typeof v !== 'object' || v === null
      ? typeof v + ':' + String(JSON.stringify(v))
      : JSON.stringify(v, (_key, value) =>
          isObject(value)
            ? Object.fromEntries(
                Object.entries(value).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)),
              )
            : value,
        )
  const seen = new Set<string>()
  const out: any[] = []
  for (const item of [...list(a), ...list(b)]) {
    const key = keyOf(item)
    if (!seen.has(key)) {
      seen.add(key)
      out.push(item)
    }
  }
  return out
}`,
  merge: (
    name,
  ) => `/** \`merge\`: shallow object merge, later keys win; a non-object update replaces the value. */
function ${name}(a: any, b: any): any {
  ${IS_OBJECT}
  if (!isObject(b)) return b
  return isObject(a) ? { ...a, ...b } : { ...b }
}`,
}

/** The source of one named reducer as a function declaration called `name`. */
export function reducerSource(reducer: HelperReducer, name: string): string {
  return SOURCES[reducer](name)
}

/** Whether a document reducer name is one of those written into the module. */
export function isHelperReducer(name: string | undefined): name is HelperReducer {
  return name === 'append' || name === 'add' || name === 'union' || name === 'merge'
}
