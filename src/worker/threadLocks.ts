import { threadLockName } from '../lib/lockNames'
import { WorkerRequestError } from './errors'

/**
 * One run per thread across the tabs of the browser: a run holds its thread's lock from its
 * start to its end (paused runs too), so a second tab can neither run the thread at the same
 * time (every step would run twice, as two branches) nor delete it from under the run.
 */
export interface ThreadLocks {
  /** Holds the thread's lock and returns its release, or null when another tab holds it. */
  hold(threadId: string): Promise<(() => void) | null>
}

/** The browser's Web Locks (shared by every tab and worker of the origin). */
export function webThreadLocks(locks: LockManager): ThreadLocks {
  return {
    hold: (threadId) =>
      new Promise((resolve, reject) => {
        locks
          .request(threadLockName(threadId), { ifAvailable: true }, (lock) => {
            if (!lock) return resolve(null)
            // Held until the release is called.
            return new Promise<void>((done) => resolve(done))
          })
          .catch(reject)
      }),
  }
}

/** Tests only: locks in memory, shared by the registries (tabs) given the same table. */
export function memoryThreadLocks(held = new Set<string>()): ThreadLocks {
  return {
    hold: async (threadId) => {
      if (held.has(threadId)) return null
      held.add(threadId)
      return () => void held.delete(threadId)
    },
  }
}

/** The refusal when another tab runs the thread. */
export function runningElsewhere(threadId: string, what: string): WorkerRequestError {
  return new WorkerRequestError(
    'RUNNING_ELSEWHERE',
    `Thread ${threadId} is being run in another tab of Superstep: ${what} once that run has ended there (or stop it there).`,
  )
}
