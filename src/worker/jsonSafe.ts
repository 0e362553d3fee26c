/**
 * A value made safe to post and to show as JSON: plain objects, arrays and primitives pass
 * through (plain data, as most state is, is returned as is without copying); anything else
 * becomes the nearest plain form: `toJSON()` when it has one (Send), Date → ISO string,
 * Map → object of entries, Set → array, Error → `{ name, message }`, bigint → string,
 * function or symbol → a `[Function name]` string, a cycle → `'[Circular]'`.
 * `undefined` is kept (structured clone carries it; the inspector shows it).
 */
export function toJsonSafe<T>(value: T): T {
  return safe(value, new Set()) as T
}

function safe(v: unknown, path: Set<object>): unknown {
  if (v === null || v === undefined) return v
  switch (typeof v) {
    case 'string':
    case 'boolean':
    case 'number':
      return v
    case 'bigint':
      return `${v.toString()}n`
    case 'function':
      return `[Function ${v.name || 'anonymous'}]`
    case 'symbol':
      return v.toString()
    case 'object':
      return safeObject(v, path)
    default:
      return String(v)
  }
}

function safeObject(v: object, path: Set<object>): unknown {
  if (path.has(v)) return '[Circular]'
  path.add(v)
  try {
    if (Array.isArray(v)) return mapArray(v, path)
    const proto = Object.getPrototypeOf(v) as object | null
    if (proto === Object.prototype || proto === null) return mapObject(v, path)
    if (typeof (v as { toJSON?: unknown }).toJSON === 'function')
      return safe((v as { toJSON: () => unknown }).toJSON(), path)
    if (v instanceof Map)
      return Object.fromEntries([...v].map(([k, x]) => [String(k), safe(x, path)]))
    if (v instanceof Set) return [...v].map((x) => safe(x, path))
    if (v instanceof Error) return { name: v.name, message: v.message }
    if (ArrayBuffer.isView(v) && !(v instanceof DataView))
      return Array.from(v as unknown as ArrayLike<number>)
    return mapObject(v, path)
  } finally {
    path.delete(v)
  }
}

/** Copies only when an element changes, so plain data is not copied at all. */
function mapArray(v: unknown[], path: Set<object>): unknown[] {
  let out: unknown[] | undefined
  for (let i = 0; i < v.length; i++) {
    const x = v[i]
    const y = safe(x, path)
    if (y !== x && !out) out = v.slice(0, i)
    if (out) out.push(y)
  }
  return out ?? v
}

function mapObject(v: object, path: Set<object>): object {
  const plain = Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null
  let out: Record<string, unknown> | undefined = plain ? undefined : {}
  const entries = Object.entries(v)
  for (let i = 0; i < entries.length; i++) {
    const [k, x] = entries[i] as [string, unknown]
    const y = safe(x, path)
    if (y !== x && !out) out = Object.fromEntries(entries.slice(0, i))
    if (out) out[k] = y
  }
  return out ?? v
}
