import type { FieldSpec } from '../../core/graph/schema'
import { CommitInput } from './controls'
import {
  freshName,
  paramForm,
  paramNameProblem,
  parametersOf,
  schemaFieldType,
  withDescription,
  withType,
  type ParamRow,
} from './paramRows'
import { TypeSelect } from './TypeSelect'

type Json = Record<string, unknown>

/**
 * A tool's parameters as rows: name, type (the state fields' type select), required,
 * description; add and remove. Each change is one new `parameters` schema; a name that is
 * empty or taken stays in its input, explained, and is not applied.
 */
export function ParamsForm(props: {
  tool: string
  parameters: Json | undefined
  onChange(parameters: Json): void
}) {
  const { tool, parameters, onChange } = props
  const form = paramForm(parameters)
  if (!form) {
    return (
      <p className="muted kind-form-note">
        These parameters are not a plain object schema: edit them in the JSON below.
      </p>
    )
  }
  const names = form.rows.map((r) => r.name)
  const set = (rows: ParamRow[]) => onChange(parametersOf({ ...form, rows }))
  const setRow = (i: number, row: ParamRow) => set(form.rows.map((r, j) => (j === i ? row : r)))
  const add = () => {
    const name = freshName('param', names)
    set([...form.rows, { name, schema: { type: 'string' }, required: false }])
  }
  return (
    <div className="tool-params" role="group" aria-label={`Parameters of ${tool}`}>
      <span className="tool-part-title">Parameters</span>
      {form.rows.length === 0 && <p className="muted kind-form-note">None: called with {'{}'}.</p>}
      {form.rows.map((row, i) => (
        <ParamRowForm
          key={`${i}:${row.name}`}
          tool={tool}
          row={row}
          others={names.filter((_, j) => j !== i)}
          onChange={(next) => setRow(i, next)}
          onRemove={() => set(form.rows.filter((_, j) => j !== i))}
        />
      ))}
      <button type="button" className="small-button" onClick={add}>
        Add parameter
      </button>
    </div>
  )
}

function ParamRowForm(props: {
  tool: string
  row: ParamRow
  others: readonly string[]
  onChange(row: ParamRow): void
  onRemove(): void
}) {
  const { tool, row, others, onChange, onRemove } = props
  const path = `${tool}.${row.name}`
  const type = schemaFieldType(row.schema)
  const description = typeof row.schema.description === 'string' ? row.schema.description : ''
  // TypeSelect edits a state field's type; a parameter's is the same JSON Schema subset.
  const asField: FieldSpec =
    type === undefined || type === null ? { name: path } : { name: path, type }
  return (
    <div className="param-row">
      <CommitInput
        key={row.name}
        className="param-name"
        label={`Name of parameter ${path}`}
        value={row.name}
        validate={(text) => paramNameProblem(text, others)}
        onCommit={(name) => onChange({ ...row, name })}
      />
      <button
        type="button"
        className="small-button param-remove"
        aria-label={`Remove parameter ${path}`}
        title={`Remove parameter ${path}`}
        onClick={onRemove}
      >
        Remove
      </button>
      <span className="param-type">
        {type === null ? (
          <span className="muted">type: in the JSON</span>
        ) : (
          <TypeSelect
            field={asField}
            onType={({ type: t }) => onChange({ ...row, schema: withType(row.schema, t) })}
          />
        )}
        <label className="inline-check">
          <input
            type="checkbox"
            aria-label={`Required ${path}`}
            checked={row.required}
            onChange={(e) => onChange({ ...row, required: e.target.checked })}
          />
          required
        </label>
      </span>
      <CommitInput
        key={`d:${description}`}
        className="param-description"
        label={`Description of parameter ${path}`}
        placeholder="description"
        value={description}
        onCommit={(text) => onChange({ ...row, schema: withDescription(row.schema, text) })}
      />
    </div>
  )
}
