import { useEffect, useRef, useState } from 'react'
import { loadModelKeys } from '../../store/modelKeys'
import { useApp } from '../storeContext'

interface Row {
  baseUrl: string
  key: string
}

function rowsOf(keys: Record<string, string>): Row[] {
  const rows = Object.entries(keys).map(([baseUrl, key]) => ({ baseUrl, key }))
  return rows.length ? rows : [{ baseUrl: '', key: '' }]
}

/**
 * The local settings: chat-model API keys per base URL. They stay in this browser
 * (`localStorage`) and in the runtime worker's memory; graph files and thread files never
 * carry them.
 */
export function SettingsDialog({ onClose }: { onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null)
  const setModelKeys = useApp((s) => s.setModelKeys)
  const [rows, setRows] = useState<Row[]>(() => rowsOf(loadModelKeys()))
  const [saved, setSaved] = useState(false)
  useEffect(() => {
    const d = ref.current
    if (d && !d.open) d.showModal()
  }, [])
  const update = (i: number, patch: Partial<Row>) => {
    setSaved(false)
    setRows((rs) => rs.map((r, j) => (j === i ? { ...r, ...patch } : r)))
  }
  const save = async () => {
    const keys: Record<string, string> = {}
    for (const r of rows) {
      const url = r.baseUrl.trim().replace(/\/+$/, '')
      if (url && r.key.trim()) keys[url] = r.key.trim()
    }
    await setModelKeys(keys)
    setSaved(true)
  }
  return (
    <dialog ref={ref} className="settings" aria-label="Settings" onClose={onClose}>
      <h2>Settings</h2>
      <h3>Model API keys</h3>
      <p className="muted">
        Keys for OpenAI-compatible endpoints, by base URL. They are kept in this browser only and
        sent only to their endpoint: never saved in a graph or thread file.
      </p>
      <table aria-label="API keys">
        <thead>
          <tr>
            <th scope="col">Base URL</th>
            <th scope="col">API key</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={i}>
              <td>
                <input
                  aria-label={`Base URL ${i + 1}`}
                  placeholder="https://api.openai.com/v1"
                  value={r.baseUrl}
                  onChange={(e) => update(i, { baseUrl: e.target.value })}
                />
              </td>
              <td>
                <input
                  aria-label={`API key ${i + 1}`}
                  type="password"
                  autoComplete="off"
                  value={r.key}
                  onChange={(e) => update(i, { key: e.target.value })}
                />
              </td>
              <td>
                <button
                  type="button"
                  aria-label={`Remove key ${i + 1}`}
                  onClick={() => {
                    setSaved(false)
                    setRows((rs) => rs.filter((_, j) => j !== i))
                  }}
                >
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p>
        <button
          type="button"
          onClick={() => {
            setSaved(false)
            setRows((rs) => [...rs, { baseUrl: '', key: '' }])
          }}
        >
          Add key
        </button>
        <button type="button" className="primary" onClick={() => void save()}>
          Save keys
        </button>
        <span className="muted" aria-live="polite">
          {saved ? 'Saved' : ''}
        </span>
      </p>
      <form method="dialog">
        <button type="submit">Close</button>
      </form>
    </dialog>
  )
}
