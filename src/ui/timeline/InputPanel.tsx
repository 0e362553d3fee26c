import { useState } from 'react'
import { parseStateUpdate } from '../../store/stateValues'
import { useApp } from '../storeContext'
import { Name } from '../Name'
import { InputField, inputHint } from './InputField'
import { RunConfigForm } from './RunConfigForm'

/**
 * The run's input: a form with one control per state field, built from its declared type
 * (text, number, checkbox, message box, JSON box; empty: not given), or the whole input as
 * JSON. Both edit the same text; it is checked against the schema as typed.
 */
export function InputPanel() {
  const { input, setInput, spec } = useApp((s) => ({
    input: s.input,
    setInput: s.setInput,
    spec: s.spec,
  }))
  const [view, setView] = useState<'form' | 'json'>('form')
  if (!spec) return <p className="muted">The graph does not match the format.</p>
  const checked = parseStateUpdate(spec, input)
  let object: Record<string, unknown> = {}
  try {
    const v = JSON.parse(input || '{}') as unknown
    if (v && typeof v === 'object' && !Array.isArray(v)) object = v as Record<string, unknown>
  } catch {
    // The JSON view shows the error; the form starts from nothing.
  }
  return (
    <div className="input-panel">
      <div className="row" role="group" aria-label="Input view">
        <button type="button" aria-pressed={view === 'form'} onClick={() => setView('form')}>
          Form
        </button>
        <button type="button" aria-pressed={view === 'json'} onClick={() => setView('json')}>
          JSON
        </button>
        {!checked.ok && (
          <span className="error-text" role="alert" aria-label="Input error">
            {checked.error}
          </span>
        )}
      </div>
      {view === 'json' ? (
        <textarea
          aria-label="Input JSON"
          className="input-json"
          rows={5}
          value={input}
          spellCheck={false}
          onChange={(e) => setInput(e.target.value)}
        />
      ) : (
        <table className="input-form" aria-label="Input fields">
          <tbody>
            {spec.state.map((f) => (
              <tr key={f.name}>
                <th scope="row">
                  <code>
                    <Name>{f.name}</Name>
                  </code>{' '}
                  <span className="muted">{inputHint(f)}</span>
                </th>
                <td>
                  <InputField
                    field={f}
                    value={object[f.name]}
                    onChange={(v) => {
                      const next = { ...object }
                      if (v === undefined) delete next[f.name]
                      else next[f.name] = v
                      setInput(JSON.stringify(next))
                    }}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <RunConfigForm />
    </div>
  )
}
