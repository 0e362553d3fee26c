import { useEffect, useRef } from 'react'

export const SHORTCUTS: readonly [string, string][] = [
  ['F5', 'Run, or continue a paused run'],
  ['F10', 'Step: exactly one super-step'],
  ['F6', 'Pause a run at the next super-step'],
  ['Shift+F5', 'Stop the run'],
  ['↑ / ↓ (timeline focused)', 'Select the newer / older checkpoint'],
  ['Ctrl/Cmd+Z', 'Undo'],
  ['Ctrl/Cmd+E', 'Export the graph as code'],
  ['Shift+Ctrl/Cmd+Z', 'Redo'],
  ['Delete / Backspace', 'Delete the selection'],
  ['Ctrl/Cmd+C, Ctrl/Cmd+V', 'Copy and paste nodes'],
  ['N (canvas focused)', 'Add a node'],
  ['Double-click the canvas', 'Add a node there'],
  ['Double-click a node name', 'Rename it'],
  ['?', 'This list'],
]

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
      <table>
        <tbody>
          {SHORTCUTS.map(([keys, what]) => (
            <tr key={keys}>
              <th scope="row">
                <kbd>{keys}</kbd>
              </th>
              <td>{what}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <form method="dialog">
        <button type="submit">Close</button>
      </form>
    </dialog>
  )
}
