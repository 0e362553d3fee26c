import { tabLockName, threadLockName } from '../lib/lockNames'
import type { DraftJournal, JournalEntry, TabBus, TabMessage } from './appTypes'

const CHANNEL = 'superstep'
const JOURNAL = 'superstep:journal:'

/** The other tabs of the app, over a BroadcastChannel (messages from this tab are not echoed). */
export function broadcastBus(): TabBus {
  const channel = new BroadcastChannel(CHANNEL)
  return {
    post: (m: TabMessage) => channel.postMessage(m),
    on(handler) {
      const listener = (e: MessageEvent<TabMessage>) => handler(e.data)
      channel.addEventListener('message', listener)
      return () => channel.removeEventListener('message', listener)
    },
  }
}

/**
 * Edits kept in localStorage (written synchronously, so a reload or a closed tab cannot cut
 * them off) until IndexedDB has them. Each tab writes its own keys and holds a Web Lock for as
 * long as it lives: a journal is taken back only from a tab whose lock is free (it closed),
 * never from a tab that is still saving.
 */
export function localJournal(
  tabId: string,
  storage: Storage = localStorage,
  opened = Date.now(),
): DraftJournal {
  // Held until the tab closes: the lock's release is how other tabs know it is gone.
  void navigator.locks?.request(tabLockName(tabId), () => new Promise<never>(() => undefined))
  const key = (graphId: string, tab = tabId) => `${JOURNAL}${graphId}:${tab}`
  const writer = `${tabId}@${opened}`
  return {
    writer,
    write(graphId, entry) {
      try {
        storage.setItem(key(graphId), JSON.stringify({ ...entry, writer, at: Date.now() }))
      } catch {
        // A full localStorage: the IndexedDB save still goes ahead; only its net is missing.
      }
    },
    clear(graphId) {
      storage.removeItem(key(graphId))
    },
    async take(graphId) {
      const prefix = `${JOURNAL}${graphId}:`
      const keys: string[] = []
      for (let i = 0; i < storage.length; i++) {
        const k = storage.key(i)
        if (k?.startsWith(prefix)) keys.push(k)
      }
      if (keys.length === 0) return null
      const held = new Set(((await navigator.locks?.query())?.held ?? []).map((l) => l.name ?? ''))
      let best: (JournalEntry & { at: number }) | null = null
      for (const k of keys) {
        const tab = k.slice(prefix.length)
        if (tab !== tabId && held.has(tabLockName(tab))) continue // a live tab's own
        try {
          const e = JSON.parse(storage.getItem(k) ?? 'null') as JournalEntry & { at: number }
          if (e && typeof e.baseRev === 'number' && (!best || e.at > best.at)) best = e
        } catch {
          // A damaged journal is no edit to recover.
        }
        storage.removeItem(k)
      }
      return (
        best && {
          baseRev: best.baseRev,
          doc: best.doc,
          ...(best.landing !== undefined && { landing: best.landing }),
          ...(typeof best.writer === 'string' && { writer: best.writer }),
          ...(typeof best.at === 'number' && { at: best.at }),
        }
      )
    },
  }
}

/** Whether a run (of any tab) holds the thread's lock (lockNames.ts). */
export async function threadLockHeld(threadId: string): Promise<boolean> {
  const state = await navigator.locks?.query()
  return (state?.held ?? []).some((l) => l.name === threadLockName(threadId))
}
