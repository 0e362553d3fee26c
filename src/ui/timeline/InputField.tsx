import './inputField.css'
import { useState } from 'react'
import {
  describeValue,
  fieldTypeOf,
  typeLabel,
  writeMatchesType,
  type TypeDesc,
} from '../../core/graph/fieldTypes'
import type { FieldSpec } from '../../core/graph/schema'

/** Props of one field's input control. */
export interface InputFieldProps {
  field: FieldSpec
  /** The field's value in the input, or undefined when not given. */
  value: unknown
  /** A new value, or undefined to leave the field out of the input. */
  onChange(v: unknown): void
}

/**
 * One field of the run's input, as its declared type asks: a text box for a string, a
 * number box for a number or an integer, a checkbox for a boolean, a message box for
 * messages (one human message), a JSON box for the rest. Each control is named
 * "Input <field>"; a value the control cannot show (set in the JSON view) is described
 * beside it, and a value that does not fit the type is flagged (the run would warn).
 */
export function InputField({ field, value, onChange }: InputFieldProps) {
  const t = fieldTypeOf(field)
  const label = `Input ${field.name}`
  const misfit =
    value !== undefined && !writeMatchesType(field, t, value)
      ? `${describeValue(value)} is not ${typeLabel(t)}: the run will warn.`
      : null
  const noteId = `input-note-${field.name.replace(/\W+/g, '-')}`
  const control = (() => {
    switch (t.kind) {
      case 'string':
        return <TextBox label={label} value={value} onChange={onChange} />
      case 'number':
      case 'integer':
        return (
          <NumberBox
            label={label}
            value={value}
            integer={t.kind === 'integer'}
            onChange={onChange}
          />
        )
      case 'boolean':
        return <CheckBox label={label} value={value} onChange={onChange} />
      case 'messages':
        return <MessageBox label={label} value={value} onChange={onChange} />
      default:
        return <JsonBox label={label} value={value} onChange={onChange} invalid={!!misfit} />
    }
  })()
  return (
    <div className="input-field" aria-describedby={misfit ? noteId : undefined}>
      {control}
      {misfit && (
        <span id={noteId} className="field-note" role="status">
          {misfit}
        </span>
      )}
    </div>
  )
}

/** The field's type in words, for the row's hint ("append · list of string"). */
export function inputHint(field: FieldSpec): string {
  const how = field.channel ?? field.reducer ?? 'overwrite'
  const t: TypeDesc = fieldTypeOf(field)
  return t.kind === 'any' ? how : `${how} · ${typeLabel(t)}`
}

interface BoxProps {
  label: string
  value: unknown
  onChange(v: unknown): void
}

/**
 * Text that follows the value when it changes elsewhere (the JSON view) but not while it
 * is typed: `shown` is the value's text, `text` what the box holds.
 */
function useFollowingText(shown: string): [string, (t: string) => void, (s: string) => void] {
  const [text, setText] = useState(shown)
  const [last, setLast] = useState(shown)
  if (shown !== last) {
    setLast(shown)
    setText(shown)
  }
  return [text, setText, setLast]
}

function TextBox({ label, value, onChange }: BoxProps) {
  const shown = typeof value === 'string' ? value : ''
  const [text, setText, setLast] = useFollowingText(shown)
  return (
    <input
      type="text"
      aria-label={label}
      value={text}
      placeholder={value === undefined || typeof value === 'string' ? 'not given' : ''}
      spellCheck={false}
      onChange={(e) => {
        const t = e.target.value
        setText(t)
        setLast(t)
        onChange(t === '' ? undefined : t)
      }}
    />
  )
}

function NumberBox({ label, value, integer, onChange }: BoxProps & { integer: boolean }) {
  const shown = typeof value === 'number' ? String(value) : ''
  const [text, setText, setLast] = useFollowingText(shown)
  const n = Number(text)
  const bad = text.trim() !== '' && (!Number.isFinite(n) || (integer && !Number.isInteger(n)))
  return (
    <>
      <input
        type="number"
        aria-label={label}
        step={integer ? 1 : 'any'}
        value={text}
        placeholder="not given"
        aria-invalid={bad || undefined}
        onChange={(e) => {
          const t = e.target.value
          setText(t)
          const v = Number(t)
          if (t.trim() === '') return onChange(undefined)
          if (!Number.isFinite(v) || (integer && !Number.isInteger(v))) return
          setLast(String(v))
          onChange(v)
        }}
      />
      {bad && <span className="field-error">{integer ? 'Not an integer.' : 'Not a number.'}</span>}
    </>
  )
}

function CheckBox({ label, value, onChange }: BoxProps) {
  return (
    <span className="input-check">
      <input
        type="checkbox"
        aria-label={label}
        checked={value === true}
        onChange={(e) => onChange(e.target.checked)}
      />
      {typeof value === 'boolean' ? (
        <>
          <code>{String(value)}</code>
          <button type="button" className="link" onClick={() => onChange(undefined)}>
            Clear
          </button>
        </>
      ) : (
        <span className="muted">not given</span>
      )}
    </span>
  )
}

/** The content of a value that is one human message with text, or null. */
function humanText(value: unknown): string | null {
  if (!Array.isArray(value) || value.length !== 1) return null
  const [m] = value as unknown[]
  if (typeof m !== 'object' || m === null) return null
  const { type, role, content } = m as { type?: unknown; role?: unknown; content?: unknown }
  const human = type === 'human' || role === 'user' || role === 'human'
  return human && typeof content === 'string' ? content : null
}

function MessageBox({ label, value, onChange }: BoxProps) {
  const own = value === undefined ? '' : humanText(value)
  const [text, setText, setLast] = useFollowingText(own ?? '')
  return (
    <>
      <textarea
        aria-label={label}
        className="input-message"
        rows={2}
        value={text}
        placeholder={
          own === null ? 'replaces the messages with one human message' : 'a human message'
        }
        onChange={(e) => {
          const t = e.target.value
          setText(t)
          setLast(t)
          onChange(t === '' ? undefined : [{ type: 'human', content: t }])
        }}
      />
      {own === null && Array.isArray(value) && (
        <span className="muted">
          {value.length} message{value.length === 1 ? '' : 's'} given: see the JSON view.
        </span>
      )}
    </>
  )
}

function JsonBox({ label, value, onChange, invalid }: BoxProps & { invalid: boolean }) {
  const shown = value === undefined ? '' : JSON.stringify(value)
  const [text, setText, setLast] = useFollowingText(shown)
  const [bad, setBad] = useState(false)
  return (
    <input
      aria-label={label}
      aria-invalid={bad || invalid || undefined}
      value={text}
      placeholder="not given (JSON)"
      spellCheck={false}
      onChange={(e) => {
        const t = e.target.value
        setText(t)
        if (t.trim() === '') {
          setBad(false)
          return onChange(undefined)
        }
        try {
          const v = JSON.parse(t) as unknown
          setBad(false)
          setLast(JSON.stringify(v))
          onChange(v)
        } catch {
          setBad(true)
        }
      }}
    />
  )
}
