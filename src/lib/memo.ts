/** A memo by string (`memoByString`) whose size can grow to hold a working set. */
export interface StringMemo<T> {
  (key: string): T
  /**
   * Holds at least `n` more results than the size it was made with, from now on (never
   * fewer than before): a caller that asks for `n` keys over and over (a document's code on
   * every edit) would otherwise, past the size, forget each key before asking for it again.
   */
  reserve(n: number): void
}

/**
 * `fn` remembered by its string argument, for the most recent `size` arguments (the oldest
 * is forgotten first). For pure functions whose results callers treat as read-only.
 */
export function memoByString<T>(fn: (key: string) => T, size: number): StringMemo<T> {
  const cache = new Map<string, T>()
  let limit = size
  const memo = (key: string): T => {
    if (cache.has(key)) return cache.get(key) as T
    const value = fn(key)
    if (cache.size >= limit) cache.delete(cache.keys().next().value as string)
    cache.set(key, value)
    return value
  }
  memo.reserve = (n: number) => {
    limit = Math.max(limit, size + n)
  }
  return memo
}
