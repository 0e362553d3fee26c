import { useEffect, useRef } from 'react'
import { COMMANDS, GESTURES, keyLabel, type CommandGroup } from '../commands'

const GROUPS: CommandGroup[] = ['Run', 'Edit', 'Canvas', 'Help']

/** The keyboard shortcut list (press `?`). */
export function ShortcutsDialog({ onClose }: { onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null)
  useEffect(() => {
    const d = ref.current
    if (d && !d.open) d.showModal()
  }, [])
  return (
    <dialog ref={ref} className="shortcuts" aria-label="Keyboard shortcuts" onClose={onClose}>
      <h2>Keyboard shortcuts</h2>
      {GROUPS.map((group) => (
        <table key={group} aria-label={`${group} shortcuts`}>
          <caption>{group}</caption>
          <tbody>
            {COMMANDS.filter((c) => c.group === group).map((c) => (
              <tr key={c.id} data-command={c.id}>
                <th scope="row">
                  {c.keys.map((k, i) => (
                    <span key={i}>
                      {i > 0 && ' / '}
                      <kbd>{keyLabel(k)}</kbd>
                    </span>
                  ))}
                  {c.scope === 'canvas' && <span className="muted"> (canvas)</span>}
                </th>
                <td>{c.name}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ))}
      <table aria-label="Pointer and widget shortcuts">
        <caption>Elsewhere</caption>
        <tbody>
          {GESTURES.map(([keys, what]) => (
            <tr key={keys}>
              <th scope="row">
                <kbd>{keys}</kbd>
              </th>
              <td>{what}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted">
        No shortcut but the run keys and Export fires while you type in a field or code editor.
      </p>
      <form method="dialog">
        <button type="submit">Close</button>
      </form>
    </dialog>
  )
}
