/**
 * JavaScript expressions (acorn trees) as Python expressions, only where the two languages
 * give the same result for every value the expression may see, or where a guard raises a
 * TypeError for the values on which they would differ. Each result carries the
 * kinds its value may have (`jsKinds.ts`); a construct whose meaning depends on a kind the
 * two languages treat differently throws `Untranslatable` with the reason, and the caller
 * falls back to a function the user translates by hand.
 */
import type { AnyNode, Expression, ObjectExpression, Property, SpreadElement } from 'acorn'
import {
  ANY,
  BOOL,
  DICT,
  INT,
  JSON_KINDS,
  LIST,
  NULL,
  NUM,
  OPAQUE,
  STR,
  UNDEF,
  describeKinds,
  only,
} from './jsKinds'
import {
  INHERITED,
  PREC,
  atom,
  guard,
  isGlobal,
  refuse,
  staticKey,
  wrap,
  type ExprContext,
  type PyExpr,
} from './jsToPythonCore'
import {
  asText,
  binary,
  compare,
  conditional,
  logical,
  template,
  truthTest,
  unary,
} from './jsToPythonOps'
import { pyNumber } from './pyText'
import { pyString } from './text'

export * from './jsToPythonCore'
export { truthTest } from './jsToPythonOps'

const NOT_TRANSLATED: Record<string, string> = {
  AwaitExpression: '`await`',
  ArrowFunctionExpression: 'a function inside the function (closures are not translated)',
  FunctionExpression: 'a function inside the function (closures are not translated)',
  AssignmentExpression: 'an assignment',
  UpdateExpression: '`++`/`--`',
  SequenceExpression: 'the comma operator',
  ChainExpression: 'optional chaining (`?.`)',
  TaggedTemplateExpression: 'a tagged template',
  ThisExpression: '`this`',
  YieldExpression: '`yield`',
  ClassExpression: 'a class',
  ImportExpression: '`import()`',
  MetaProperty: '`new.target`/`import.meta`',
  Super: '`super`',
}

/** Translates one expression. */
export function translateExpr(node: AnyNode, ctx: ExprContext): PyExpr {
  switch (node.type) {
    case 'Literal':
      return literal(node)
    case 'Identifier':
      return identifier(node.name, ctx)
    case 'TemplateLiteral':
      return template(node, ctx)
    case 'BinaryExpression':
      return binary(node.operator, node.left, node.right, ctx)
    case 'LogicalExpression':
      return logical(node.operator, node.left, node.right, ctx)
    case 'UnaryExpression':
      return unary(node.operator, node.argument, ctx)
    case 'ConditionalExpression':
      return conditional(node, ctx)
    case 'MemberExpression':
      return member(node, ctx)
    case 'ArrayExpression':
      return array(node.elements, ctx)
    case 'ObjectExpression':
      return object(node, ctx)
    case 'CallExpression':
      return call(node, ctx)
    case 'NewExpression':
      return construct(node, ctx)
    case 'AwaitExpression':
      return subgraphCall(node.argument, ctx)
    default:
      return refuse(NOT_TRANSLATED[node.type] ?? `a ${node.type}`)
  }
}

/**
 * `await subgraphs.<name>.invoke(input)`: the compiled subgraph called inside the node, its
 * output a dict (the subgraph's state, as in LangGraph.js). Any other `await` is refused.
 */
function subgraphCall(arg: Expression, ctx: ExprContext): PyExpr {
  const refused = '`await` of anything but `subgraphs.<name>.invoke(input)`'
  if (arg.type !== 'CallExpression' || arg.optional || arg.arguments.length !== 1)
    return refuse(refused)
  const invoke = arg.callee
  if (invoke.type !== 'MemberExpression' || invoke.optional) return refuse(refused)
  if (staticKey(invoke.property, invoke.computed) !== 'invoke') return refuse(refused)
  const sub = invoke.object
  if (sub.type !== 'MemberExpression' || sub.optional || sub.property.type === 'PrivateIdentifier')
    return refuse(refused)
  const name = staticKey(sub.property, sub.computed)
  const isScope = sub.object.type === 'Identifier' && sub.object.name === 'subgraphs'
  if (!isScope || name === null || ctx.lookup('subgraphs')) return refuse(refused)
  const graph = ctx.subgraphs?.get(name)
  if (graph === undefined)
    return refuse(`a call of subgraph \`${name}\`, which this graph does not see`)
  const [input] = args(arg.arguments, ctx)
  // The compiled subgraph by its module-level name, so LangGraph Python finds it in the
  // node's globals (its state, its checkpoints' namespace).
  const py = `${graph}.invoke(${wrap(input as PyExpr, PREC.ternary)})`
  return atom(py, DICT, false)
}

const LONE_SURROGATE = /\p{Cs}/u

function literal(node: AnyNode & { type: 'Literal' }): PyExpr {
  const v = node.value
  if (node.regex) return refuse('a regular expression')
  if (node.bigint !== undefined) return refuse('a BigInt')
  if (typeof v === 'string') return { ...atom(pyString(v), STR), lone: LONE_SURROGATE.test(v) }
  if (typeof v === 'number') {
    const py = pyNumber(v)
    return {
      py,
      prec: py.startsWith('-') ? PREC.unary : PREC.atom,
      kinds: Number.isSafeInteger(v) && Math.abs(v) < 2 ** 31 ? INT : NUM,
      pure: true,
    }
  }
  if (typeof v === 'boolean') return atom(v ? 'True' : 'False', BOOL)
  if (v === null) return atom('None', NULL)
  return refuse('a literal of unknown kind')
}

const CONFIG_USE =
  'a use of the run config other than reading `config.configurable.<name>` (writer, callbacks and the rest are not translated)'

function identifier(name: string, ctx: ExprContext): PyExpr {
  const b = ctx.lookup(name)
  if (b?.kind === 'state') return atom('state', ctx.stateIsDict ? DICT : ANY)
  if (b?.kind === 'local')
    return { ...atom(b.py, b.kinds), lone: b.lone === true, ...(b.messages && { messages: true }) }
  if (b?.kind === 'tdz') return refuse(`\`${name}\` used before its declaration`)
  if (b?.kind === 'config') return refuse(CONFIG_USE)
  if (name === 'undefined') return atom('None', UNDEF)
  if (name === 'END' || name === 'START') {
    ctx.use(name)
    return atom(name, STR)
  }
  return refuse(`the name \`${name}\` (only the state, local constants, END and START are known)`)
}

/** `state.key`: the field's value, or None when the state has no such key. */
export function stateRead(key: string, ctx: ExprContext): PyExpr {
  if (INHERITED.has(key)) refuse(`\`state.${key}\` (every JavaScript object inherits it)`)
  const read = ctx.readField(key)
  const e = { ...atom(read.py, read.kinds), ...(read.messages && { messages: true }) }
  return read.missingPy ? { ...e, missingPy: read.missingPy } : e
}

function member(node: AnyNode & { type: 'MemberExpression' }, ctx: ExprContext): PyExpr {
  if (node.optional) return refuse('optional chaining (`?.`)')
  if (node.object.type === 'Super') return refuse('`super`')
  const key =
    node.property.type === 'PrivateIdentifier' ? null : staticKey(node.property, node.computed)
  const obj = node.object
  if (obj.type === 'Identifier' && ctx.lookup(obj.name)?.kind === 'state') {
    if (key === null) return refuse('a state key computed at run time')
    return stateRead(key, ctx)
  }
  if (obj.type === 'Identifier' && ctx.lookup(obj.name)?.kind === 'config') {
    // The run's settings: a dict in LangGraph Python too (`config["configurable"]`).
    if (key !== 'configurable') return refuse(CONFIG_USE)
    return atom('config["configurable"]', DICT)
  }
  const target = translateExpr(obj, ctx)
  if (key === 'length' && !node.computed) {
    if (only(target.kinds, LIST)) return atom(`len(${target.py})`, INT, target.pure)
    // Strings count UTF-16 units in JavaScript: `_js_len` does too, and guards the rest.
    return guard(ctx, '_js_len', target, INT)
  }
  // `config.configurable['x']` reads a setting as `config.configurable.x` does.
  const setting =
    obj.type === 'MemberExpression' &&
    obj.object.type === 'Identifier' &&
    ctx.lookup(obj.object.name)?.kind === 'config'
  if (
    key !== null &&
    (!node.computed || setting) &&
    !INHERITED.has(key) &&
    !only(target.kinds, LIST | STR)
  ) {
    // A dict's key, undefined (None, or _MISSING where that matters) when it is not there.
    const where = pyString(ctx.where)
    const get = ctx.helper('_js_get')
    const obj = wrap(target, PREC.ternary)
    return {
      ...atom(`${get}(${obj}, ${pyString(key)}, ${where})`, ANY, target.pure),
      missingPy: `${get}(${obj}, ${pyString(key)}, ${where}, _MISSING)`,
    }
  }
  if (node.computed && only(target.kinds, LIST))
    return listItem(target, ctx.translate(node.property), false, ctx)
  const what = key === null ? 'a computed member' : node.computed ? `\`[${key}]\`` : `\`.${key}\``
  return refuse(
    `${what} of a value of ${describeKinds(target.kinds)} (a missing key or index is undefined in JavaScript and raises in Python)`,
  )
}

function array(elements: (Expression | SpreadElement | null)[], ctx: ExprContext): PyExpr {
  const items = elements.map((e) => {
    if (e === null) return refuse('an array with holes')
    if (e.type === 'SpreadElement') {
      const x = translateExpr(e.argument, ctx)
      if (!only(x.kinds, LIST)) refuse(`spreading a value of ${describeKinds(x.kinds)}`)
      return { ...x, py: `*${wrap(x, PREC.bitOr)}` }
    }
    return translateExpr(e, ctx)
  })
  return atom(
    `[${items.map((i) => wrap(i, PREC.ternary)).join(', ')}]`,
    LIST,
    items.every((i) => i.pure),
  )
}

/** The entries of an object literal as Python dict items (`"k": v`, `**x`). */
export function dictItems(
  node: ObjectExpression,
  ctx: ExprContext,
  value: (key: string, valueNode: Expression) => PyExpr = (_k, v) => translateExpr(v, ctx),
): { items: string[]; pure: boolean } {
  let pure = true
  const items = node.properties.map((p: Property | SpreadElement) => {
    if (p.type === 'SpreadElement') {
      const x = translateExpr(p.argument, ctx)
      if (!only(x.kinds, DICT))
        refuse(`spreading a value of ${describeKinds(x.kinds)} into an object`)
      pure &&= x.pure
      return `**${wrap(x, PREC.bitOr)}`
    }
    if (p.kind !== 'init' || p.method) return refuse('a getter, setter or method in an object')
    const key = staticKey(p.key, p.computed)
    if (key === null) return refuse('a computed object key')
    if (key === '__proto__' && !p.computed && !p.shorthand)
      return refuse('`__proto__:` in an object literal (it sets the prototype in JavaScript)')
    const v = value(key, p.value as Expression)
    pure &&= v.pure
    return `${pyString(key)}: ${wrap(v, PREC.ternary)}`
  })
  return { items, pure }
}

function object(node: ObjectExpression, ctx: ExprContext): PyExpr {
  const { items, pure } = dictItems(node, ctx)
  return atom(`{${items.join(', ')}}`, DICT, pure)
}

function args(list: (Expression | SpreadElement)[], ctx: ExprContext): PyExpr[] {
  return list.map((a) =>
    a.type === 'SpreadElement' ? refuse('spreading arguments') : translateExpr(a, ctx),
  )
}

function call(node: AnyNode & { type: 'CallExpression' }, ctx: ExprContext): PyExpr {
  if (node.optional) return refuse('optional chaining (`?.`)')
  const callee = node.callee
  if (callee.type === 'Identifier') {
    if (ctx.lookup(callee.name)) return refuse(`calling the value \`${callee.name}\``)
    const a = args(node.arguments, ctx)
    if (callee.name === 'interrupt' && a.length === 1) {
      ctx.use('interrupt')
      return atom(`interrupt(${wrap(a[0] as PyExpr, PREC.ternary)})`, JSON_KINDS, false)
    }
    if (callee.name === 'String' && a.length === 1) return asText(a[0] as PyExpr, '`String()`', ctx)
    return refuse(`a call of \`${callee.name}\``)
  }
  if (callee.type !== 'MemberExpression' || callee.optional)
    return refuse('a call of a computed function')
  const name =
    callee.property.type === 'PrivateIdentifier'
      ? null
      : staticKey(callee.property, callee.computed)
  if (isGlobal(callee.object, 'Math', ctx)) {
    const a = args(node.arguments, ctx)
    if ((name === 'max' || name === 'min') && a.length >= 2 && a.every((x) => only(x.kinds, INT)))
      return atom(
        `${name}(${a.map((x) => wrap(x, PREC.ternary)).join(', ')})`,
        INT,
        a.every((x) => x.pure),
      )
    return refuse(`\`Math.${name ?? '?'}()\` on these arguments`)
  }
  if (isGlobal(callee.object, 'Object', ctx)) {
    const a = args(node.arguments, ctx)
    const [value] = a
    if (name !== 'keys' || a.length !== 1 || !value || !only(value.kinds, DICT))
      return refuse(
        `\`Object.${name ?? '?'}()\` (only \`Object.keys()\` of an object is translated)`,
      )
    // Index keys first, as JavaScript lists an object's keys.
    return atom(`${ctx.helper('_js_keys')}(${wrap(value, PREC.ternary)})`, LIST, value.pure)
  }
  if (isGlobal(callee.object, 'JSON', ctx)) return jsonStringify(name, node.arguments, ctx)
  if (callee.object.type === 'Super') return refuse('`super`')
  const target = translateExpr(callee.object, ctx)
  if ((name === 'map' || name === 'filter' || name === 'reduce') && node.arguments[0]) {
    const list = only(target.kinds, LIST) ? target : guard(ctx, '_js_list', target, LIST)
    // A messages field's items are LangChain objects in Python: read as Superstep's JSON.
    const items = target.messages
      ? atom(`${ctx.helper('_js_messages')}(${wrap(list, PREC.ternary)})`, LIST, list.pure)
      : list
    return arrayCallback(name, items, node.arguments, ctx, target.messages ? DICT : ANY)
  }
  const a = args(node.arguments, ctx)
  if (name === 'sort' && a.length === 0 && only(target.kinds, LIST)) {
    // JavaScript sorts in place: only a list the code just made, which nothing else holds.
    if (callee.object.type !== 'CallExpression' && callee.object.type !== 'ArrayExpression')
      return refuse('`.sort()` of a list the code did not just make (JavaScript sorts in place)')
    return atom(
      `${ctx.helper('_js_sort')}(${wrap(target, PREC.ternary)}, ${pyString(ctx.where)})`,
      LIST,
      target.pure,
    )
  }
  if (name === 'at' && a.length === 1 && only(target.kinds, LIST))
    return listItem(target, a[0] as PyExpr, true, ctx)
  if (name === 'concat' && only(target.kinds, LIST)) return concatLists(target, a)
  if (name === 'join' && a.length <= 1 && !only(target.kinds, STR)) {
    const sep = a[0] ?? atom('","', STR)
    if (!only(sep.kinds, STR)) refuse('`.join()` with a separator that may not be a string')
    const list = only(target.kinds, LIST) ? target : guard(ctx, '_js_list', target, LIST)
    return atom(
      `${ctx.helper('_js_join')}(${wrap(list, PREC.ternary)}, ${wrap(sep, PREC.ternary)})`,
      STR,
      list.pure && sep.pure,
    )
  }
  if (
    name === 'includes' &&
    a.length === 1 &&
    (only(target.kinds, LIST) || only(target.kinds, STR))
  ) {
    const item = a[0] as PyExpr
    if (!only(item.kinds, STR))
      refuse('`.includes()` of a value that may not be a string (`1 in [True]` in Python)')
    if (item.lone || target.lone) refuse('`.includes()` of a string holding a lone surrogate')
    // Python evaluates `item in target` item first: only when one side has no effects.
    if (!item.pure && !target.pure) refuse('`.includes()` with effects on both sides')
    return compare(item, 'in', target)
  }
  return refuse(`the method \`.${name ?? '?'}()\` on a value of ${describeKinds(target.kinds)}`)
}

/**
 * `.map((x) => …)`, `.filter((x) => …)` and `.reduce((a, b) => …, init?)` with an arrow
 * function of an expression: a list comprehension, or `functools.reduce` over a lambda (both
 * raise a TypeError for an empty list without an initial value). Only the element (and the
 * accumulator) as parameters: JavaScript also passes the index and the array.
 */
function arrayCallback(
  name: 'map' | 'filter' | 'reduce',
  list: PyExpr,
  argNodes: (Expression | SpreadElement)[],
  ctx: ExprContext,
  itemKinds: number,
): PyExpr {
  const [fnNode, initNode, ...rest] = argNodes
  const arity = name === 'reduce' ? 2 : 1
  if (
    rest.length > 0 ||
    (name !== 'reduce' && initNode) ||
    fnNode?.type !== 'ArrowFunctionExpression' ||
    fnNode.async ||
    fnNode.body.type === 'BlockStatement' ||
    fnNode.params.length !== arity ||
    !fnNode.params.every((p) => p.type === 'Identifier')
  )
    return refuse(
      `\`.${name}()\` of anything but an arrow function of ${arity === 1 ? 'the element' : 'the accumulator and the element'} returning an expression`,
    )
  // The accumulator may be anything; the element is an item of the list.
  const params = fnNode.params.map((p, i) => ({
    name: (p as AnyNode & { name: string }).name,
    kinds: name === 'reduce' && i === 0 ? ANY : itemKinds,
  }))
  const inner = ctx.withParams(params)
  if (name === 'reduce') {
    if (initNode?.type === 'SpreadElement') return refuse('spreading arguments')
    const body = translateExpr(fnNode.body, inner.ctx)
    const init = initNode ? translateExpr(initNode, ctx) : null
    ctx.use('reduce')
    const lambda = `lambda ${inner.py.join(', ')}: ${wrap(body, PREC.ternary)}`
    const more = init ? `, ${wrap(init, PREC.ternary)}` : ''
    // The lambda's value, or the initial value for an empty list, or (none given) the one item.
    const kinds = body.kinds | (init ? init.kinds : ANY)
    return atom(`reduce(${lambda}, ${wrap(list, PREC.ternary)}${more})`, kinds, false)
  }
  const [item] = inner.py
  if (name === 'map') {
    const body = translateExpr(fnNode.body, inner.ctx)
    return atom(
      `[${wrap(body, PREC.ternary)} for ${item} in ${wrap(list, PREC.ternary)}]`,
      LIST,
      list.pure && body.pure,
    )
  }
  const test = truthTest(fnNode.body, inner.ctx, '`.filter()`')
  return atom(
    `[${item} for ${item} in ${wrap(list, PREC.ternary)} if ${wrap(test, PREC.ternary)}]`,
    LIST,
    list.pure && test.pure,
  )
}

/**
 * `list[i]` and `list.at(i)` as `_js_at(list, i, where)`: the item, or None (undefined) past
 * the ends, as JavaScript has it (Python would raise, or count a negative index from the end).
 */
function listItem(list: PyExpr, index: PyExpr, fromEnd: boolean, ctx: ExprContext): PyExpr {
  if (!only(index.kinds, NUM)) refuse('an index that may not be a number')
  const args = [list, index].map((e) => wrap(e, PREC.ternary))
  const end = fromEnd ? ', True' : ''
  const item = `${ctx.helper('_js_at')}(${args.join(', ')}, ${pyString(ctx.where)}${end})`
  // A messages field holds LangChain objects in Python: the item is read as Superstep's JSON.
  if (list.messages)
    return atom(`${ctx.helper('_js_message')}(${item})`, DICT | UNDEF, list.pure && index.pure)
  return atom(item, ANY, list.pure && index.pure)
}

/**
 * `JSON.stringify(value)` as `_js_json(value)`, exact for JSON values. Only of values read from
 * the state, literals and operators on them: an object built by the code may hold undefined,
 * which JavaScript leaves out of the text where Python's None would write `null`.
 */
function jsonStringify(
  name: string | null,
  argNodes: (Expression | SpreadElement)[],
  ctx: ExprContext,
): PyExpr {
  const [arg] = argNodes
  if (name !== 'stringify' || argNodes.length !== 1 || !arg || arg.type === 'SpreadElement')
    return refuse(`\`JSON.${name ?? '?'}()\` (only \`JSON.stringify(value)\` is translated)`)
  if (buildsObjects(arg, ctx))
    return refuse('`JSON.stringify()` of an object the code builds (undefined in it is left out)')
  const e = translateExpr(arg, ctx)
  // Anything but JSON (a message object in Python) makes `_js_json` raise, as a guard does.
  if (e.kinds & UNDEF && !e.missingPy)
    return refuse('`JSON.stringify()` of a value that may be undefined or null alike here')
  // A key that may be missing is read with the sentinel: undefined gives no text, null "null".
  if (e.kinds & UNDEF) ctx.helper('_MISSING')
  let py = e.kinds & UNDEF ? (e.missingPy as string) : wrap(e, PREC.ternary)
  if (e.messages) py = `${ctx.helper('_js_messages')}(${py})`
  return atom(`${ctx.helper('_js_json')}(${py})`, STR | (e.kinds & UNDEF), e.pure)
}

/** Whether `node` holds an object literal or a local (which may hold one). */
function buildsObjects(node: AnyNode, ctx: ExprContext): boolean {
  if (node.type === 'ObjectExpression') return true
  if (node.type === 'Identifier') return ctx.lookup(node.name)?.kind === 'local'
  // `s.events`: the name after the dot is a key, not a local.
  if (node.type === 'MemberExpression' && !node.computed) return buildsObjects(node.object, ctx)
  return Object.values(node).some((v: unknown) =>
    Array.isArray(v)
      ? v.some((x) => isNode(x) && buildsObjects(x, ctx))
      : isNode(v) && buildsObjects(v, ctx),
  )
}

function isNode(v: unknown): v is AnyNode {
  return typeof v === 'object' && v !== null && typeof (v as { type?: unknown }).type === 'string'
}

function concatLists(target: PyExpr, items: PyExpr[]): PyExpr {
  const parts = [
    target,
    ...items.map((x) => {
      if (only(x.kinds, LIST)) return x
      if ((x.kinds & (LIST | OPAQUE)) === 0) return atom(`[${wrap(x, PREC.ternary)}]`, LIST, x.pure)
      return refuse('`.concat()` of a value that may or may not be an array')
    }),
  ]
  return {
    py: parts.map((p, i) => wrap(p, i === 0 ? PREC.add : PREC.add + 1)).join(' + '),
    prec: parts.length === 1 ? target.prec : PREC.add,
    kinds: LIST,
    pure: parts.every((p) => p.pure),
  }
}

function construct(node: AnyNode & { type: 'NewExpression' }, ctx: ExprContext): PyExpr {
  const callee = node.callee
  const name = callee.type === 'Identifier' && !ctx.lookup(callee.name) ? callee.name : null
  if (name === 'Command') return ctx.command(node)
  if (name === 'Send') {
    const a = args(node.arguments, ctx)
    const [target, arg] = a
    if (a.length !== 2 || !target || !arg) return refuse('`new Send()` without two arguments')
    if (!only(target.kinds, STR)) refuse('`new Send()` to a node name that may not be a string')
    ctx.use('Send')
    return atom(
      `Send(${wrap(target, PREC.ternary)}, ${wrap(arg, PREC.ternary)})`,
      OPAQUE,
      target.pure && arg.pure,
    )
  }
  return refuse(`\`new ${name ?? '…'}\``)
}
