import type { GraphRow, SuperstepDb } from './db'

type NewRow = Omit<GraphRow, 'updatedAt' | 'createdAt' | 'rev' | 'deletedAt'> & {
  createdAt?: string
}

/** What a save over a revision found: written (its new revision), or someone else's row. */
export type SaveOverResult = { ok: true; row: GraphRow } | { ok: false; theirs: GraphRow | null }

/** The graph documents saved in this browser (the bin included). */
export class GraphRepository {
  constructor(private readonly db: SuperstepDb) {}

  /** All graphs not in the bin, most recently saved first. */
  async list(): Promise<GraphRow[]> {
    return (await this.library()).graphs
  }

  /** The graphs in the bin, most recently deleted first. */
  async listBin(): Promise<GraphRow[]> {
    return (await this.library()).bin
  }

  /** Both lists from one read of the table. */
  async library(): Promise<{ graphs: GraphRow[]; bin: GraphRow[] }> {
    const all = await this.db.graphs.orderBy('updatedAt').reverse().toArray()
    return {
      graphs: all.filter((g) => !g.deletedAt),
      bin: all
        .filter((g) => g.deletedAt)
        .sort((a, b) => (b.deletedAt ?? '').localeCompare(a.deletedAt ?? '')),
    }
  }

  get(id: string): Promise<GraphRow | undefined> {
    return this.db.graphs.get(id)
  }

  /** Saves (creates or replaces) a graph as a new revision; `updatedAt` is set here. */
  async save(row: NewRow, now: string): Promise<GraphRow> {
    return this.db.transaction('rw', this.db.graphs, async () => {
      const old = await this.db.graphs.get(row.id)
      const saved: GraphRow = {
        ...row,
        createdAt: row.createdAt ?? old?.createdAt ?? now,
        updatedAt: now,
        rev: (old?.rev ?? 0) + 1,
      }
      await this.db.graphs.put(saved)
      return saved
    })
  }

  /**
   * Saves the document over revision `baseRev` only: when the stored row has another
   * revision (another tab saved), is in the bin or is gone, nothing is written and the
   * stored row comes back to be merged with.
   */
  async saveOver(row: NewRow, baseRev: number, now: string): Promise<SaveOverResult> {
    return this.db.transaction('rw', this.db.graphs, async () => {
      const old = await this.db.graphs.get(row.id)
      if (!old || old.deletedAt || (old.rev ?? 0) !== baseRev)
        return { ok: false as const, theirs: old ?? null }
      const saved: GraphRow = {
        ...old,
        name: row.name,
        doc: row.doc,
        updatedAt: now,
        rev: baseRev + 1,
      }
      if (row.writer !== undefined) saved.writer = row.writer
      await this.db.graphs.put(saved)
      return { ok: true as const, row: saved }
    })
  }

  /** Marks a graph trusted: its code may run from now on. */
  async trust(id: string): Promise<void> {
    await this.db.graphs.update(id, { trusted: true })
  }

  /** Whether the graph's code may reach the network; the document's revision stays. */
  async setAllowNetwork(id: string, allowed: boolean): Promise<void> {
    await this.db.graphs.update(id, { allowNetwork: allowed })
  }

  /** Keeps the graph's run input (JSON text); `updatedAt` stays: the graph did not change. */
  async saveInput(id: string, input: string): Promise<void> {
    await this.db.graphs.update(id, { input })
  }

  /** Moves a graph to the bin (restorable). */
  async bin(id: string, now: string): Promise<void> {
    await this.db.graphs.update(id, { deletedAt: now })
  }

  /** Takes a graph out of the bin. */
  async restore(id: string): Promise<void> {
    await this.db.transaction('rw', this.db.graphs, async () => {
      const row = await this.db.graphs.get(id)
      if (!row) return
      const { deletedAt: _gone, ...rest } = row
      await this.db.graphs.put(rest)
    })
  }

  /** Deletes a graph's row for good (its threads are the worker's to delete). */
  delete(id: string): Promise<void> {
    return this.db.graphs.delete(id)
  }
}
