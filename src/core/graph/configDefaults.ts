import type { ConfigSettingSpec } from './schema'

/** What `config.configurable` holds before a run gives its own: each declared default. */
export function configDefaults(
  settings: readonly ConfigSettingSpec[] | undefined,
): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {}
  for (const c of settings ?? []) if (c.default !== undefined) out[c.name] = c.default
  return out
}
