import type { GraphSpec } from '../core/graph/schema'
import type { ThreadInfo } from '../worker/protocol'
import type {
  AppState,
  ConfigValue,
  SettingsActions,
  SettingsState,
  SliceContext,
} from './appTypes'
import { saveModelKeys } from './modelKeys'
import { loadView, saveView } from './viewMemory'

/** The run settings of a thread nothing was set for. */
export const DEFAULT_RUN_SETTINGS = { recursionLimit: 25, timeoutMs: 0 }

/** What a thread keeps for its runs: the limits and its own values of the declared settings. */
type RunSettings = Pick<SettingsState, 'recursionLimit' | 'timeoutMs' | 'configurable'>

/** The settings as a page load starts them (the drawer's tab is remembered). */
export function initialSettings(): SettingsState {
  return {
    ...DEFAULT_RUN_SETTINGS,
    configurable: {},
    drawerTab: loadView().tab ?? 'Channels',
    localRunSettings: {},
  }
}

/** Two threads' run settings are the same (the settings' values compared one by one). */
export function sameRunSettings(a: RunSettings, b: RunSettings): boolean {
  if (a.recursionLimit !== b.recursionLimit || a.timeoutMs !== b.timeoutMs) return false
  const ak = Object.keys(a.configurable)
  const bk = Object.keys(b.configurable)
  return ak.length === bk.length && ak.every((k) => a.configurable[k] === b.configurable[k])
}

const pick = (s: RunSettings): RunSettings => ({
  recursionLimit: s.recursionLimit,
  timeoutMs: s.timeoutMs,
  configurable: s.configurable,
})

/**
 * What the open thread's run settings are once its list arrives: the ones it keeps, unless
 * this page set others and the list was asked for before their save landed (a list read
 * then, however late it arrives, does not undo them). Null when nothing changes.
 */
export function followRunSettings(
  s: Pick<AppState, 'threadId' | 'threads' | 'threadsRead' | 'localRunSettings'> & RunSettings,
): Partial<AppState> | null {
  const kept = threadRunSettings(s.threads.find((t) => t.threadId === s.threadId))
  const local = s.localRunSettings[s.threadId]
  if (local) {
    const seen = local.savedBy !== undefined && s.threadsRead > local.savedBy
    if (!seen) return sameRunSettings(local, s) ? null : pick(local)
    const { [s.threadId]: _seen, ...rest } = s.localRunSettings
    return { localRunSettings: rest, ...kept }
  }
  return sameRunSettings(kept, s) ? null : kept
}

/** The run settings a thread keeps (the defaults where it keeps none). */
export function threadRunSettings(info: ThreadInfo | undefined): RunSettings {
  return {
    recursionLimit: info?.settings?.recursionLimit ?? DEFAULT_RUN_SETTINGS.recursionLimit,
    timeoutMs: info?.settings?.timeoutMs ?? DEFAULT_RUN_SETTINGS.timeoutMs,
    configurable: configurableOf(info?.settings?.configurable),
  }
}

/** A kept `configurable`, its values that are no setting's value left out (a damaged row). */
function configurableOf(kept: unknown): Record<string, ConfigValue> {
  if (typeof kept !== 'object' || kept === null || Array.isArray(kept)) return {}
  return Object.fromEntries(
    Object.entries(kept).filter(
      (e): e is [string, ConfigValue] =>
        typeof e[1] === 'string' || typeof e[1] === 'boolean' || Number.isFinite(e[1]),
    ),
  )
}

/**
 * What a run of the open thread is sent as `configurable`: the thread's own values of the
 * settings the graph declares now, each of its declared type (a value kept for a setting
 * since removed or retyped is left out; the declared defaults fill the rest in the runtime).
 */
export function runConfigurable(
  spec: Pick<GraphSpec, 'config'> | null,
  own: Record<string, ConfigValue>,
): Record<string, ConfigValue> {
  const out: Record<string, ConfigValue> = {}
  for (const c of spec?.config ?? []) {
    const v = own[c.name]
    if (v !== undefined && typeof v === c.type) out[c.name] = v
  }
  return out
}

export function createSettingsSlice(ctx: SliceContext): SettingsActions {
  const { set, get } = ctx

  /** Shows the open thread's new run settings at once and keeps them with the thread. */
  const keepRunSettings = (patch: Partial<RunSettings>) => {
    const { threadId, threads } = get()
    // Over what is on screen (the thread's, or this page's own not yet in its list).
    const settings = { ...pick(get()), ...patch }
    set({
      ...patch,
      threads: threads.map((t) => (t.threadId === threadId ? { ...t, settings } : t)),
      localRunSettings: { ...get().localRunSettings, [threadId]: settings },
    })
    if (!threadId || !get().current?.trusted) return
    ctx.deps.client
      .request('setThreadSettings', { threadId, settings })
      .then(() => {
        // Landed: a thread list asked for from now on shows it (or another tab's later one).
        const mine = get().localRunSettings[threadId]
        if (!mine || !sameRunSettings(mine, settings)) return // set again since: that save says when
        set({
          localRunSettings: {
            ...get().localRunSettings,
            [threadId]: { ...settings, savedBy: get().threadsAsked },
          },
        })
      })
      .catch((e: unknown) =>
        set({ message: `Keeping the run settings failed: ${(e as Error).message}` }),
      )
  }

  return {
    setDrawerTab(tab) {
      set({ drawerTab: tab })
      saveView({ ...loadView(), tab })
    },

    setRecursionLimit(limit) {
      if (Number.isInteger(limit) && limit > 0) keepRunSettings({ recursionLimit: limit })
    },

    setTimeoutMs(ms) {
      if (Number.isFinite(ms) && ms >= 0) keepRunSettings({ timeoutMs: Math.round(ms) })
    },

    setConfigValue(name, value) {
      if (typeof value === 'number' && !Number.isFinite(value)) return
      const { [name]: _old, ...rest } = get().configurable
      keepRunSettings({ configurable: value === undefined ? rest : { ...rest, [name]: value } })
    },

    async setModelKeys(keys) {
      saveModelKeys(keys)
      await ctx.deps.client.request('setModelKeys', { keys })
    },
  }
}
