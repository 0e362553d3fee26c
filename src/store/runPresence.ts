import type { StoreApi } from 'zustand/vanilla'
import type { AppActions, AppDeps, AppState, TabMessage } from './appTypes'

type Store = StoreApi<AppState & AppActions>

/** How often a tab showing another tab's run reads the newest checkpoints. */
const FOLLOW_MS = 1000

/**
 * Runs and threads across tabs, as the page sees them:
 * - this tab's runs are told to the others (`threadRunning`), which show the thread as running
 *   elsewhere, disable Run and Step, and follow its checkpoints as they land;
 * - a thread opened while another tab runs it says so at once (its Web Lock is held);
 * - a thread deleted in another tab is left, with a message.
 */
export function attachRunPresence(store: Store, deps: AppDeps): void {
  const { bus } = deps
  const set = (p: Partial<AppState>) => store.setState(p)
  let following: ReturnType<typeof setInterval> | undefined

  const onMessage = async (m: TabMessage) => {
    if (m.type === 'threadRunning') {
      const s = store.getState()
      if (m.threadId !== s.threadId) return
      set({ runningElsewhere: m.running })
      clearInterval(following)
      // Its checkpoints land in this database too: the timeline follows them.
      if (m.running)
        following = setInterval(() => {
          const now = store.getState()
          if (!now.runningElsewhere || now.threadId !== m.threadId) clearInterval(following)
          else void now.refreshHistory(20).catch(() => undefined)
        }, FOLLOW_MS)
      else await s.refreshHistory()
      return
    }
    if (m.type === 'threadsChanged') {
      const s = store.getState()
      if (s.current?.id !== m.graph) return
      await s.refreshThreads()
      const now = store.getState()
      const open = now.threads.find((t) => t.threadId === now.threadId)
      // The open thread was deleted there (listed again only as the open one, with no
      // checkpoints, while this tab still shows some): this tab leaves it, and says so.
      if ((!open || open.count === 0) && now.timeline.length > 0) {
        const other = now.threads[0]?.threadId ?? `${m.graph}:main`
        await now.switchThread(other)
        set({ message: 'The thread open here was deleted in another tab.' })
      }
    }
  }
  bus?.on((m) => void onMessage(m).catch(() => undefined))

  // This tab's runs, told to the others.
  let announced: string | null = null
  store.subscribe((s) => {
    const active = s.runState === 'running' || s.runState === 'paused' ? s.threadId : null
    if (active === announced) return
    if (announced) bus?.post({ type: 'threadRunning', threadId: announced, running: false })
    if (active) bus?.post({ type: 'threadRunning', threadId: active, running: true })
    announced = active
  })

  // A thread opened while another tab runs it says so at once. This tab's own runs end when
  // it leaves their thread (`leaveRun`), so a held lock is another tab's.
  store.subscribe((s, prev) => {
    if (s.threadId === prev.threadId || !s.threadId || !deps.threadLockHeld) return
    const threadId = s.threadId
    void deps.threadLockHeld(threadId).then((held) => {
      const now = store.getState()
      const mine = now.runState === 'running' || now.runState === 'paused'
      if (now.threadId === threadId && !mine && held !== now.runningElsewhere)
        set({ runningElsewhere: held })
    })
  })
}
