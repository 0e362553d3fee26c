import { Dexie } from 'dexie'
import type { Table } from 'dexie'

/** What the sandbox said of one piece of code (null: it is a function), and when. */
interface CodeCheckRow {
  key: string
  problem: string | null
  at: number
}

/** How many checks are kept across page loads: the oldest go first. */
export const CODE_CHECKS_KEPT = 2000

/**
 * What the code sandbox said of each piece of code it checked (see the worker's
 * `codeChecks.ts`), kept across page loads in a database of its own beside the checkpoints'
 * (`<name>-code-checks`): it holds nothing the user made, only what saves a compile from
 * starting a sandbox to ask again. Failing to read or write it is never an error: the
 * compile asks the sandbox, as it would without it.
 */
export class CodeCheckStore {
  private readonly db: Dexie & { checks: Table<CodeCheckRow, string> }

  constructor(name: string) {
    this.db = new Dexie(name) as Dexie & { checks: Table<CodeCheckRow, string> }
    this.db.version(1).stores({ checks: 'key, at' })
  }

  /** Every check kept (the oldest beyond CODE_CHECKS_KEPT deleted first), by key. */
  async load(): Promise<Map<string, string | null>> {
    try {
      const count = await this.db.checks.count()
      if (count > CODE_CHECKS_KEPT)
        await this.db.checks
          .orderBy('at')
          .limit(count - CODE_CHECKS_KEPT)
          .delete()
      const rows = await this.db.checks.toArray()
      return new Map(rows.map((r) => [r.key, r.problem]))
    } catch {
      return new Map()
    }
  }

  /** Keeps these checks, made at `at`. */
  async save(checks: readonly (readonly [string, string | null])[], at: number): Promise<void> {
    if (checks.length === 0) return
    try {
      await this.db.checks.bulkPut(checks.map(([key, problem]) => ({ key, problem, at })))
    } catch {
      // Not kept: the next page load asks the sandbox again.
    }
  }

  close(): void {
    this.db.close()
  }
}
