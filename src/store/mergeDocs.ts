/**
 * Three-way merge of two versions of a graph document changed from one base (two tabs saving
 * the same graph): whatever only one side changed is taken, whatever both changed the same way
 * is kept once, and whatever both changed differently is a conflict, named by where it is.
 * Arrays of items with their own identity (nodes by `id`, state fields by `name`, edges by
 * their content) merge item by item, so adding a field in one tab and renaming a node in the
 * other both survive; any other array is one value.
 */
export interface MergeResult {
  /** The merged document; where there are conflicts, it holds `mine` there. */
  doc: unknown
  /** Where both sides changed the same thing differently ("nodes › agent › code"). */
  conflicts: string[]
}

export function mergeDocs(base: unknown, mine: unknown, theirs: unknown): MergeResult {
  const conflicts: string[] = []
  const doc = merge(base, mine, theirs, [], conflicts)
  return { doc, conflicts }
}

type Obj = Record<string, unknown>

const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x)

function merge(b: unknown, m: unknown, t: unknown, path: string[], out: string[]): unknown {
  if (same(m, t)) return m
  if (same(b, m)) return t
  if (same(b, t)) return m
  if (isObj(m) && isObj(t) && (b === undefined || isObj(b))) {
    const base = (b ?? {}) as Obj
    const r: Obj = {}
    for (const k of union(Object.keys(t), Object.keys(m))) {
      const v = merge(base[k], m[k], t[k], [...path, k], out)
      if (v !== undefined) r[k] = v
    }
    return r
  }
  if (Array.isArray(m) && Array.isArray(t) && (b === undefined || Array.isArray(b))) {
    const km = keyed(m)
    const kt = keyed(t)
    const kb = keyed((b ?? []) as unknown[])
    if (km && kt && kb) return mergeKeyed(kb, km, kt, path, out)
  }
  out.push(path.length ? path.join(' › ') : 'the whole document')
  return m
}

/** Items by key (their `id`, else their `name`, else their content), or null if not unique. */
function keyed(list: unknown[]): Map<string, unknown> | null {
  const map = new Map<string, unknown>()
  for (const item of list) {
    const k = keyOf(item)
    if (map.has(k)) return null
    map.set(k, item)
  }
  return map
}

function keyOf(item: unknown): string {
  if (isObj(item) && typeof item.id === 'string') return item.id
  if (isObj(item) && typeof item.name === 'string') return item.name
  return JSON.stringify(item)
}

function mergeKeyed(
  b: Map<string, unknown>,
  m: Map<string, unknown>,
  t: Map<string, unknown>,
  path: string[],
  out: string[],
): unknown[] {
  const merged = new Map<string, unknown>()
  for (const k of union([...t.keys()], [...m.keys()])) {
    // An item's content key is long; its path says which list and what kind of change.
    const label = k.startsWith('{') || k.startsWith('[') ? 'an item' : k
    const v = merge(b.get(k), m.get(k), t.get(k), [...path, label], out)
    if (v !== undefined) merged.set(k, v)
  }
  // Their order, with mine's new items after the item they follow in mine.
  const order = [...t.keys()].filter((k) => merged.has(k))
  let after = -1
  for (const k of m.keys()) {
    const at = order.indexOf(k)
    if (at >= 0) after = at
    else if (merged.has(k)) order.splice(++after, 0, k)
  }
  return order.map((k) => merged.get(k))
}

function union(a: string[], b: string[]): string[] {
  const seen = new Set(a)
  return [...a, ...b.filter((k) => !seen.has(k))]
}

/** Deep equality of JSON values (key order ignored). */
export function same(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((x, i) => same(x, b[i]))
  if (isObj(a) && isObj(b)) {
    const ka = Object.keys(a)
    if (ka.length !== Object.keys(b).length) return false
    return ka.every((k) => Object.hasOwn(b, k) && same(a[k], b[k]))
  }
  return false
}
