/**
 * How a subgraph's checkpoints (LangGraph's `checkpoint_ns`) are keyed in IndexedDB: as those
 * of a thread of their own, `<thread>\u0000<namespace>`. Every read, put and page of one
 * namespace is then the same as a thread's, and the root graph's history never sees them.
 * Thread ids never hold the separator; a thread's namespaces sort right after it.
 */
export const NS_SEPARATOR = '\u0000'

/** The key the rows of a thread's namespace are stored under (`''`: the thread's own). */
export function storedThreadId(threadId: string, checkpointNs = ''): string {
  return checkpointNs === '' ? threadId : `${threadId}${NS_SEPARATOR}${checkpointNs}`
}

/** The thread a stored key belongs to (itself for a thread's own rows). */
export function threadOfStored(key: string): string {
  const at = key.indexOf(NS_SEPARATOR)
  return at < 0 ? key : key.slice(0, at)
}

/** Above every key of the thread's namespaces (for ranges that skip or take them all). */
export const afterNamespaces = (threadId: string) => `${threadId}${NS_SEPARATOR}\uffff`
