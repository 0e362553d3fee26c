import type { GraphRow, SuperstepDb } from './db'

/** The graph documents saved in this browser. */
export class GraphRepository {
  constructor(private readonly db: SuperstepDb) {}

  /** All graphs, most recently saved first. */
  list(): Promise<GraphRow[]> {
    return this.db.graphs.orderBy('updatedAt').reverse().toArray()
  }

  get(id: string): Promise<GraphRow | undefined> {
    return this.db.graphs.get(id)
  }

  /** Saves (creates or replaces) a graph; `updatedAt` is set here. */
  async save(
    row: Omit<GraphRow, 'updatedAt' | 'createdAt'> & { createdAt?: string },
    now: string,
  ): Promise<GraphRow> {
    const saved: GraphRow = { ...row, createdAt: row.createdAt ?? now, updatedAt: now }
    await this.db.graphs.put(saved)
    return saved
  }

  /** Marks a graph trusted: its code may run from now on. */
  async trust(id: string): Promise<void> {
    await this.db.graphs.update(id, { trusted: true })
  }

  /** Keeps the graph's run input (JSON text); `updatedAt` stays: the graph did not change. */
  async saveInput(id: string, input: string): Promise<void> {
    await this.db.graphs.update(id, { input })
  }

  delete(id: string): Promise<void> {
    return this.db.graphs.delete(id)
  }
}
