/**
 * Scripted replies as a form edits them: the tool names a call may name, a new call's
 * arguments, and the arguments box's text read back as JSON.
 */
import type { GraphSpec, NodeSpec, ScriptedReply, ToolSpec } from '../../core/graph/schema'
import { validateJson } from '../../lib/jsonSchema'
import { paramForm } from './paramRows'

type Json = Record<string, unknown>
/** A scripted tool call. */
export type ToolCall = NonNullable<ScriptedReply['tool_calls']>[number]
/** A tool call's arguments, a JSON object. */
export type CallArgs = NonNullable<ToolCall['args']>

/**
 * The tools a model node's calls may name: its bound tools node's first, then every other
 * tools node's, each name once.
 */
export function toolsForModel(doc: Pick<GraphSpec, 'nodes'>, model: NodeSpec): ToolSpec[] {
  const toolsNodes = doc.nodes.filter((n) => n.kind === 'tools')
  const bound = toolsNodes.filter((n) => n.id === model.bindTools)
  const seen = new Set<string>()
  const out: ToolSpec[] = []
  for (const n of [...bound, ...toolsNodes]) {
    for (const t of n.tools ?? []) {
      if (seen.has(t.name)) continue
      seen.add(t.name)
      out.push(t)
    }
  }
  return out
}

/** A value of a JSON Schema type to start from: `""`, `0`, `false`, `[]`, `{}`, else null. */
function placeholder(schema: unknown): CallArgs[string] {
  const type = typeof schema === 'object' && schema !== null ? (schema as Json).type : undefined
  switch (type) {
    case 'string':
      return ''
    case 'number':
    case 'integer':
      return 0
    case 'boolean':
      return false
    case 'array':
      return []
    case 'object':
      return {}
    default:
      return null
  }
}

/** The arguments of a new call of a tool: its required parameters, each a placeholder. */
export function argsSkeleton(tool: ToolSpec | undefined): CallArgs {
  const form = paramForm(tool?.parameters)
  if (!form) return {}
  return Object.fromEntries(
    form.rows.filter((r) => r.required).map((r) => [r.name, placeholder(r.schema)]),
  ) as CallArgs
}

/** The text of the arguments box read back: a JSON object, or why not. */
export type ArgsParse = { ok: true; value: CallArgs } | { ok: false; error: string }

export function parseArgsText(text: string): ArgsParse {
  if (text.trim() === '') return { ok: true, value: {} }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (e) {
    return { ok: false, error: `Not JSON: ${(e as Error).message}` }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, error: 'Not a JSON object: the arguments are {"name": value, …}.' }
  }
  return { ok: true, value: value as CallArgs }
}

/** The arguments box's text: compact JSON. */
export const formatArgs = (args: CallArgs | undefined) => JSON.stringify(args ?? {})

/**
 * Why a call's arguments would fail the tool's parameters when the tools node runs it (as
 * LangChain's tool does), or null: fine, or no such tool to check against.
 */
export function argsMismatch(args: Json, tool: ToolSpec | undefined): string | null {
  if (!tool?.parameters) return null
  let outcome
  try {
    outcome = validateJson(args, tool.parameters)
  } catch {
    return null
  }
  if (outcome.valid) return null
  const first = outcome.errors.find((e) => e.keyword !== 'properties') ?? outcome.errors[0]
  const where = first?.instanceLocation.replace(/^#\/?/, '') ?? ''
  return `Does not match ${tool.name}'s parameters${where ? ` at ${where}` : ''}: ${first?.error ?? 'invalid'}`
}

/** A reply with one of its fields replaced (`undefined`: the key goes). */
export function patchReply<K extends keyof ScriptedReply>(
  reply: ScriptedReply,
  key: K,
  value: ScriptedReply[K] | undefined,
): ScriptedReply {
  const next: Json = { ...reply }
  if (value === undefined) delete next[key as string]
  else next[key as string] = value
  return next as ScriptedReply
}
