/**
 * The `State` TypedDict of the Python export: one key per field, annotated with its reducer
 * (`Annotated[typ, reducer]`) or channel (`Annotated[list, Topic(Any)]`). A class when every
 * field name can be a class attribute, else the functional form, whose keys are the exact
 * names.
 */
import type { FieldSpec } from '../core/graph/schema'
import { isPlainFieldName } from './pyNames'
import { use, type PyModule } from './pyModule'
import type { PyHelper } from './pyPrelude'
import { pyValue } from './pyText'
import { pyCommentText, pyProse, pyString } from './text'
import { fieldTypeOf, type TypeDesc } from '../core/graph/fieldTypes'
import { isPyZero, pyType } from './pyTypes'

const NAMED: Partial<Record<string, PyHelper>> = {
  append: '_append',
  add: '_add',
  union: '_union',
  merge: '_merge',
}

/**
 * The `typ` of a reducer field: LangGraph starts the channel from `typ()`. `Any()` raises,
 * so a field without a default starts empty and keeps its first write as is (as Superstep
 * does); `int()`, `str()`, `list()`, `dict()`, `bool()` give the defaults 0, "", [], {},
 * false; any other default needs `_Default`.
 */
function startType(m: PyModule, d: unknown): string {
  if (d === undefined) return 'Any'
  if (typeof d === 'number' && Object.is(d, 0)) return 'int'
  if (d === '') return 'str'
  if (d === false) return 'bool'
  if (Array.isArray(d) && d.length === 0) return 'list'
  if (typeof d === 'object' && d !== null && !Array.isArray(d) && Object.keys(d).length === 0)
    return 'dict'
  m.helpers.add('_Default')
  return `_Default(${pyValue(d)})`
}

function describeDefault(d: unknown): string {
  return d === undefined
    ? 'no default (the first write is kept as is)'
    : `default ${pyCommentText(JSON.stringify(d))}`
}

/**
 * The `typ` of a typed reducer field: the declared type where calling it gives the default
 * (`list[str]` for `[]`), else `_Typed(type, default)`, or `_Typed(type)` without a default.
 */
function typedStart(m: PyModule, t: TypeDesc, d: unknown): string {
  const typ = pyType(m, t)
  if (d !== undefined && isPyZero(t, d)) return typ
  m.helpers.add('_Typed')
  return d === undefined ? `_Typed(${typ})` : `_Typed(${typ}, ${pyValue(d)})`
}

/** A field's annotation and the comment that says what it does. */
function annotation(m: PyModule, f: FieldSpec): { type: string; comment: string } {
  const typing = (name: string) => use(m, 'typing', name)
  const ignored = f.default !== undefined ? ', its default ignored (as in LangGraph.js)' : ''
  const t = fieldTypeOf(f)
  const typed = t.kind !== 'any'
  if (f.channel === 'topic') {
    typing('Annotated')
    use(m, 'langgraph.channels', 'Topic')
    const item = typed && t.kind === 'array' ? pyType(m, t.items) : (typing('Any'), 'Any')
    const list = item === 'Any' ? 'list' : `list[${item}]`
    const args = f.accumulate ? `${item}, accumulate=True` : item
    const comment = f.accumulate ? 'topic, kept across steps' : 'topic, cleared every step'
    return { type: `Annotated[${list}, Topic(${args})]`, comment: comment + ignored }
  }
  if (f.channel === 'ephemeral') {
    typing('Annotated')
    use(m, 'langgraph.channels', 'EphemeralValue')
    const typ = typed ? pyType(m, t) : (typing('Any'), 'Any')
    return { type: `Annotated[${typ}, EphemeralValue(${typ})]`, comment: `ephemeral${ignored}` }
  }
  if (f.reducer === undefined || f.reducer === 'overwrite') {
    const typ = typed ? pyType(m, t) : (typing('Any'), 'Any')
    return { type: typ, comment: ignored === '' ? '' : ignored.slice(2) }
  }
  typing('Annotated')
  const typ = typed ? typedStart(m, t, f.default) : startType(m, f.default)
  if (typ === 'Any') typing('Any')
  let reducer: string
  if (f.reducer === 'add_messages') {
    use(m, 'langgraph.graph.message', 'add_messages')
    reducer = 'add_messages'
  } else if (f.reducer === 'custom') {
    reducer = m.reducers.get(f.name)?.name ?? 'None'
  } else {
    const helper = NAMED[f.reducer] as PyHelper
    m.helpers.add(helper)
    reducer = helper
  }
  const holdsDefault =
    typ.startsWith('_Default') || (typ.startsWith('_Typed') && f.default !== undefined)
  const shown = holdsDefault ? '' : `, ${describeDefault(f.default)}`
  return { type: `Annotated[${typ}, ${reducer}]`, comment: `reducer ${f.reducer}${shown}` }
}

/** The `State` TypedDict. */
export function emitState(m: PyModule): string {
  // pydantic (LangGraph's server derives the input schema with it) wants typing_extensions'
  // TypedDict before Python 3.12.
  use(m, 'typing_extensions', 'TypedDict')
  const fields = m.graph.state
  const entries = fields.map((f) => ({ f, ...annotation(m, f) }))
  const described = (f: FieldSpec, indent: string) =>
    f.description ? pyProse(f.description, indent) : []
  const trailing = (comment: string) => (comment ? `  # ${comment}` : '')
  if (fields.every((f) => isPlainFieldName(f.name))) {
    const lines = [`class ${m.stateName}(TypedDict, total=False):`]
    for (const { f, type, comment } of entries) {
      lines.push(...described(f, '    '), `    ${f.name}: ${type}${trailing(comment)}`)
    }
    if (entries.length === 0) lines.push('    pass')
    return lines.join('\n')
  }
  const lines = [
    `# Some field names are no Python identifiers, so ${m.stateName} is built from a dict of the names.`,
    `${m.stateName} = TypedDict(`,
    `    "${m.stateName}",`,
    '    {',
  ]
  for (const { f, type, comment } of entries) {
    lines.push(
      ...described(f, '        '),
      `        ${pyString(f.name)}: ${type},${trailing(comment)}`,
    )
  }
  lines.push('    },', '    total=False,', ')')
  return lines.join('\n')
}
