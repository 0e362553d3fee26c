/**
 * A deep copy of JSON-like data (plain objects, arrays, primitives), much cheaper than
 * structuredClone on the small values a checkpoint holds; anything else (Date, Map, class
 * instances, typed arrays) goes through structuredClone.
 */
export function cloneJson<T>(value: T): T {
  try {
    return copy(value, 0)
  } catch (e) {
    if (e !== TOO_DEEP) throw e
    return structuredClone(value) // very deep, or cyclic: structuredClone copes
  }
}

const TOO_DEEP = Symbol('too deep')

function copy<T>(value: T, depth: number): T {
  if (typeof value !== 'object' || value === null) return value
  if (depth > 200) throw TOO_DEEP
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length)
    for (let i = 0; i < value.length; i++) out[i] = copy(value[i], depth + 1)
    return out as T
  }
  const proto = Object.getPrototypeOf(value)
  if (proto !== Object.prototype && proto !== null) return structuredClone(value)
  const out: Record<string, unknown> = {}
  for (const k in value) out[k] = copy((value as Record<string, unknown>)[k], depth + 1)
  return out as T
}
