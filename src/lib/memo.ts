/**
 * `fn` remembered by its string argument, for the most recent `size` arguments (the oldest
 * is forgotten first). For pure functions whose results callers treat as read-only.
 */
export function memoByString<T>(fn: (key: string) => T, size: number): (key: string) => T {
  const cache = new Map<string, T>()
  return (key) => {
    if (cache.has(key)) return cache.get(key) as T
    const value = fn(key)
    if (cache.size >= size) cache.delete(cache.keys().next().value as string)
    cache.set(key, value)
    return value
  }
}
