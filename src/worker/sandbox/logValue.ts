/**
 * What `console.log(x)` in user code records of `x`: plain JSON data that shows what the
 * value holds, so the Logs tab can open it as the page's console would. Objects keep their
 * fields (a class instance its own ones; a function among them becomes `[Function name]`
 * instead of making the whole object `[object Object]`), an Error its name, message, stack
 * and cause, a Map its entries, a Set its items, a Date its ISO time; a cycle is cut at
 * `[Circular]`; depth, size and string length are bounded, so a log cannot flood the page.
 *
 * Shipped into the sandbox worker by its source text (see sandboxWorkerSource.ts), so it
 * must refer to nothing outside itself but the standard globals. `fixStack` rewrites the
 * frames of an Error's stack (the sandbox maps them to the user's lines).
 */
export function toLogValue(value: unknown, fixStack?: (stack: string) => string): unknown {
  const MAX_DEPTH = 10
  const MAX_NODES = 5000
  const MAX_ITEMS = 500
  const MAX_STRING = 20000
  const toTag = Object.prototype.toString
  const ownKeys = Object.keys
  const isArray = Array.isArray
  let nodes = 0
  const path = new Set<object>()

  const text = (s: string): string =>
    s.length > MAX_STRING
      ? `${s.slice(0, MAX_STRING)}… (${s.length - MAX_STRING} more characters)`
      : s

  const read = (o: object, k: string | number): unknown => {
    try {
      return (o as Record<string | number, unknown>)[k]
    } catch (e) {
      return `[getter threw: ${e instanceof Error ? e.message : String(e)}]`
    }
  }

  const list = (items: ArrayLike<unknown>, depth: number): unknown[] => {
    const n = Math.min(items.length, MAX_ITEMS)
    const out: unknown[] = []
    for (let i = 0; i < n; i++) out.push(walk(read(items as object, i), depth + 1))
    if (items.length > n) out.push(`… ${items.length - n} more items`)
    return out
  }

  const fields = (o: object, depth: number): Record<string, unknown> => {
    const out: Record<string, unknown> = {}
    const keys = ownKeys(o)
    const n = Math.min(keys.length, MAX_ITEMS)
    for (let i = 0; i < n; i++) {
      const k = keys[i] as string
      out[k] = walk(read(o, k), depth + 1)
    }
    if (keys.length > n) out['…'] = `${keys.length - n} more fields`
    return out
  }

  const error = (e: Error, depth: number): Record<string, unknown> => {
    const out: Record<string, unknown> = {
      name: text(String(read(e, 'name') ?? 'Error')),
      message: text(String(read(e, 'message') ?? '')),
    }
    const stack = read(e, 'stack')
    if (typeof stack === 'string') out.stack = text(fixStack ? fixStack(stack) : stack)
    const cause = read(e, 'cause')
    if (cause !== undefined) out.cause = walk(cause, depth + 1)
    return { ...out, ...fields(e, depth) }
  }

  const object = (o: object, depth: number): unknown => {
    const tag = toTag.call(o)
    if (tag === '[object Error]') return error(o as Error, depth)
    if (tag === '[object Date]') {
      const t = (o as Date).getTime()
      return Number.isNaN(t) ? 'Invalid Date' : (o as Date).toISOString()
    }
    if (tag === '[object RegExp]') return String(o)
    if (tag === '[object Map]') {
      const out: Record<string, unknown> = {}
      let i = 0
      for (const [k, v] of o as Map<unknown, unknown>) {
        if (i++ >= MAX_ITEMS) break
        out[typeof k === 'string' ? k : String(walk(k, MAX_DEPTH))] = walk(v, depth + 1)
      }
      return out
    }
    if (tag === '[object Set]') return list([...(o as Set<unknown>)], depth)
    if (tag === '[object Promise]') return '[Promise]'
    if (tag === '[object WeakMap]' || tag === '[object WeakSet]') return tag.slice(8, -1)
    if (ArrayBuffer.isView(o) && !(o instanceof DataView)) return list(o as never, depth)
    if (o instanceof ArrayBuffer) return `[ArrayBuffer ${o.byteLength} bytes]`
    if (isArray(o)) return list(o, depth)
    const toJSON = read(o, 'toJSON')
    if (typeof toJSON === 'function') {
      try {
        return walk((toJSON as () => unknown).call(o), depth + 1)
      } catch {
        // its fields, below
      }
    }
    return fields(o, depth)
  }

  const walk = (v: unknown, depth: number): unknown => {
    nodes += 1
    switch (typeof v) {
      case 'string':
        return text(v)
      case 'number':
        return Number.isFinite(v) ? v : String(v)
      case 'boolean':
      case 'undefined':
        return v
      case 'bigint':
        return `${v.toString()}n`
      case 'symbol':
        return v.toString()
      case 'function': {
        // Logged itself: its source, as a console shows it; inside a value: its name.
        if (depth === 0) return text(String(v))
        const name = (v as { name?: unknown }).name
        return `[Function ${typeof name === 'string' && name ? name : 'anonymous'}]`
      }
    }
    if (v === null) return null
    const o = v as object
    if (path.has(o)) return '[Circular]'
    if (depth >= MAX_DEPTH || nodes > MAX_NODES) return isArray(o) ? '[Array]' : '[Object]'
    path.add(o)
    try {
      return object(o, depth)
    } finally {
      path.delete(o)
    }
  }

  try {
    return walk(value, 0)
  } catch {
    try {
      return String(value)
    } catch {
      return '[unprintable]'
    }
  }
}
