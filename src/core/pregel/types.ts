/**
 * `Send` and `Command`, with LangGraph.js's meaning and shape: code that inspects one
 * (`cmd.goto`, `JSON.stringify(send)`) sees what it would see in LangGraph.js 1.7.3. User
 * code gets these classes in scope; the runtime recognises them by `lg_name` too, so values
 * that crossed a realm still count. The sandbox receives each class as source text, so
 * neither body refers to anything outside itself: the deserialisation LangGraph.js applies
 * to a Send's args and a Command's goto is plugged in from outside (`revive`, below).
 */
export class Send {
  /** Makes plain Send/Command forms instances (see {@link reviveControlGraph}). */
  static revive: (x: unknown) => unknown = (x) => x
  readonly lg_name = 'Send'
  readonly node: string
  readonly args: unknown
  /** LangGraph.js's per-Send timeout policy: Superstep has none, so it is always undefined. */
  readonly timeout: undefined = undefined

  constructor(node: string, args: unknown) {
    this.node = node
    this.args = Send.revive(args)
  }

  toJSON(): { lg_name: 'Send'; node: string; args: unknown; timeout: undefined } {
    return { lg_name: this.lg_name, node: this.node, args: this.args, timeout: this.timeout }
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
  /** Makes plain Send/Command forms instances (see {@link reviveControlGraph}). */
  static revive: (x: unknown) => unknown = (x) => x
  readonly lg_name = 'Command'
  /** Marks a tool's Command output in LangGraph.js; here only part of the shape. */
  readonly lc_direct_tool_output = true
  readonly graph: string | undefined
  readonly update: CommandParams['update']
  readonly resume: unknown
  /** Always a list, as LangGraph.js makes it (`goto: "b"` is `["b"]`). */
  readonly goto: (string | Send)[] = []
  static readonly PARENT = '__parent__'

  constructor(params: CommandParams = {}) {
    this.resume = params.resume
    this.graph = params.graph
    this.update = params.update
    const goto = params.goto
    if (goto) this.goto = Command.revive(Array.isArray(goto) ? goto : [goto]) as (string | Send)[]
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

  toJSON(): { lg_name: 'Command'; update: unknown; resume: unknown; goto: unknown[] } {
    const goto = this.goto.map((g) =>
      typeof g === 'object' && g !== null && typeof g.toJSON === 'function' ? g.toJSON() : g,
    )
    return { lg_name: this.lg_name, update: this.update, resume: this.resume, goto }
  }
}

/**
 * LangGraph.js's `_deserializeCommandSendObjectGraph`, which a Send's args and a Command's
 * goto go through: inside arrays and plain objects (copied), an object with
 * `lg_name: "Command"` becomes a Command and `{ node: string, args }` (args defined) a
 * Send; class instances are kept. Self-contained, with the classes as parameters, so that
 * a realm that has the classes only as source text can plug it in too.
 */
export function reviveControlGraph(
  x: unknown,
  SendClass: typeof Send,
  CommandClass: typeof Command,
  /** What was copied so far (shared and cyclic parts stay so); absent: made if needed. */
  seen?: Map<object, unknown>,
): unknown {
  if (typeof x !== 'object' || x === null) return x
  if (seen === undefined) {
    // Made only when something inside is an object: a flat value (the usual Send's args)
    // can hold nothing shared or cyclic.
    for (const k in x) {
      const v = (x as Record<string, unknown>)[k]
      if (typeof v === 'object' && v !== null) {
        seen = new Map()
        break
      }
    }
  } else if (seen.has(x)) return seen.get(x)
  if (Array.isArray(x)) {
    const out: unknown[] = []
    seen?.set(x, out)
    for (let i = 0; i < x.length; i++)
      if (i in x) out[i] = reviveControlGraph(x[i], SendClass, CommandClass, seen) // holes stay
    return out
  }
  const proto: unknown = Object.getPrototypeOf(x)
  const o = x as Record<string, unknown>
  let out: unknown = x
  if (x instanceof CommandClass || x instanceof SendClass) out = x
  else if (proto !== Object.prototype && proto !== null) out = x
  else if (o.lg_name === 'Command') out = new CommandClass(o as CommandParams)
  else if (typeof o.node === 'string' && o.args !== undefined) out = new SendClass(o.node, o.args)
  else if (!o.lc_serializable) {
    const copy: Record<string, unknown> = {}
    seen?.set(x, copy)
    for (const k of Object.keys(o))
      copy[k] = reviveControlGraph(o[k], SendClass, CommandClass, seen)
    return copy
  }
  seen?.set(x, out)
  return out
}

Send.revive = Command.revive = (x) => reviveControlGraph(x, Send, Command)

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
