import type { SettingsActions, SettingsState, SliceContext } from './appTypes'
import { saveModelKeys } from './modelKeys'
import { loadView, saveView } from './viewMemory'

/** The settings as a page load starts them (the drawer's tab is remembered). */
export function initialSettings(): SettingsState {
  return { recursionLimit: 25, drawerTab: loadView().tab ?? 'Channels' }
}

export function createSettingsSlice(ctx: SliceContext): SettingsActions {
  const { set } = ctx
  return {
    setDrawerTab(tab) {
      set({ drawerTab: tab })
      saveView({ ...loadView(), tab })
    },

    setRecursionLimit(limit) {
      if (Number.isInteger(limit) && limit > 0) set({ recursionLimit: limit })
    },

    async setModelKeys(keys) {
      saveModelKeys(keys)
      await ctx.deps.client.request('setModelKeys', { keys })
    },
  }
}
