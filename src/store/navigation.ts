/**
 * The page's moves between graphs and threads (open a graph, New thread, pick a thread, put
 * back the view of before a reload), made one at a time in the order they were asked for.
 *
 * Each move awaits the worker several times. Made side by side, two of them interleaved: a
 * thread picked while the reload's thread was being put back lost to it, and Run pressed
 * while New thread was still making its thread ran on the old thread, only for the switch to
 * stop that run and show an idle status. Queued, the later move always wins, and a run waits
 * for `settled` so it starts on the thread the user went to.
 *
 * A move must not ask for another move and wait for it (it would wait for itself): inside
 * one, call the step's own function.
 */
export interface Navigation {
  /** Makes `move` once every move asked before it has ended (failed ones included). */
  go<T>(move: () => Promise<T>): Promise<T>
  /** Resolves once every move asked for so far, and any asked meanwhile, has ended. */
  settled(): Promise<void>
}

export function createNavigation(): Navigation {
  let tail: Promise<unknown> = Promise.resolve()
  return {
    go(move) {
      const made = tail.then(move)
      tail = made.catch(() => undefined)
      return made
    },
    async settled() {
      for (let seen = tail; ; seen = tail) {
        await seen
        if (seen === tail) return
      }
    },
  }
}
