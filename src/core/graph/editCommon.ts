import { END, isReservedFieldName, RESERVED_NODE_NAMES, START } from './constants'
import type { EditResult } from './editTypes'
import type { GraphSpec } from './schema'

/** A successful edit (`doc` is the input itself when nothing changed). */
export const ok = (doc: GraphSpec): EditResult => ({ ok: true, doc })

/** A refused edit: the document comes back unchanged. */
export const fail = (doc: GraphSpec, error: string): EditResult => ({ ok: false, doc, error })

/** `items.map(f)`, or `items` itself when `f` returned every item unchanged. */
export function mapSame<T>(items: T[], f: (item: T, index: number) => T): T[] {
  let changed = false
  const next = items.map((item, i) => {
    const out = f(item, i)
    if (out !== item) changed = true
    return out
  })
  return changed ? next : items
}

/** `items.filter(keep)`, or `items` itself when every item is kept. */
export function filterSame<T>(items: T[], keep: (item: T, index: number) => boolean): T[] {
  const next = items.filter(keep)
  return next.length === items.length ? items : next
}

/**
 * An optional array after an edit: the original when untouched, `undefined` (the key goes
 * away) when the edit emptied it. An array that was already empty stays as it was.
 */
export function tidy<T>(before: T[] | undefined, after: T[] | undefined): T[] | undefined {
  if (after === before) return before
  return after && after.length > 0 ? after : undefined
}

/**
 * `obj` with `changes` applied, or `obj` itself when every change is already so. A change
 * to `undefined` removes the key, so optional arrays disappear when emptied.
 */
export function patch<T extends object>(obj: T, changes: Partial<T>): T {
  const keys = Object.keys(changes) as (keyof T)[]
  const same = keys.every((k) =>
    changes[k] === undefined ? !(k in obj) || obj[k] === undefined : changes[k] === obj[k],
  )
  if (same) return obj
  const next = { ...obj, ...changes }
  for (const k of keys) if (changes[k] === undefined) delete next[k]
  return next
}

/** Whether `doc` has a node `id`. */
export const hasNode = (doc: GraphSpec, id: string): boolean => doc.nodes.some((n) => n.id === id)

/** START or a node: where an edge may begin. */
export const isSource = (doc: GraphSpec, id: string): boolean => id === START || hasNode(doc, id)

/** END or a node: where an edge may end. */
export const isTarget = (doc: GraphSpec, id: string): boolean => id === END || hasNode(doc, id)

/** The name used in messages: START and END by their LangGraph names. */
export const label = (id: string): string =>
  id === START ? 'START' : id === END ? 'END' : `\`${id}\``

/**
 * Why `id` cannot name a new node of `doc` (null when it can): the rules of validate.ts's
 * node name checks, with the same messages. `except` is the node being renamed.
 */
export function nodeNameProblem(doc: GraphSpec, id: string, except?: string): string | null {
  if (RESERVED_NODE_NAMES.has(id)) return `Node \`${id}\` is reserved.`
  if (id === '') return 'A node id cannot be empty.'
  for (const ch of ['|', ':']) {
    if (id.includes(ch))
      return `Node \`${id}\`: "${ch}" is a reserved character and is not allowed in node names.`
  }
  if (id !== except && hasNode(doc, id)) return `Node \`${id}\` already present.`
  if (doc.state.some((f) => f.name === id))
    return `${id} is already being used as a state attribute (a.k.a. a channel), cannot also be used as a node name.`
  return null
}

/** Why `name` cannot name a new state field of `doc` (null when it can); `except` is renamed. */
export function fieldNameProblem(doc: GraphSpec, name: string, except?: string): string | null {
  if (name === '') return 'A state field needs a name.'
  if (isReservedFieldName(name))
    return `State field name \`${name}\` is reserved for LangGraph's own channels.`
  if (name !== except && doc.state.some((f) => f.name === name))
    return `State field \`${name}\` already exists.`
  if (hasNode(doc, name))
    return `\`${name}\` is already a node; a state field cannot have a node's name.`
  return null
}

/** The first of `base`, `base_2`, `base_3`… (or `base_1`… when `fromOne`) that is free. */
export function freeName(base: string, isFree: (id: string) => boolean, fromOne = false): string {
  if (!fromOne && isFree(base)) return base
  for (let i = fromOne ? 1 : 2; ; i++) {
    const id = `${base}_${i}`
    if (isFree(id)) return id
  }
}
