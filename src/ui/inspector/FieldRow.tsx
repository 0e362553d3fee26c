import { useRef } from 'react'
import type { GraphEdit } from '../../core/graph/edits'
import type { GraphIssue } from '../../core/graph/issues'
import type { FieldSpec } from '../../core/graph/schema'
import { CodeEditor } from '../editor/CodeEditor'
import { CommitInput, IssueList } from './controls'
import { DefaultInput } from './DefaultInput'
import { CHANNEL_CHOICES, channelChoice, choicePatch, type ChannelChoice } from './fieldEdits'
import { reducerPreview } from './reducerPreview'
import { refocusAfterRename, useRefocusAfterRename } from './refocus'
import { codeMarkers } from './selection'
import { useDraft } from './useDraft'
import { showBidiControls } from '../bidi'
import { TypeSelect } from './TypeSelect'

/** Props of one row of the state table. */
export interface FieldRowProps {
  field: FieldSpec
  /** The other fields' names, to refuse a duplicate name. */
  others: readonly string[]
  issues: readonly GraphIssue[]
  onEdit(edit: GraphEdit): void
  typings?: string | undefined
  autoFocus?: boolean
  /** The row a clicked problem asked for (SchemaPanel focuses its name input). */
  highlighted?: boolean
  /** Focus left the row: the highlight may go. */
  onLeave?: () => void
}

const CODE_DELAY_MS = 300

/** One state field as a row of cells: name, reducer, type and preview, default, description. */
export function FieldRow(props: FieldRowProps) {
  const { field, others, issues, onEdit, typings, autoFocus, highlighted, onLeave } = props
  const name = field.name
  const row = useRef<HTMLDivElement>(null)
  // A rename mounts a new row (keyed by the name): its name field keeps the focus.
  useRefocusAfterRename(row, `field:${name}`, '.field-name input')
  const update = (patch: Partial<FieldSpec>) => onEdit({ type: 'updateField', name, patch })
  const choice = channelChoice(field)
  const preview = reducerPreview(field)
  const validateName = (text: string) =>
    text.trim() === ''
      ? 'A field needs a name.'
      : others.includes(text)
        ? `Another field is named ${text}.`
        : null
  return (
    <div
      ref={row}
      role="row"
      className={highlighted ? 'field-row field-row-focused' : 'field-row'}
      aria-current={highlighted || undefined}
      onBlur={(e) => {
        const to = e.relatedTarget
        if (!(to instanceof Node && e.currentTarget.contains(to))) onLeave?.()
      }}
    >
      <div role="cell" className="field-name">
        <CommitInput
          key={name}
          label="Field name"
          value={name}
          validate={validateName}
          onCommit={(text) => {
            refocusAfterRename(`field:${text}`)
            update({ name: text })
          }}
          autoFocus={autoFocus}
        />
      </div>
      <div role="cell" className="field-reducer">
        <select
          aria-label={`Reducer of ${name}`}
          value={choice}
          onChange={(e) => {
            const patch = choicePatch(field, e.target.value as ChannelChoice)
            if (patch) update(patch)
          }}
        >
          {CHANNEL_CHOICES.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
        {choice === 'topic' && (
          <label className="inline-check">
            <input
              type="checkbox"
              aria-label={`Accumulate ${name}`}
              checked={field.accumulate ?? false}
              onChange={(e) => update({ accumulate: e.target.checked })}
            />
            accumulate
          </label>
        )}
        <TypeSelect field={field} onType={update} />
      </div>
      <div role="cell" className={`field-preview preview-${preview.kind}`}>
        <output aria-label={`Preview of ${name}`} title={preview.note ?? preview.code}>
          {preview.text}
        </output>
      </div>
      <div role="cell" className="field-default">
        <DefaultInput
          label={`Default of ${name}`}
          value={field.default}
          onValue={(v) => update({ default: v as FieldSpec['default'] })}
        />
      </div>
      <div role="cell" className="field-description">
        <CommitInput
          key={field.description ?? ''}
          label={`Description of ${name}`}
          placeholder="description"
          value={field.description ?? ''}
          onCommit={(text) => update({ description: text === '' ? undefined : text })}
        />
      </div>
      <div role="cell" className="field-actions">
        <button
          type="button"
          aria-label="Delete field"
          title={`Delete field ${showBidiControls(name)}`}
          onClick={() => onEdit({ type: 'deleteField', name })}
        >
          Delete
        </button>
      </div>
      {choice === 'custom' && (
        <div role="cell" className="field-code">
          <ReducerCode
            field={field}
            issues={issues}
            typings={typings}
            onCode={(code) => update({ code })}
          />
        </div>
      )}
      {issues.length > 0 && (
        <div role="cell" className="field-issues">
          <IssueList issues={issues} label={`Problems of ${name}`} />
        </div>
      )}
    </div>
  )
}

function ReducerCode(props: {
  field: FieldSpec
  issues: readonly GraphIssue[]
  typings: string | undefined
  onCode(code: string): void
}) {
  const { field, issues, typings, onCode } = props
  const draft = useDraft(field.code ?? '', onCode, CODE_DELAY_MS)
  return (
    <CodeEditor
      label={`Reducer code of ${field.name}`}
      value={draft.text}
      onChange={draft.change}
      onBlur={draft.flush}
      code={{ kind: 'reducer', field: field.name }}
      typings={typings}
      markers={codeMarkers(issues, 'code')}
      height={72}
    />
  )
}
