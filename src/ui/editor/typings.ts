import type { FieldSpec, GraphSpec } from '../../core/graph/schema'

/** What a piece of code is, which decides the function type it is checked against. */
export type CodeKind =
  | { kind: 'node' }
  | { kind: 'router' }
  | { kind: 'reducer'; field: string }
  /** A tool's code: `(args) => result`, `args` of the TypeScript type given. */
  | { kind: 'tool'; args: string }

const PRELUDE = `/** LangGraph's START node name. */
declare const START: '__start__'
/** LangGraph's END node name. */
declare const END: '__end__'
/** Runs \`node\` in the next super-step with \`arg\` as its input instead of the state. */
declare class Send<A = unknown> {
  constructor(node: string, arg: A)
  node: string
  args: A
}
/** A node's return value that updates the state and/or chooses where to go next. */
declare class Command {
  constructor(options: { update?: Update; goto?: Goto; resume?: unknown; graph?: string })
  /** \`graph: Command.PARENT\` addresses the parent graph. */
  static readonly PARENT: '__parent__'
}
/** Pauses the run; returns the value the run is resumed with. */
declare function interrupt<R = unknown>(value: unknown): R
type Goto = string | Send | (string | Send)[]
/** A chat message as add_messages stores it. */
interface Message {
  type: 'human' | 'ai' | 'system' | 'tool' | 'function' | 'generic' | 'remove'
  content: unknown
  id?: string
  name?: string
  tool_calls?: { name: string; args: unknown; id?: string }[]
  tool_call_id?: string
}
/** What add_messages accepts: a message, a string (human), [role, content], {role, content}. */
type MessageLike = Message | string | [string, unknown] | { role: string; content: unknown }
type Awaitable<T> = T | Promise<T>
/** A node: \`(state) => update\`. */
type NodeFn = (state: State) => Awaitable<Update | Command | (Command | Update)[] | void | null>
/** A conditional edge's router: \`(state) => route\`. */
type RouterFn = (state: State) => Awaitable<Goto>
/** A custom reducer: \`(current, update) => next\`. */
type ReducerFn<K extends keyof State> = (current: State[K], update: any) => State[K]
`

/**
 * The TypeScript declarations (a `.d.ts`) the code editor loads for a graph: LangGraph's
 * globals in node code (`START`, `END`, `Send`, `Command`, `interrupt`), the state as
 * `interface State` with one property per field (types inferred from the default and the
 * reducer), `Update` (what a node may return), and `NodeFn`, `RouterFn`, `ReducerFn<K>`,
 * the types the editor checks each kind of code against (see `codeContextType`).
 */
export function typingsFor(doc: Pick<GraphSpec, 'state'>): string {
  const state = doc.state.map((f) => member(f, stateType(f), !isAlwaysSet(f)))
  const update = doc.state.map((f) => member(f, updateType(f), true))
  return [
    PRELUDE,
    `/** The graph's state, as a node reads it. */`,
    block('interface State', state),
    `/** A node's partial state update: field name to the value written. */`,
    block('interface Update', update),
    '',
  ].join('\n')
}

/** The type a piece of code is checked against, e.g. `NodeFn` or `ReducerFn<"best">`. */
export function codeContextType(code: CodeKind): string {
  switch (code.kind) {
    case 'node':
      return 'NodeFn'
    case 'router':
      return 'RouterFn'
    case 'reducer':
      return `ReducerFn<${JSON.stringify(code.field)}>`
    case 'tool':
      return `(args: ${code.args}) => unknown`
  }
}

/** The field's value type: messages, then what the default shows, then the reducer's. */
export function stateType(field: FieldSpec): string {
  if (field.channel === 'topic') return 'unknown[]'
  if (!field.channel && field.reducer === 'add_messages') return 'Message[]'
  const fromDefault = jsonType(field.default, 0)
  if (fromDefault !== 'unknown') return fromDefault
  if (field.channel) return 'unknown'
  switch (field.reducer) {
    case 'append':
    case 'union':
      return 'unknown[]'
    case 'add':
      return 'number'
    case 'merge':
      return 'Record<string, unknown>'
    default:
      return 'unknown'
  }
}

function updateType(field: FieldSpec): string {
  if (field.channel === 'topic') return 'unknown'
  if (field.channel) return stateType(field)
  switch (field.reducer) {
    case 'add_messages':
      return 'MessageLike | MessageLike[]'
    case 'append':
    case 'union': {
      const list = stateType(field)
      const item = list.endsWith('[]') ? list.slice(0, -2) : 'unknown'
      return item === 'unknown' ? 'unknown' : `${list} | ${item}`
    }
    case 'custom':
      return 'unknown'
    default:
      return stateType(field)
  }
}

/** A reducer field with a default always holds a value; any other field may be missing. */
function isAlwaysSet(field: FieldSpec): boolean {
  return (
    !field.channel &&
    !!field.reducer &&
    field.reducer !== 'overwrite' &&
    field.default !== undefined
  )
}

const MAX_DEPTH = 3

/** The TypeScript type of a JSON value: primitives, `T[]` of a uniform list, object shapes. */
export function jsonType(value: unknown, depth: number): string {
  if (value === undefined || value === null) return 'unknown'
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') {
    return typeof value
  }
  if (Array.isArray(value)) {
    const items = new Set(value.map((v) => jsonType(v, depth + 1)))
    const [only] = items
    return items.size === 1 && only !== undefined && depth < MAX_DEPTH ? arrayOf(only) : 'unknown[]'
  }
  const entries = Object.entries(value as Record<string, unknown>)
  if (entries.length === 0 || depth >= MAX_DEPTH) return 'Record<string, unknown>'
  const props = entries.map(([k, v]) => `${propertyName(k)}: ${jsonType(v, depth + 1)}`)
  return `{ ${props.join('; ')}; [key: string]: unknown }`
}

function arrayOf(item: string): string {
  return /^[\w.]+$/.test(item) ? `${item}[]` : `(${item})[]`
}

function member(field: FieldSpec, type: string, optional: boolean): string {
  const doc = field.description ? `  /** ${field.description.replace(/\*\//g, '*\\/')} */\n` : ''
  return `${doc}  ${propertyName(field.name)}${optional ? '?' : ''}: ${type}`
}

function block(head: string, members: string[]): string {
  return members.length ? `${head} {\n${members.join('\n')}\n}` : `${head} {}`
}

function propertyName(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name)
}
