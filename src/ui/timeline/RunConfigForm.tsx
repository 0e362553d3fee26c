import './runConfig.css'
import { useState } from 'react'
import type { ConfigSettingSpec } from '../../core/graph/schema'
import type { ConfigValue } from '../../store/appTypes'
import { useApp } from '../storeContext'
import { Name } from '../Name'

/**
 * The open graph's declared settings (`config.configurable`), one control per setting by
 * its type: a text box, a number box, a checkbox. The values are the open thread's own
 * (kept with the thread and sent with each of its runs); an empty box means the default,
 * shown as its placeholder. Nothing shows when the graph declares no settings.
 */
export function RunConfigForm() {
  const { settings, own, threadId, setConfigValue } = useApp((s) => ({
    settings: s.spec?.config,
    own: s.configurable,
    threadId: s.threadId,
    setConfigValue: s.setConfigValue,
  }))
  if (!settings || settings.length === 0) return null
  return (
    <table className="input-form run-config" aria-label="Run settings of this thread">
      <caption className="muted">
        Settings (<code>config.configurable</code>) of this thread; empty: the default
      </caption>
      <tbody>
        {settings.map((c) => {
          const hintId = `setting-hint-${c.name.replace(/\W+/g, '-')}`
          return (
            <tr key={c.name}>
              <th scope="row">
                <code>
                  <Name>{c.name}</Name>
                </code>{' '}
                <span className="muted" id={hintId}>
                  {c.type}
                  {c.description ? ` · ${c.description}` : ''}
                </span>
              </th>
              <td>
                <SettingControl
                  // A thread's own values start afresh when another thread is opened.
                  key={`${threadId} ${c.name}`}
                  setting={c}
                  // A value kept when the setting had another type is not sent: not shown.
                  value={typeof own[c.name] === c.type ? own[c.name] : undefined}
                  hintId={hintId}
                  onChange={(v) => setConfigValue(c.name, v)}
                />
              </td>
            </tr>
          )
        })}
      </tbody>
    </table>
  )
}

interface ControlProps {
  setting: ConfigSettingSpec
  /** The thread's own value, or undefined when it has none (the default applies). */
  value: ConfigValue | undefined
  hintId: string
  onChange(v: ConfigValue | undefined): void
}

function SettingControl({ setting, value, hintId, onChange }: ControlProps) {
  const label = `Setting ${setting.name}`
  if (setting.type === 'boolean') {
    const shown = typeof value === 'boolean' ? value : setting.default === true
    return (
      <span className="input-check">
        <input
          type="checkbox"
          aria-label={label}
          aria-describedby={hintId}
          checked={shown}
          onChange={(e) => onChange(e.target.checked)}
        />
        {typeof value === 'boolean' ? (
          <button type="button" className="link" onClick={() => onChange(undefined)}>
            Use the default
          </button>
        ) : (
          <span className="muted">
            {setting.default === undefined ? 'not set' : `default: ${String(setting.default)}`}
          </span>
        )}
      </span>
    )
  }
  return <SettingBox setting={setting} value={value} hintId={hintId} onChange={onChange} />
}

/** Why `text` is no value of a number setting (null: it is one, or empty). */
export function numberError(text: string): string | null {
  if (text.trim() === '') return null
  return Number.isFinite(Number(text)) ? null : `“${text}” is not a number: type a number.`
}

/**
 * A text or number setting. The box follows the kept value when it changes elsewhere (its
 * thread's list arriving) but not while it is typed; text that is no number is refused at
 * the box, with the reason, and nothing is kept until it is one.
 */
function SettingBox({ setting, value, hintId, onChange }: ControlProps) {
  const isNumber = setting.type === 'number'
  const shown = value === undefined ? '' : String(value)
  const [text, setText] = useState(shown)
  const [last, setLast] = useState(shown)
  if (shown !== last) {
    setLast(shown)
    setText(shown)
  }
  const error = isNumber ? numberError(text) : null
  const errorId = `${hintId}-error`
  return (
    <>
      <input
        type="text"
        inputMode={isNumber ? 'decimal' : undefined}
        aria-label={`Setting ${setting.name}`}
        aria-describedby={error ? `${hintId} ${errorId}` : hintId}
        aria-invalid={error ? true : undefined}
        value={text}
        spellCheck={false}
        placeholder={
          setting.default === undefined ? 'not set' : `default: ${String(setting.default)}`
        }
        onChange={(e) => {
          const t = e.target.value
          setText(t)
          if (isNumber ? t.trim() === '' : t === '') return keep(undefined, '')
          if (!isNumber) return keep(t, t)
          if (numberError(t) === null) keep(Number(t), String(Number(t)))
        }}
      />
      {error && (
        <span id={errorId} className="field-error" role="alert">
          {error}
        </span>
      )}
    </>
  )

  function keep(v: ConfigValue | undefined, as: string) {
    setLast(as)
    onChange(v)
  }
}
