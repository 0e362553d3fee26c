import type { GraphSpec } from '../../core/graph/schema'
import { showBidiControls } from '../bidi'

/**
 * A select of the state's fields (which field holds the messages, what a human node shows,
 * …). A value that names no field stays shown, marked, so the select never lies about the
 * document; the validator's problem says what to fix.
 */
export function FieldSelect(props: {
  label: string
  /** The text beside the select. */
  caption: string
  doc: Pick<GraphSpec, 'state'>
  value: string | undefined
  onChange(name: string): void
  /** What an absent value means (e.g. `messages`); without it, absent shows "choose…". */
  fallback?: string
  /** A hint after the caption, e.g. "add_messages". */
  hint?: string
}) {
  const { label, caption, doc, value, onChange, fallback, hint } = props
  const shown = value ?? fallback ?? ''
  const names = doc.state.map((f) => f.name)
  const missing = shown !== '' && !names.includes(shown)
  return (
    <label className="stack kind-field-select">
      <span>
        {caption}
        {hint && <span className="muted"> {hint}</span>}
      </span>
      <select
        aria-label={label}
        value={shown}
        aria-invalid={missing || shown === '' ? true : undefined}
        onChange={(e) => onChange(e.target.value)}
      >
        {shown === '' && <option value="">choose a field…</option>}
        {missing && <option value={shown}>{showBidiControls(shown)} (not a field)</option>}
        {names.map((n) => (
          <option key={n} value={n}>
            {showBidiControls(n)}
          </option>
        ))}
      </select>
    </label>
  )
}
