import type { ThreadInfo } from '../worker/protocol'

/** A thread id's own part, after the graph's (`<graph>:<suffix>`). */
export const suffixOf = (threadId: string) => threadId.slice(threadId.indexOf(':') + 1)

/** The thread's name as listed, or its id's own part when it is not listed (yet). */
export const threadName = (threads: readonly ThreadInfo[], threadId: string) =>
  threads.find((t) => t.threadId === threadId)?.name ?? suffixOf(threadId)
