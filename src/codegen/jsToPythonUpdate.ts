/**
 * What a node writes, translated: state updates (object literals whose keys are fields),
 * `new Command({ update, goto })`, and message literals for `add_messages` fields, which
 * LangChain (Python) turns into message objects by rules of its own.
 */
import type { AnyNode, Expression, ObjectExpression, Property, SpreadElement } from 'acorn'
import type { FieldSpec } from '../core/graph/schema'
import { DICT, LIST, OPAQUE, STR, UNDEF, describeKinds, only } from './jsKinds'
import {
  PREC,
  dictItems,
  refuse,
  staticKey,
  translateExpr,
  wrap,
  type ExprContext,
  type PyExpr,
} from './jsToPythonExpr'
import { pyString } from './text'

function atom(py: string, kinds: number, pure: boolean): PyExpr {
  return { py, prec: PREC.atom, kinds, pure }
}

/** A field a binary-operator channel folds (a reducer other than overwrite). */
function isReducerField(f: FieldSpec | undefined): boolean {
  return f !== undefined && !f.channel && f.reducer !== undefined && f.reducer !== 'overwrite'
}

/**
 * `{ "__overwrite__": v }` or `{ type: "__overwrite__", value }`: LangGraph Python reads
 * such a write to a reducer field as `Overwrite(v)`, Superstep folds it as a value.
 */
function looksLikeOverwrite(node: AnyNode): boolean {
  if (node.type !== 'ObjectExpression') return false
  return node.properties.some(
    (p) =>
      p.type === 'Property' &&
      (staticKey(p.key, p.computed) === '__overwrite__' ||
        (staticKey(p.key, p.computed) === 'type' &&
          p.value.type === 'Literal' &&
          p.value.value === '__overwrite__')),
  )
}

/** An object literal a node returns (or a Command carries) as a state update. */
export function translateUpdate(
  node: ObjectExpression,
  ctx: ExprContext,
  fields: ReadonlyMap<string, FieldSpec>,
): PyExpr {
  const { items, pure } = dictItems(node, ctx, (key, valueNode) => {
    const field = fields.get(key)
    if (field?.reducer === 'add_messages' && !field.channel) return messages(valueNode, ctx)
    if (isReducerField(field) && looksLikeOverwrite(valueNode))
      refuse(`a write to \`${key}\` shaped like LangGraph Python's Overwrite`)
    const v = translateExpr(valueNode, ctx)
    if (field && v.kinds & UNDEF)
      refuse(
        `a write to \`${key}\` of a value that may be undefined (Superstep skips or stores undefined, Python stores None)`,
      )
    return v
  })
  return atom(`{${items.join(', ')}}`, DICT, pure)
}

/** The static-keyed properties of an object literal, refusing spreads, methods, repeats. */
function plainProperties(node: ObjectExpression, what: string): Map<string, Expression> {
  const out = new Map<string, Expression>()
  for (const p of node.properties as (Property | SpreadElement)[]) {
    if (p.type === 'SpreadElement') refuse(`a spread in ${what}`)
    const key = staticKey(p.key, p.computed)
    if (key === null || p.kind !== 'init' || p.method) refuse(`a computed key or method in ${what}`)
    if (out.has(key)) refuse(`\`${key}\` twice in ${what}`)
    out.set(key, p.value as Expression)
  }
  return out
}

/** `new Command({ update, goto, graph: Command.PARENT })` as `Command(update=…, goto=…, graph=…)`. */
export function translateCommand(
  node: AnyNode & { type: 'NewExpression' },
  ctx: ExprContext,
  fields: ReadonlyMap<string, FieldSpec>,
): PyExpr {
  const [arg, ...rest] = node.arguments
  if (rest.length > 0) refuse('`new Command()` with more than one argument')
  const kwargs: string[] = []
  if (arg) {
    if (arg.type !== 'ObjectExpression') refuse('`new Command()` of anything but an object literal')
    for (const [key, value] of plainProperties(arg, 'a Command')) {
      if (key === 'update') {
        if (value.type !== 'ObjectExpression')
          refuse('a Command whose `update` is not an object literal')
        kwargs.push(`update=${translateUpdate(value, ctx, fields).py}`)
      } else if (key === 'goto') {
        const goto =
          value.type === 'ArrayExpression'
            ? atom(
                `[${value.elements.map((e) => wrap(gotoTarget(e, ctx), PREC.ternary)).join(', ')}]`,
                LIST,
                false,
              )
            : gotoTarget(value, ctx)
        kwargs.push(`goto=${wrap(goto, PREC.ternary)}`)
      } else if (key === 'graph') {
        // A handoff to the parent graph (from inside a subgraph): LangGraph Python's own words.
        const parent =
          value.type === 'MemberExpression' &&
          !value.computed &&
          value.object.type === 'Identifier' &&
          value.object.name === 'Command' &&
          value.property.type === 'Identifier' &&
          value.property.name === 'PARENT'
        if (!parent) refuse('a Command whose `graph` is not `Command.PARENT`')
        kwargs.push('graph=Command.PARENT')
      } else
        refuse(
          `\`${key}\` in a Command (only \`update\`, \`goto\` and \`graph: Command.PARENT\` are translated)`,
        )
    }
  }
  ctx.use('Command')
  return atom(`Command(${kwargs.join(', ')})`, OPAQUE, false)
}

function gotoTarget(node: AnyNode | null, ctx: ExprContext): PyExpr {
  if (node === null || node.type === 'SpreadElement') return refuse('a hole or spread in `goto`')
  const e = translateExpr(node, ctx)
  const isSend =
    node.type === 'NewExpression' &&
    node.callee.type === 'Identifier' &&
    node.callee.name === 'Send'
  if (!isSend && !only(e.kinds, STR)) refuse(`a \`goto\` of ${describeKinds(e.kinds)}`)
  return e
}

/** Message types both Superstep and LangChain (Python) accept in a dict. */
const MESSAGE_TYPES = new Set(['human', 'user', 'ai', 'assistant', 'system', 'developer', 'tool'])
const MESSAGE_KEYS = new Set(['content', 'id', 'name', 'tool_call_id', 'tool_calls'])

/** A write to an `add_messages` field: a message, or an array literal of messages. */
function messages(node: Expression, ctx: ExprContext): PyExpr {
  if (node.type !== 'ArrayExpression') {
    // A messages field's own list passed on (a handoff's `state.messages`): LangChain objects
    // in Python, which add_messages merges by id as it merges Superstep's JSON of them.
    const read = ctx.translate(node)
    if (read.messages) return read
    return message(node, ctx)
  }
  const items = node.elements.map((e) =>
    e === null || e.type === 'SpreadElement'
      ? refuse('a hole or spread in a list of messages')
      : message(e, ctx),
  )
  return atom(
    `[${items.map((i) => wrap(i, PREC.ternary)).join(', ')}]`,
    LIST,
    items.every((i) => i.pure),
  )
}

function message(node: Expression, ctx: ExprContext): PyExpr {
  if (node.type === 'ObjectExpression') return messageLiteral(node, ctx)
  const e = translateExpr(node, ctx)
  if (only(e.kinds, STR)) return e
  return refuse(
    'a message that is neither text nor an object literal (LangChain reads messages its own way)',
  )
}

function stringProp(props: Map<string, Expression>, key: string, ctx: ExprContext): PyExpr {
  const node = props.get(key)
  if (!node) return refuse(`a message without \`${key}\``)
  const e = translateExpr(node, ctx)
  if (!only(e.kinds, STR)) refuse(`a message whose \`${key}\` may not be a string`)
  return e
}

/**
 * `{ type, content, id?, name?, tool_call_id?, tool_calls? }` as a dict LangChain reads the
 * same way; `{ type: 'remove', id }` (which has no content, and LangChain's dicts need one)
 * as `RemoveMessage(id=…)`.
 */
function messageLiteral(node: ObjectExpression, ctx: ExprContext): PyExpr {
  const props = plainProperties(node, 'a message')
  if (props.has('type') && props.has('role')) refuse('a message with both `type` and `role`')
  const roleKey = props.has('type') ? 'type' : 'role'
  const roleNode = props.get(roleKey)
  const role = roleNode?.type === 'Literal' ? roleNode.value : undefined
  if (role === 'remove' && [...props.keys()].every((k) => k === roleKey || k === 'id')) {
    const id = stringProp(props, 'id', ctx)
    ctx.use('RemoveMessage')
    return atom(`RemoveMessage(id=${wrap(id, PREC.ternary)})`, OPAQUE, id.pure)
  }
  if (typeof role !== 'string' || !MESSAGE_TYPES.has(role))
    refuse('a message whose type is not a literal LangChain knows')
  const items: string[] = [`${pyString(roleKey)}: ${pyString(role)}`]
  let pure = true
  for (const [key, value] of props) {
    if (key === roleKey) continue
    if (!MESSAGE_KEYS.has(key)) refuse(`\`${key}\` in a message`)
    const v = key === 'tool_calls' ? toolCalls(value, role, ctx) : stringProp(props, key, ctx)
    pure &&= v.pure
    items.push(`${pyString(key)}: ${wrap(v, PREC.ternary)}`)
  }
  if (!props.has('content')) refuse('a message without `content`')
  if (role === 'tool' && !props.has('tool_call_id')) refuse('a tool message without `tool_call_id`')
  return atom(`{${items.join(', ')}}`, DICT, pure)
}

/** `[{ name, args, id }, …]`: the tool calls of an AI message, each with all three. */
function toolCalls(node: Expression, role: string, ctx: ExprContext): PyExpr {
  if (role !== 'ai' && role !== 'assistant')
    refuse('`tool_calls` on a message that is not an AI message')
  if (node.type !== 'ArrayExpression') return refuse('`tool_calls` that is not an array literal')
  const calls = node.elements.map((e) => {
    if (e?.type !== 'ObjectExpression') return refuse('a tool call that is not an object literal')
    const props = plainProperties(e, 'a tool call')
    if (props.size !== 3 || !props.has('args'))
      refuse('a tool call without exactly name, args and id')
    const args = translateExpr(props.get('args') as Expression, ctx)
    if (!only(args.kinds, DICT)) refuse('tool call `args` that may not be an object')
    const name = stringProp(props, 'name', ctx)
    const id = stringProp(props, 'id', ctx)
    const entries = [...props.keys()].map((k) => {
      const v = k === 'args' ? args : k === 'name' ? name : id
      return `${pyString(k)}: ${wrap(v, PREC.ternary)}`
    })
    return `{${entries.join(', ')}}`
  })
  return atom(`[${calls.join(', ')}]`, LIST, false)
}
