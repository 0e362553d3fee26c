import { useRef, type ChangeEvent } from 'react'
import { useApp } from '../storeContext'

const EDITING = [
  ['Undo', 'Redo'],
  ['Add node', 'Auto layout'],
] as const

/** Brand, graph picker, editing tools, Import, and the run controls. */
export function TopBar() {
  const s = useApp((s) => ({
    current: s.current,
    graphs: s.graphs,
    graphId: s.graphId,
    runState: s.runState,
    select: s.select,
    importDocument: s.importDocument,
    run: s.run,
    step: s.step,
    stop: s.stop,
  }))
  const file = useRef<HTMLInputElement>(null)
  const onFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const f = e.target.files?.[0]
    if (f) await s.importDocument(await f.text(), f.name)
    e.target.value = ''
  }
  const canRun = s.graphId !== null && s.runState !== 'running'
  return (
    <header className="topbar">
      <span className="brand">
        <img src="/favicon.svg" alt="" width={20} height={20} />
        Superstep
      </span>
      <select
        className="graph-picker"
        aria-label="Graph"
        value={s.current?.id ?? ''}
        onChange={(e) => void s.select(e.target.value)}
      >
        {s.graphs.map((g) => (
          <option key={g.id} value={g.id}>
            {g.name}
          </option>
        ))}
      </select>
      <div className="toolbar" role="toolbar" aria-label="Editing">
        {EDITING.map((group) => (
          <div className="toolbar-group" key={group[0]}>
            {group.map((label) => (
              <button type="button" key={label} disabled title={`${label} (coming soon)`}>
                {label}
              </button>
            ))}
          </div>
        ))}
        <div className="toolbar-group">
          <button type="button" onClick={() => file.current?.click()}>
            Import
          </button>
          <input
            ref={file}
            type="file"
            accept="application/json,.json"
            aria-label="Import a graph file"
            hidden
            onChange={(e) => void onFile(e)}
          />
          <button type="button" disabled title="Export (coming soon)">
            Export
          </button>
        </div>
      </div>
      <div className="toolbar run-controls" role="toolbar" aria-label="Run controls">
        <button
          type="button"
          className="primary"
          disabled={!canRun}
          onClick={() => void s.run()}
          title="Run or continue (F5)"
        >
          {s.runState === 'paused' || s.runState === 'interrupted' ? 'Continue' : 'Run'}
        </button>
        <button
          type="button"
          disabled={!canRun}
          onClick={() => void s.step()}
          title="Exactly one super-step (F10)"
        >
          Step
        </button>
        <button
          type="button"
          disabled={s.runState !== 'running'}
          onClick={() => void s.stop()}
          title="Stop (Shift+F5)"
        >
          Stop
        </button>
      </div>
    </header>
  )
}
