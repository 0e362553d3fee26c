import type { GraphEntry, GraphsPort } from './appStore'

/** Tests only: the graphs table in memory (revisions and the bin included). */
export function memoryGraphs(): GraphsPort & { rows: Map<string, GraphEntry> } {
  const rows = new Map<string, GraphEntry>()
  let t = 0
  const order = new Map<string, number>()
  const sorted = () =>
    [...rows.values()].sort((a, b) => (order.get(b.id) ?? 0) - (order.get(a.id) ?? 0))
  const put = (e: GraphEntry, rev: number) => {
    const { deletedAt: _binned, ...rest } = e
    rows.set(
      e.id,
      structuredClone({ ...rest, rev, ...(e.deletedAt && { deletedAt: e.deletedAt }) }),
    )
    order.set(e.id, ++t)
  }
  const update = (id: string, patch: Partial<GraphEntry>) => {
    const r = rows.get(id)
    if (r) rows.set(id, { ...r, ...patch })
  }
  return {
    rows,
    list: async () => sorted().filter((g) => !g.deletedAt),
    listBin: async () => sorted().filter((g) => g.deletedAt),
    library: async () => ({
      graphs: sorted().filter((g) => !g.deletedAt),
      bin: sorted().filter((g) => g.deletedAt),
    }),
    get: async (id) => structuredClone(rows.get(id)),
    save: async (e) => put({ ...e, deletedAt: undefined }, (rows.get(e.id)?.rev ?? 0) + 1),
    saveOver: async (e, baseRev) => {
      const old = rows.get(e.id)
      if (!old || old.deletedAt || (old.rev ?? 0) !== baseRev)
        return { ok: false, theirs: structuredClone(old) ?? null }
      const updatedAt = new Date(++t * 1000).toISOString()
      put(
        { ...old, name: e.name, doc: e.doc, updatedAt, ...(e.writer && { writer: e.writer }) },
        baseRev + 1,
      )
      return { ok: true, rev: baseRev + 1, updatedAt }
    },
    trust: async (id) => update(id, { trusted: true }),
    setAllowNetwork: async (id, allowed) => update(id, { allowNetwork: allowed }),
    saveInput: async (id, input) => update(id, { input }),
    bin: async (id) => update(id, { deletedAt: new Date(++t * 1000).toISOString() }),
    restore: async (id) => {
      const r = rows.get(id)
      if (!r) return
      const { deletedAt: _gone, ...rest } = r
      rows.set(id, rest)
    },
    delete: async (id) => void rows.delete(id),
  }
}
