/**
 * The state of one function's translation: its options, its lexical scopes, and the
 * expression context that reads the state schema (which fields are always there, of which
 * kinds) for the expression translator.
 */
import type { FieldSpec } from '../core/graph/schema'
import { ANY, LIST, UNDEF } from './jsKinds'
import {
  refuse,
  translateExpr,
  type Binding,
  type ExprContext,
  type PyImport,
} from './jsToPythonExpr'
import { translateCommand } from './jsToPythonUpdate'
import type { PyNamer } from './pyNames'
import type { JsHelper } from './pyPrelude'
import { pyString } from './text'
import { declaredKinds } from './typeKinds'
import { fieldTypeOf } from '../core/graph/fieldTypes'

/** `tool`: a tool's code, `(args) => value`; its one parameter is the call's arguments. */
export type CodeKind = 'node' | 'router' | 'reducer' | 'tool'

export interface TranslateOptions {
  kind: CodeKind
  /** The graph's state schema. */
  fields: readonly FieldSpec[]
  /** Node code: whether a `Send` may start the node (its input is then the Send's argument). */
  sendTarget?: boolean
  /** Router code: whether the conditional edge has a path map. */
  hasPaths?: boolean
  /** Python names the function's locals must not take (the module's own). */
  reserved?: Iterable<string>
  /** What a guard's TypeError names, `node write` or `router of inc`. */
  where?: string
  /**
   * Node code: the Python name of each compiled subgraph its code may call, by the name it
   * calls it (`await subgraphs.x.invoke(input)` is `x_graph.invoke(input)`).
   */
  subgraphs?: ReadonlyMap<string, string>
}

export type Translation =
  | {
      ok: true
      params: string[]
      body: string[]
      imports: ReadonlySet<PyImport>
      /** The prelude helpers (guards, JavaScript semantics) the body calls. */
      helpers: ReadonlySet<JsHelper>
    }
  | { ok: false; reason: string }

/** Lexical scopes: a block's names are known (in the dead zone) before their declaration. */
export class Scope {
  private readonly names = new Map<string, Binding>()
  constructor(private readonly parent?: Scope) {}
  lookup(name: string): Binding | undefined {
    return this.names.get(name) ?? this.parent?.lookup(name)
  }
  set(name: string, b: Binding): void {
    this.names.set(name, b)
  }
}

export interface FnState {
  options: TranslateOptions
  fields: ReadonlyMap<string, FieldSpec>
  namer: PyNamer
  imports: Set<PyImport>
  helpers: Set<JsHelper>
}

/** What a node or router reads from the state: its kinds, and whether it is always there. */
function fieldRead(
  f: FieldSpec | undefined,
  sendTarget: boolean,
): { kinds: number; present: boolean } {
  if (!f || sendTarget) return { kinds: ANY, present: false }
  const reducer = !f.channel && f.reducer !== undefined && f.reducer !== 'overwrite'
  const present = reducer && f.default !== undefined
  const listy = f.reducer === 'append' || f.reducer === 'union' || f.reducer === 'add_messages'
  if (present && listy) return { kinds: LIST, present }
  // A declared type settles the kinds, but for a topic (always a list) and a list reducer
  // without a default (its first write, maybe one item, is kept as is).
  const declared = f.channel === 'topic' || listy ? null : declaredKinds(fieldTypeOf(f))
  if (declared !== null) return { kinds: present ? declared : declared | UNDEF, present }
  if (f.channel === 'topic') return { kinds: LIST | UNDEF, present: false }
  // A reducer field with a default always holds a fold of JSON writes; only a custom
  // reducer may have stored undefined (which then reads as missing).
  if (present && f.reducer !== 'custom') return { kinds: ANY & ~UNDEF, present }
  return { kinds: ANY, present }
}

export function exprContext(fn: FnState, scope: Scope): ExprContext {
  const { kind, sendTarget = false } = fn.options
  const ctx: ExprContext = {
    lookup: (name) => scope.lookup(name),
    readField: (name) => {
      const f = fn.fields.get(name)
      if (kind === 'router' && f?.channel === 'topic')
        refuse(
          `the router reads the topic \`${name}\` (LangGraph Python also shows the router the node's own write, even an empty one)`,
        )
      if (kind === 'router' && !f)
        refuse(
          `the router reads \`${name}\`, which is not a state field (LangGraph Python also shows the router the node's other output keys)`,
        )
      const read = fieldRead(f, sendTarget)
      const messages = !sendTarget && f?.reducer === 'add_messages'
      if (read.present) return { py: `state[${pyString(name)}]`, kinds: read.kinds, messages }
      const key = pyString(name)
      if (sendTarget) {
        // A Send's argument need not be a dict: `_js_get` guards that.
        const get = `${ctx.helper('_js_get')}(state, ${key}, ${pyString(ctx.where)}`
        return { py: `${get})`, kinds: read.kinds, missingPy: `${get}, _MISSING)` }
      }
      return {
        py: `state.get(${key})`,
        kinds: read.kinds,
        missingPy: `state.get(${key}, _MISSING)`,
        messages,
      }
    },
    stateIsDict: kind !== 'reducer' && !sendTarget,
    use: (name) => fn.imports.add(name),
    helper: (name) => {
      fn.helpers.add(name)
      return name
    },
    where: fn.options.where ?? `${kind} function`,
    ...(fn.options.subgraphs !== undefined && { subgraphs: fn.options.subgraphs }),
    command: (node) => translateCommand(node, ctx, fn.fields),
    translate: (node) => translateExpr(node, ctx),
    withParams: (params) => {
      const inner = new Scope(scope)
      const py = params.map((p) => {
        const name = fn.namer.take(p.name, 'v')
        inner.set(p.name, { kind: 'local', py: name, kinds: p.kinds })
        return name
      })
      return { ctx: exprContext(fn, inner), py }
    },
  }
  return ctx
}
