import type { CodeKind } from './sandbox/sandboxProtocol'

/**
 * Bump when what the sandbox's `check` says of a piece of code changes (`sandboxMain.ts`):
 * checks kept by an earlier version are then asked again.
 */
export const CODE_CHECK_VERSION = 1

/** How many checks are kept in memory: the oldest go first. */
const KEPT_IN_MEMORY = 2000

/** A piece of code as the sandbox checks it (the owner is named in what it says). */
export interface CheckedCode {
  owner: string
  kind: CodeKind
  code: string
}

/** What was said of code already checked, in one network mode, and what to keep. */
export interface KnownChecks {
  /** What the sandbox said of it (null: it is a function); undefined: never checked. */
  get(site: CheckedCode): string | null | undefined
  /** Keeps what the sandbox said of these. */
  remember(checks: readonly (readonly [CheckedCode, string | null])[]): void
}

/** Where checks are kept across page loads (`CodeCheckStore`). */
export interface CodeCheckKeeper {
  load(): Promise<Map<string, string | null>>
  save(checks: readonly (readonly [string, string | null])[], at: number): Promise<void>
}

/**
 * What the code sandbox said of each piece of code it checked, so that a compile asks only
 * about code it has not seen: a graph opened again, or compiled again after an edit of
 * anything but its code, starts no sandbox (one is a process of its own: 150 to 200 ms
 * before its first answer). A check evaluates the code to see that it makes a function,
 * which code that does the same each time it is evaluated always answers alike. What a call
 * could not answer (the sandbox unavailable, a timeout) is not kept.
 */
export class CodeChecks {
  private readonly memory: Promise<Map<string, string | null>>

  constructor(private readonly keeper?: CodeCheckKeeper) {
    this.memory = keeper ? keeper.load() : Promise.resolve(new Map())
  }

  /** The checks known in this network mode, once those kept across page loads are read. */
  async known(allowNetwork: boolean): Promise<KnownChecks> {
    const memory = await this.memory
    const key = (s: CheckedCode) =>
      [CODE_CHECK_VERSION, allowNetwork ? 'network' : 'offline', s.kind, s.owner, s.code].join(
        '\u0000',
      )
    return {
      get: (site) => memory.get(key(site)),
      remember: (checks) => {
        if (checks.length === 0) return
        const rows = checks.map(([site, problem]) => [key(site), problem] as const)
        for (const [k, problem] of rows) {
          memory.delete(k) // to the end: the newest
          memory.set(k, problem)
        }
        for (const oldest of memory.keys()) {
          if (memory.size <= KEPT_IN_MEMORY) break
          memory.delete(oldest)
        }
        void this.keeper?.save(rows, Date.now())
      },
    }
  }
}
