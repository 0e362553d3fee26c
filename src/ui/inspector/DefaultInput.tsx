import { useState } from 'react'
import { editDraft, shownText, type Draft } from './draft'
import { formatDefault, parseDefaultText } from './jsonDefault'

/** Props of the JSON default input. */
export interface DefaultInputProps {
  label: string
  /** The field's default (any JSON), or undefined for none. */
  value: unknown
  /** Called with each new valid value as it is typed (undefined: blank, no default). */
  onValue(value: unknown): void
}

/**
 * A field's default as JSON text, validated as you type: invalid text shows the parser's
 * error beside it and emits nothing; each valid text is applied at once.
 */
export function DefaultInput({ label, value, onValue }: DefaultInputProps) {
  const current = formatDefault(value)
  const [draft, setDraft] = useState<Draft | null>(null)
  const text = shownText(current, draft)
  const parsed = parseDefaultText(text)
  const errorId = `${label.replace(/\W+/g, '-')}-error`
  const onChange = (next: string) => {
    let d = editDraft(draft, current, next)
    const p = parseDefaultText(next)
    if (p.ok) {
      const canonical = formatDefault(p.value)
      if (canonical !== current) {
        d = { ...d, committed: canonical }
        onValue(p.value)
      }
    }
    setDraft(d)
  }
  return (
    <span className="default-input">
      <input
        type="text"
        aria-label={label}
        value={text}
        placeholder="default (JSON), none"
        spellCheck={false}
        aria-invalid={parsed.ok ? undefined : true}
        aria-describedby={parsed.ok ? undefined : errorId}
        onChange={(e) => onChange(e.target.value)}
      />
      {!parsed.ok && (
        <span id={errorId} className="field-error" role="status">
          {parsed.error}
        </span>
      )}
    </span>
  )
}
