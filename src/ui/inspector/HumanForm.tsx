import type { GraphSpec, NodeSpec } from '../../core/graph/schema'
import { showBidiControls } from '../bidi'
import { FieldSelect } from './FieldSelect'

/** The settings of a human node that the form edits. */
export type HumanPatch = Partial<Pick<NodeSpec, 'show' | 'writeTo'>>

/**
 * A human node: the field whose value `interrupt` shows, and the field the reply is written
 * to, each a select of the state's fields.
 */
export function HumanForm(props: {
  doc: Pick<GraphSpec, 'state'>
  node: NodeSpec
  onChange(patch: HumanPatch): void
}) {
  const { doc, node, onChange } = props
  return (
    <div className="kind-form human-form">
      <p className="muted kind-form-note">
        Pauses the run with <code>interrupt(state.{showBidiControls(node.show ?? '…')})</code>; the
        reply it is resumed with is written to <code>{showBidiControls(node.writeTo ?? '…')}</code>.
      </p>
      <FieldSelect
        label={`Field shown by ${node.id}`}
        caption="Shows"
        doc={doc}
        value={node.show}
        onChange={(show) => onChange({ show })}
      />
      <FieldSelect
        label={`Field ${node.id} writes the reply to`}
        caption="Writes the reply to"
        doc={doc}
        value={node.writeTo}
        onChange={(writeTo) => onChange({ writeTo })}
      />
    </div>
  )
}
