/**
 * The chat-model API keys as the page keeps them: base URL → key, in `localStorage` under
 * `superstep.modelKeys` (never in a graph document, an export or a thread file). Without
 * storage (tests, a locked-down browser) the keys are simply not remembered.
 */
export const MODEL_KEYS_STORAGE = 'superstep.modelKeys'

export type ModelKeys = Record<string, string>

function storage(): Storage | undefined {
  try {
    return (globalThis as { localStorage?: Storage }).localStorage
  } catch {
    return undefined // access can throw (storage disabled)
  }
}

/** The saved keys; anything unreadable counts as none. */
export function loadModelKeys(): ModelKeys {
  try {
    const raw = storage()?.getItem(MODEL_KEYS_STORAGE)
    const parsed: unknown = raw ? JSON.parse(raw) : {}
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {}
    return Object.fromEntries(
      Object.entries(parsed).filter(
        (e): e is [string, string] => typeof e[1] === 'string' && e[1] !== '',
      ),
    )
  } catch {
    return {}
  }
}

/** Saves the keys (an empty set removes the entry). */
export function saveModelKeys(keys: ModelKeys): void {
  try {
    const s = storage()
    if (!s) return
    if (Object.keys(keys).length === 0) s.removeItem(MODEL_KEYS_STORAGE)
    else s.setItem(MODEL_KEYS_STORAGE, JSON.stringify(keys))
  } catch {
    // quota or disabled storage: the keys still reach the worker for this session
  }
}
