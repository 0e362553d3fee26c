/**
 * `load` run once and its promise shared by every call (a chunk fetched on first use). A
 * failure is handed to `onFail`, whose value the call resolves to, and forgotten, so the next
 * call tries again (offline now, online later).
 */
export function loadOnce<T, F>(
  load: () => Promise<T>,
  onFail: (error: unknown) => F,
): () => Promise<T | F> {
  let loading: Promise<T | F> | null = null
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = null
      return onFail(error)
    }))
}
