import { lazy, Suspense, useRef, useState, type ChangeEvent } from 'react'
import { TEMPLATES } from '../../templates'
import { selectCanRun } from '../../store/appStore'
import { useApp, useUndoState } from '../storeContext'
import { SettingsDialog } from './SettingsDialog'
import { ShortcutsDialog } from './ShortcutsDialog'
import { useRunKeys } from '../useRunKeys'
import { showBidiControls } from '../bidi'

/** Brand, graph picker and commands, editing tools, Import/Export, and the run controls. */
export function TopBar() {
  const s = useApp((s) => ({
    current: s.current,
    docName: (s.doc as { name?: string } | null)?.name,
    graphs: s.graphs,
    canRun: selectCanRun(s),
    runState: s.runState,
    saveState: s.saveState,
    select: s.select,
    importDocument: s.importDocument,
    newGraph: s.newGraph,
    renameGraph: s.renameGraph,
    duplicateGraph: s.duplicateGraph,
    deleteGraph: s.deleteGraph,
    undo: s.undo,
    redo: s.redo,
    edit: s.edit,
    run: s.run,
    step: s.step,
    stop: s.stop,
    pause: s.pause,
  }))
  const { canUndo, canRedo } = useUndoState()
  const file = useRef<HTMLInputElement>(null)
  const [renaming, setRenaming] = useState(false)
  const [help, setHelp] = useState(false)
  const [exporting, setExporting] = useState(false)
  const [settings, setSettings] = useState(false)
  useRunKeys(opener(setHelp), opener(setExporting))
  const onFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const f = e.target.files?.[0]
    if (f) await s.importDocument(await f.text(), f.name)
    e.target.value = ''
  }
  return (
    <header className="topbar">
      <span className="brand">
        <img src="/favicon.svg" alt="" width={20} height={20} />
        Superstep
      </span>
      {renaming ? (
        <input
          className="graph-picker"
          aria-label="Graph name"
          autoFocus
          defaultValue={s.docName ?? s.current?.name}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              void s.renameGraph(e.currentTarget.value)
              setRenaming(false)
            } else if (e.key === 'Escape') setRenaming(false)
          }}
          onBlur={() => setRenaming(false)}
        />
      ) : (
        <select
          className="graph-picker"
          aria-label="Graph"
          value={s.current?.id ?? ''}
          onChange={(e) => void s.select(e.target.value)}
        >
          {s.graphs.map((g) => (
            <option key={g.id} value={g.id}>
              {showBidiControls(g.name)}
            </option>
          ))}
        </select>
      )}
      <div className="toolbar" role="toolbar" aria-label="Documents">
        <select
          aria-label="New graph"
          value=""
          onChange={(e) => {
            const t = TEMPLATES.find((x) => x.id === e.target.value)
            void s.newGraph(
              t?.doc,
              t ? undefined : 'untitled',
              t ? JSON.stringify(t.input) : undefined,
            )
          }}
        >
          <option value="" disabled>
            New…
          </option>
          <option value="empty">Empty graph</option>
          {TEMPLATES.map((t) => (
            <option key={t.id} value={t.id}>
              From template: {t.name}
            </option>
          ))}
        </select>
        <button type="button" onClick={() => setRenaming(true)}>
          Rename
        </button>
        <button type="button" onClick={() => void s.duplicateGraph()}>
          Duplicate
        </button>
        <button type="button" onClick={() => void s.deleteGraph()}>
          Delete graph
        </button>
      </div>
      <div className="toolbar" role="toolbar" aria-label="Editing">
        <button type="button" disabled={!canUndo} onClick={() => s.undo()} title="Undo (Ctrl+Z)">
          Undo
        </button>
        <button
          type="button"
          disabled={!canRedo}
          onClick={() => s.redo()}
          title="Redo (Shift+Ctrl+Z)"
        >
          Redo
        </button>
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
        <button
          type="button"
          onClick={() => setExporting(true)}
          title="The graph as LangGraph.js, LangGraph Python, a file, or a project (Ctrl/Cmd+E)"
        >
          Export
        </button>
        <button
          type="button"
          onClick={() => setSettings(true)}
          title="API keys for model endpoints (kept in this browser)"
        >
          Settings
        </button>
        <button
          type="button"
          onClick={() => setHelp(true)}
          title="Keyboard shortcuts (?)"
          aria-label="Keyboard shortcuts"
        >
          ?
        </button>
      </div>
      <span className="muted save-state" aria-live="polite" aria-label="Save state">
        {s.saveState === 'saving' ? 'Saving…' : s.saveState === 'failed' ? 'Not saved' : 'Saved'}
      </span>
      <div className="toolbar run-controls" role="toolbar" aria-label="Run controls">
        <button
          type="button"
          className="primary"
          disabled={!s.canRun}
          onClick={() => void s.run()}
          title="Run or continue (F5)"
        >
          {s.runState === 'paused' || s.runState === 'interrupted' ? 'Continue' : 'Run'}
        </button>
        <button
          type="button"
          disabled={!s.canRun}
          onClick={() => void s.step()}
          title="Exactly one super-step (F10)"
        >
          Step
        </button>
        <button
          type="button"
          disabled={s.runState !== 'running'}
          onClick={() => void s.pause()}
          title="Pause at the next super-step barrier (F6)"
        >
          Pause
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
      {help && <ShortcutsDialog onClose={() => setHelp(false)} />}
      {settings && <SettingsDialog onClose={() => setSettings(false)} />}
      {exporting && (
        <Suspense fallback={null}>
          <ExportDialog onClose={() => setExporting(false)} />
        </Suspense>
      )}
    </header>
  )
}

// The emitters and the zip load with the dialog, not with the page.
const ExportDialog = lazy(() => import('./ExportDialog').then((m) => ({ default: m.ExportDialog })))

const helpOpeners = new WeakMap<(v: boolean) => void, () => void>()
/** A stable callback per state setter, so the key handler is not re-bound every render. */
function opener(setHelp: (v: boolean) => void): () => void {
  let open = helpOpeners.get(setHelp)
  if (!open) helpOpeners.set(setHelp, (open = () => setHelp(true)))
  return open
}
