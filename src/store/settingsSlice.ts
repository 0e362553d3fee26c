import type { ThreadInfo } from '../worker/protocol'
import type { AppState, SettingsActions, SettingsState, SliceContext } from './appTypes'
import { saveModelKeys } from './modelKeys'
import { loadView, saveView } from './viewMemory'

/** The run settings of a thread nothing was set for. */
export const DEFAULT_RUN_SETTINGS = { recursionLimit: 25, timeoutMs: 0 }

/** The settings as a page load starts them (the drawer's tab is remembered). */
export function initialSettings(): SettingsState {
  return { ...DEFAULT_RUN_SETTINGS, drawerTab: loadView().tab ?? 'Channels', localRunSettings: {} }
}

/**
 * What the open thread's run settings are once its list arrives: the ones it keeps, unless
 * this page set others the list does not show yet (it was read before they were saved).
 * Null when nothing changes.
 */
export function followRunSettings(
  s: Pick<AppState, 'threadId' | 'threads' | 'recursionLimit' | 'timeoutMs' | 'localRunSettings'>,
): Partial<AppState> | null {
  const info = s.threads.find((t) => t.threadId === s.threadId)
  const kept = threadRunSettings(info)
  const local = s.localRunSettings[s.threadId]
  if (local) {
    const confirmed =
      kept.recursionLimit === local.recursionLimit && kept.timeoutMs === local.timeoutMs
    if (!confirmed) {
      if (local.recursionLimit === s.recursionLimit && local.timeoutMs === s.timeoutMs) return null
      return { ...local }
    }
    const { [s.threadId]: _seen, ...rest } = s.localRunSettings
    return { localRunSettings: rest, ...kept }
  }
  if (kept.recursionLimit === s.recursionLimit && kept.timeoutMs === s.timeoutMs) return null
  return kept
}

/** The run settings a thread keeps (the defaults where it keeps none). */
export function threadRunSettings(
  info: ThreadInfo | undefined,
): Pick<SettingsState, 'recursionLimit' | 'timeoutMs'> {
  return {
    recursionLimit: info?.settings?.recursionLimit ?? DEFAULT_RUN_SETTINGS.recursionLimit,
    timeoutMs: info?.settings?.timeoutMs ?? DEFAULT_RUN_SETTINGS.timeoutMs,
  }
}

export function createSettingsSlice(ctx: SliceContext): SettingsActions {
  const { set, get } = ctx

  /** Shows the open thread's new run settings at once and keeps them with the thread. */
  const keepRunSettings = (patch: Partial<Pick<SettingsState, 'recursionLimit' | 'timeoutMs'>>) => {
    const { threadId, threads } = get()
    const settings = {
      ...threadRunSettings(threads.find((t) => t.threadId === threadId)),
      ...patch,
    }
    set({
      ...patch,
      threads: threads.map((t) => (t.threadId === threadId ? { ...t, settings } : t)),
      localRunSettings: { ...get().localRunSettings, [threadId]: settings },
    })
    if (!threadId || !get().current?.trusted) return
    ctx.deps.client
      .request('setThreadSettings', { threadId, settings })
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

    async setModelKeys(keys) {
      saveModelKeys(keys)
      await ctx.deps.client.request('setModelKeys', { keys })
    },
  }
}
