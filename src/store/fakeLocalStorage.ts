/** A page's localStorage for tests of the view memory; the function returned puts back the old one. */
export function fakeLocalStorage(items = new Map<string, string>()): () => void {
  const g = globalThis as { localStorage?: unknown }
  const before = g.localStorage
  g.localStorage = {
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
    removeItem: (k: string) => void items.delete(k),
  }
  return () => {
    g.localStorage = before
  }
}
