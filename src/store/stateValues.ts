import { z } from 'zod'
import type { FieldSpec, GraphSpec } from '../core/graph/schema'
import type { Json } from '../worker/protocol'

/**
 * What a value written to a field may look like, from its reducer and default: `add` takes
 * what its default is (a number or a list), `append`/`union` a list or one item,
 * `add_messages` a message or a list of them, `merge` an object; the rest take any JSON.
 */
function fieldValueSchema(f: FieldSpec): z.ZodType {
  const json = z.json()
  const message = z.looseObject({ content: z.unknown() })
  const d = f.default
  switch (f.channel ? 'any' : f.reducer) {
    case 'add':
      if (typeof d === 'number') return z.number()
      if (typeof d === 'string') return z.string()
      if (Array.isArray(d)) return z.array(json)
      return json
    case 'add_messages':
      return z.union([z.string(), message, z.array(z.union([z.string(), message]))])
    case 'merge':
      return z.record(z.string(), json)
    default:
      return json
  }
}

/** The schema of a partial state update (or an input): known fields only, each as above. */
export function stateUpdateSchema(spec: GraphSpec) {
  const shape = Object.fromEntries(spec.state.map((f) => [f.name, fieldValueSchema(f).optional()]))
  return z.strictObject(shape)
}

/**
 * Parses the text of a state update (or input) and checks it against the graph's schema.
 * The error says what is wrong and where: `JSON: …` or `count: expected number`.
 */
export function parseStateUpdate(
  spec: GraphSpec,
  text: string,
): { ok: true; values: { [key: string]: Json } } | { ok: false; error: string } {
  let raw: unknown
  try {
    raw = JSON.parse(text.trim() === '' ? '{}' : text)
  } catch (e) {
    return { ok: false, error: `Not JSON: ${(e as Error).message}` }
  }
  const r = stateUpdateSchema(spec).safeParse(raw)
  if (r.success) return { ok: true, values: r.data as { [key: string]: Json } }
  const issue = r.error.issues[0]
  if (!issue) return { ok: false, error: 'Not a state update.' }
  if (issue.code === 'unrecognized_keys') {
    const known = spec.state.map((f) => f.name).join(', ') || 'none'
    return {
      ok: false,
      error: `${issue.keys.join(', ')}: not a field of the state (fields: ${known})`,
    }
  }
  const where = issue.path.length ? issue.path.join('.') : 'the update'
  return { ok: false, error: `${where}: ${issue.message}` }
}
