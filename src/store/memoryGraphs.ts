import type { GraphEntry, GraphsPort } from './appStore'

/** Tests only: the graphs table in memory, listed most recently saved first. */
export function memoryGraphs(): GraphsPort & { rows: Map<string, GraphEntry> } {
  const rows = new Map<string, GraphEntry>()
  let t = 0
  const order = new Map<string, number>()
  return {
    rows,
    list: async () =>
      [...rows.values()].sort((a, b) => (order.get(b.id) ?? 0) - (order.get(a.id) ?? 0)),
    save: async (e) => {
      rows.set(e.id, structuredClone(e))
      order.set(e.id, ++t)
    },
    trust: async (id) => {
      const r = rows.get(id)
      if (r) rows.set(id, { ...r, trusted: true })
    },
    saveInput: async (id, input) => {
      const r = rows.get(id)
      if (r) rows.set(id, { ...r, input })
    },
    delete: async (id) => void rows.delete(id),
  }
}
