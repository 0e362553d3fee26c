import { useEffect, useRef, useState } from 'react'
import type { GraphEdit } from '../../core/graph/edits'
import type { GraphIssue } from '../../core/graph/issues'
import type { GraphSpec } from '../../core/graph/schema'
import { freshFieldName } from './fieldEdits'
import { FieldRow } from './FieldRow'
import { issuesAt } from './selection'

/** Props of the schema panel. */
export interface SchemaPanelProps {
  doc: GraphSpec
  issues: readonly GraphIssue[]
  onEdit(edit: GraphEdit): void
  /** The graph's declarations for the custom reducers' code editors (`typingsFor(doc)`). */
  typings?: string
  /** The row to scroll to, highlight and focus (its name input); a new `seq` does it again. */
  focus?: { index: number; seq: number } | null | undefined
}

const COLUMNS = [
  'Name',
  'Reducer and type',
  'Two writes in one step',
  'Default',
  'Description',
  'Actions',
]

/**
 * The state schema as an ARIA table ("State fields"), one row per field: name, reducer or
 * channel with a live preview of two concurrent writes, declared type, default (JSON),
 * description. Emits
 * `addField`, `updateField` and `deleteField`.
 */
export function SchemaPanel({ doc, issues, onEdit, typings, focus }: SchemaPanelProps) {
  const [added, setAdded] = useState<string | null>(null)
  const rows = useRef<HTMLDivElement>(null)
  // The highlight stays until focus leaves the row: `left` is the seq whose row it left.
  const [left, setLeft] = useState<number | null>(null)
  const focusIndex = focus?.index
  const focusSeq = focus?.seq
  useEffect(() => {
    if (focusIndex === undefined) return
    const row = rows.current?.children[focusIndex]
    row?.scrollIntoView?.({ block: 'nearest' })
    row?.querySelector<HTMLInputElement>('.field-name input')?.focus({ preventScroll: true })
  }, [focusIndex, focusSeq])
  const addField = () => {
    const name = freshFieldName(doc.state)
    setAdded(name)
    onEdit({ type: 'addField', field: { name } })
  }
  return (
    <section className="schema-panel" aria-labelledby="schema-heading">
      <h2 id="schema-heading">State</h2>
      <div role="table" aria-label="State fields" className="fields">
        <div role="rowgroup" className="visually-hidden">
          <div role="row">
            {COLUMNS.map((c) => (
              <span role="columnheader" key={c}>
                {c}
              </span>
            ))}
          </div>
        </div>
        <div role="rowgroup" ref={rows}>
          {doc.state.map((field, i) => (
            <FieldRow
              key={`${i}:${field.name}`}
              field={field}
              others={doc.state.filter((_, k) => k !== i).map((f) => f.name)}
              issues={issuesAt(issues, ['state', i])}
              onEdit={onEdit}
              typings={typings}
              autoFocus={field.name === added}
              highlighted={focus?.index === i && left !== focus.seq}
              onLeave={focus?.index === i ? () => setLeft(focus.seq) : undefined}
            />
          ))}
        </div>
      </div>
      {doc.state.length === 0 && <p className="muted">No state fields yet.</p>}
      <button type="button" onClick={addField}>
        Add field
      </button>
    </section>
  )
}
