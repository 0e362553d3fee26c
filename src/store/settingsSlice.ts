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
 * this page set others and the list was asked for before their save landed (a list read
 * then, however late it arrives, does not undo them). Null when nothing changes.
 */
export function followRunSettings(
  s: Pick<
    AppState,
    'threadId' | 'threads' | 'threadsRead' | 'recursionLimit' | 'timeoutMs' | 'localRunSettings'
  >,
): Partial<AppState> | null {
  const kept = threadRunSettings(s.threads.find((t) => t.threadId === s.threadId))
  const local = s.localRunSettings[s.threadId]
  if (local) {
    const seen = local.savedBy !== undefined && s.threadsRead > local.savedBy
    if (!seen) {
      if (local.recursionLimit === s.recursionLimit && local.timeoutMs === s.timeoutMs) return null
      return { recursionLimit: local.recursionLimit, timeoutMs: local.timeoutMs }
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
      .then(() => {
        // Landed: a thread list asked for from now on shows it (or another tab's later one).
        const mine = get().localRunSettings[threadId]
        if (
          mine?.recursionLimit !== settings.recursionLimit ||
          mine.timeoutMs !== settings.timeoutMs
        )
          return // set again since: that save says when
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

    async setModelKeys(keys) {
      saveModelKeys(keys)
      await ctx.deps.client.request('setModelKeys', { keys })
    },
  }
}
