/**
 * The JavaScript of a node, router or custom reducer as the body of a Python function, when
 * Python would do exactly what JavaScript does; otherwise the reason it is not translated.
 * Translated: a function of one `state` parameter (or a reducer's two) whose body is an
 * expression or a block of `const`/`let` bindings, `if`/`else`, `return` and
 * `throw new Error(…)`, over the expressions `jsToPythonExpr.ts` knows. Never guessed: where
 * the schema does not prove a value's type, it goes through a guard of the prelude
 * (`_js_number`, `_js_len`, …) that passes it unchanged or raises a TypeError where JavaScript
 * would do something else; a construct no guard makes exact falls back.
 */
import type { AnyNode, Pattern } from 'acorn'
import { walkTree } from '../lib/parseJs'
import { parseCode } from '../core/graph/codeFacts'
import { END } from '../core/graph/constants'
import { ANY } from './jsKinds'
import { Untranslatable, refuse, stateRead, staticKey } from './jsToPythonExpr'
import { statements } from './jsToPythonBody'
import { result } from './jsToPythonResults'
import {
  Scope,
  exprContext,
  type FnState,
  type TranslateOptions,
  type Translation,
} from './jsToPythonScope'
import { PyNamer } from './pyNames'

export type { PyImport } from './jsToPythonExpr'
export type { CodeKind, TranslateOptions, Translation } from './jsToPythonScope'

/**
 * Translates one piece of document code (`(state) => …`, or `(a, b) => …` for a reducer)
 * to the parameters and body lines of a Python function, or says why not.
 */
export function translateFunction(code: string, options: TranslateOptions): Translation {
  const fn: FnState = {
    options,
    fields: new Map(options.fields.map((f) => [f.name, f])),
    namer: new PyNamer(options.reserved),
    imports: new Set(),
    helpers: new Set(),
  }
  try {
    const root = parseCode(code)
    if (!root) return refuse('the code is not one expression')
    if (root.type !== 'ArrowFunctionExpression' && root.type !== 'FunctionExpression')
      return refuse('the code is not a function literal')
    if (root.generator) return refuse('a generator function')
    const scope = new Scope()
    const { params, prologue } = parameters(root.params, fn, scope)
    const body =
      root.body.type === 'BlockStatement'
        ? statements(root.body.body, fn, new Scope(scope), '')
        : [`return ${result(root.body, fn, scope)}`]
    const lines = [...prologue, ...body]
    return {
      ok: true,
      params,
      body: lines.length > 0 ? lines : ['return None'],
      imports: fn.imports,
      helpers: fn.helpers,
    }
  } catch (e) {
    if (e instanceof Untranslatable) return { ok: false, reason: e.message }
    throw e
  }
}

function parameters(
  params: Pattern[],
  fn: FnState,
  scope: Scope,
): { params: string[]; prologue: string[] } {
  if (fn.options.kind === 'reducer') {
    if (params.length > 2) refuse('a reducer with more than two parameters')
    const names = [0, 1].map((i) => {
      const p = params[i]
      if (p && p.type !== 'Identifier') refuse('a reducer parameter that is not a plain name')
      const py = fn.namer.take(p?.name ?? (i === 0 ? 'a' : 'b'), 'v')
      if (p) scope.set(p.name, { kind: 'local', py, kinds: ANY })
      return py
    })
    return { params: names, prologue: [] }
  }
  const state = firstParameter(params[0], fn, scope)
  if (params.length > 2) refuse('a third parameter (LangGraph passes the state and the run config)')
  const config = params[1]
  if (!config) return state
  if (fn.options.kind === 'tool')
    refuse('a second parameter of tool code (it gets its arguments only)')
  if (config.type !== 'Identifier') refuse('a config parameter that is not a plain name')
  // LangGraph Python passes the run config to a parameter named `config`.
  if (fn.namer.take('config', 'v') !== 'config') refuse('a config parameter (`config` is taken)')
  scope.set(config.name, { kind: 'config' })
  return { ...state, params: [...state.params, 'config'] }
}

/** The state parameter: a name, a `{ a, b }` pattern of fields, or none. */
function firstParameter(
  p: Pattern | undefined,
  fn: FnState,
  scope: Scope,
): { params: string[]; prologue: string[] } {
  if (!p) return { params: ['state'], prologue: [] }
  if (p.type === 'Identifier') {
    scope.set(p.name, { kind: 'state' })
    return { params: ['state'], prologue: [] }
  }
  if (p.type !== 'ObjectPattern') return refuse('a parameter pattern other than `{ a, b }`')
  const ctx = exprContext(fn, scope)
  const prologue = p.properties.map((prop) => {
    const key = prop.type === 'Property' ? staticKey(prop.key, prop.computed) : null
    if (prop.type !== 'Property' || key === null || prop.value.type !== 'Identifier')
      return refuse('a parameter pattern other than `{ a, b }`')
    const read = stateRead(key, ctx)
    const py = fn.namer.take(prop.value.name, 'v')
    scope.set(prop.value.name, { kind: 'local', py, kinds: read.kinds })
    return `${py} = ${read.py}`
  })
  return { params: ['state'], prologue }
}

/** Node ids some `new Send(name, …)` in `codes` may start, and whether a name is computed. */
export function findSendTargets(codes: Iterable<string>): {
  targets: Set<string>
  computed: boolean
} {
  const targets = new Set<string>()
  let computed = false
  const visit = (n: AnyNode): void => {
    if (
      (n.type === 'NewExpression' || n.type === 'CallExpression') &&
      n.callee.type === 'Identifier' &&
      n.callee.name === 'Send'
    ) {
      const first = n.arguments[0]
      if (first?.type === 'Literal' && typeof first.value === 'string') targets.add(first.value)
      else computed = true
    }
  }
  for (const code of codes) {
    const root = parseCode(code)
    if (root) walkTree(root, visit)
  }
  targets.delete(END)
  return { targets, computed }
}
