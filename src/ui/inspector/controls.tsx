import { useEffect, useRef, useState, type KeyboardEvent } from 'react'
import type { GraphIssue } from '../../core/graph/issues'
import { hasBidiControls } from '../bidi'
import { BidiText, Name } from '../Name'

/** Props of a text input that commits on Enter or blur and reverts on Escape. */
export interface CommitInputProps {
  value: string
  label: string
  /** Returns an error message to refuse the text, or null to accept it. */
  validate?(text: string): string | null
  onCommit(text: string): void
  autoFocus?: boolean
  className?: string
  placeholder?: string
}

/**
 * A text input for names: edits stay local until Enter or blur, so renaming does not
 * rewrite the document (and the selection) on every keystroke. Remount it with
 * `key={value}` to take a new value from the document.
 */
export function CommitInput(props: CommitInputProps) {
  const { value, label, validate, onCommit, autoFocus, className, placeholder } = props
  const [text, setText] = useState(value)
  const input = useRef<HTMLInputElement>(null)
  // A name just made (Add field) comes focused and selected: what is typed replaces it.
  useEffect(() => {
    if (autoFocus) input.current?.select()
  }, [autoFocus])
  const error = text === value ? null : (validate?.(text) ?? null)
  const commit = () => {
    if (text !== value && !error) onCommit(text)
  }
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') commit()
    if (e.key === 'Escape') setText(value)
  }
  const errorId = `${label.replace(/\W+/g, '-')}-error`
  return (
    <span className={className}>
      <input
        ref={input}
        type="text"
        aria-label={label}
        value={text}
        placeholder={placeholder}
        spellCheck={false}
        autoFocus={autoFocus}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        onBlur={commit}
      />
      {error && (
        <span id={errorId} className="field-error">
          <BidiText>{error}</BidiText>
        </span>
      )}
      {!error && hasBidiControls(text) && (
        // An input shows an override's effect, not the override: spell it out below.
        <span className="field-note">
          Direction controls: <Name>{text}</Name>
        </span>
      )}
    </span>
  )
}

/** The issues of one thing (a node, a field, a branch), errors first. */
export function IssueList({ issues, label }: { issues: readonly GraphIssue[]; label: string }) {
  if (issues.length === 0) return null
  const sorted = [...issues].sort((a, b) =>
    a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1,
  )
  return (
    <ul className="plain-list problems inspector-issues" aria-label={label}>
      {sorted.map((issue, i) => (
        <li key={i} className={issue.severity}>
          <span className="severity">{issue.severity}</span> <BidiText>{issue.message}</BidiText>
          {issue.line !== undefined && (
            <span className="muted">
              {' '}
              (line {issue.line}, column {issue.column ?? 1})
            </span>
          )}
        </li>
      ))}
    </ul>
  )
}
