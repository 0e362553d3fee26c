/**
 * `Send` and `Command`, with LangGraph.js's meaning. User code gets these classes in scope;
 * the runtime recognises them by `lg_name` too, so values that crossed a realm still count.
 */
export class Send {
  readonly lg_name = 'Send'
  constructor(
    readonly node: string,
    readonly args: unknown,
  ) {}
  toJSON(): SendPacket {
    return { node: this.node, args: this.args }
  }
}

/** How a Send is stored in the `__pregel_tasks` channel: plain JSON. */
export interface SendPacket {
  node: string
  args: unknown
}

export interface CommandParams {
  update?: Record<string, unknown> | [string, unknown][]
  goto?: string | Send | (string | Send)[]
  resume?: unknown
  graph?: string
}

export class Command {
  readonly lg_name = 'Command'
  readonly update: CommandParams['update']
  readonly goto: CommandParams['goto']
  readonly resume: unknown
  readonly graph: string | undefined
  static readonly PARENT = '__parent__'

  constructor(params: CommandParams = {}) {
    this.update = params.update
    this.goto = params.goto
    this.resume = params.resume
    this.graph = params.graph
  }

  /** The update as `[key, value]` pairs (LangGraph's `_updateAsTuples`). */
  updateTuples(): [string, unknown][] {
    const u = this.update
    if (u && typeof u === 'object' && !Array.isArray(u)) return Object.entries(u)
    if (
      Array.isArray(u) &&
      u.every((t) => Array.isArray(t) && t.length === 2 && typeof t[0] === 'string')
    )
      return u
    return [['__root__', u]]
  }
}

export function isSend(v: unknown): v is Send {
  return (
    v instanceof Send || (typeof v === 'object' && v !== null && (v as Send).lg_name === 'Send')
  )
}

export function isCommand(v: unknown): v is Command {
  return (
    v instanceof Command ||
    (typeof v === 'object' && v !== null && (v as Command).lg_name === 'Command')
  )
}

export function isSendPacket(v: unknown): v is SendPacket {
  return (
    typeof v === 'object' && v !== null && typeof (v as SendPacket).node === 'string' && 'args' in v
  )
}

/**
 * Rebuilds Send and Command instances from their plain forms (what crosses postMessage
 * from the sandbox: objects with `lg_name`), inside arrays and a Command's `goto`.
 */
export function reviveControl(v: unknown): unknown {
  if (Array.isArray(v)) return v.some(isControl) ? v.map(reviveControl) : v
  if (!isControl(v)) return v
  const o = v as Record<string, unknown>
  if (o.lg_name === 'Send') return v instanceof Send ? v : new Send(String(o.node), o.args)
  if (v instanceof Command) return v
  const goto = o.goto
  return new Command({
    update: o.update as CommandParams['update'],
    goto: (Array.isArray(goto)
      ? goto.map(reviveControl)
      : reviveControl(goto)) as CommandParams['goto'],
    resume: o.resume,
    graph: o.graph as string | undefined,
  })
}

function isControl(v: unknown): boolean {
  if (typeof v !== 'object' || v === null) return false
  const name = (v as { lg_name?: unknown }).lg_name
  return name === 'Send' || name === 'Command'
}
