import type { Page } from '@playwright/test'

/** A graph row as IndexedDB holds it (the bin included). */
export interface StoredGraph {
  name: string
  deletedAt?: string
  doc: { name: string; nodes: { id: string; code?: string }[] }
}

/** Every row of `store` in the app's database, read in the page. */
export function storedRows<T>(page: Page, store: string): Promise<T[]> {
  return page.evaluate(async (name) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const r = indexedDB.open('superstep')
      r.onsuccess = () => resolve(r.result)
      r.onerror = () => reject(r.error)
    })
    const rows = await new Promise<T[]>((resolve, reject) => {
      const r = db.transaction(name).objectStore(name).getAll()
      r.onsuccess = () => resolve(r.result as never)
      r.onerror = () => reject(r.error)
    })
    db.close()
    return rows
  }, store)
}

/** Every graph row of the app's database, read in the page. */
export function storedGraphs(page: Page): Promise<StoredGraph[]> {
  return storedRows<StoredGraph>(page, 'graphs')
}

/** The code IndexedDB holds for a node (of whichever graph has it). */
export async function storedNodeCode(page: Page, nodeId: string): Promise<string | undefined> {
  for (const row of await storedGraphs(page)) {
    const n = row.doc.nodes.find((x) => x.id === nodeId)
    if (n) return n.code
  }
  return undefined
}
