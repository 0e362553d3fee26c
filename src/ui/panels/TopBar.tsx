import { lazy, Suspense, useRef, useState, type ChangeEvent } from 'react'
import { selectCanRun } from '../../store/appStore'
import { useApp, useUndoState } from '../storeContext'
import { useRunKeys } from '../useRunKeys'
import { showBidiControls } from '../bidi'
import type { GraphIssue } from '../../core/graph/issues'
import { PanelToggles } from '../layout/PanelToggles'
import { Announcer } from '../Announcer'
import { revealProblems, useWorkbench } from '../layout/workbench'
import { useDraftsPending } from '../inspector/pendingDrafts'
import { isThreadFile } from '../library/isThreadFile'
import { DeleteGraphDialog } from '../library/lazyDeleteGraphDialog'

/** Brand, graph picker and commands, editing tools, Import/Export, and the run controls. */
export function TopBar() {
  const s = useApp((s) => ({
    current: s.current,
    docName: (s.doc as { name?: string } | null)?.name,
    graphs: s.graphs,
    templates: s.templates,
    canRun: selectCanRun(s),
    runState: s.runState,
    saveState: s.saveState,
    select: s.select,
    importDocument: s.importDocument,
    importThreadFile: s.importThreadFile,
    newGraph: s.newGraph,
    renameGraph: s.renameGraph,
    duplicateGraph: s.duplicateGraph,
    undo: s.undo,
    redo: s.redo,
    edit: s.edit,
    run: s.run,
    step: s.step,
    stepInto: s.stepInto,
    stepOut: s.stepOut,
    // Step into and out are for graphs with subgraphs; paused inside one, out applies.
    nested: Object.keys(s.spec?.subgraphs ?? {}).length > 0,
    inside: s.pausedBy?.inner !== undefined && s.runState === 'paused',
    stop: s.stop,
    pause: s.pause,
    issues: s.issues,
  }))
  const workbench = useWorkbench()
  const { canUndo, canRedo } = useUndoState()
  const file = useRef<HTMLInputElement>(null)
  const [renaming, setRenaming] = useState(false)
  const [help, setHelp] = useState(false)
  const [exporting, setExporting] = useState(false)
  const [settings, setSettings] = useState(false)
  const [deleting, setDeleting] = useState(false)
  useRunKeys(opener(setHelp), opener(setExporting))
  const onFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const f = e.target.files?.[0]
    e.target.value = ''
    if (!f) return
    // A thread file (its first key says so) is read in the worker, with progress.
    if (await isThreadFile(f)) await s.importThreadFile(f, f.name)
    else await s.importDocument(await f.text(), f.name)
  }
  const problems = problemCounts(s.issues)
  // Typed text waiting for its commit is not saved yet either.
  const typing = useDraftsPending()
  return (
    <header className="topbar">
      <span className="brand">
        <img src="/favicon.svg" alt="" width={20} height={20} />
        <span className="brand-name">Superstep</span>
      </span>
      <div className="topbar-group" role="toolbar" aria-label="Documents">
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
            {s.current && !s.graphs.some((g) => g.id === s.current?.id) && (
              <option value={s.current.id}>{showBidiControls(s.current.name)} (in the bin)</option>
            )}
          </select>
        )}
        <select
          aria-label="New graph"
          className="new-graph"
          value=""
          onChange={(e) => {
            const t = s.templates.find((x) => x.id === e.target.value)
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
          {s.templates.map((t) => (
            <option key={t.id} value={t.id}>
              From template: {t.name}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="icon-button"
          aria-label="Rename"
          title="Rename the graph"
          onClick={() => setRenaming(true)}
        >
          <DocIcon kind="rename" />
        </button>
        <button
          type="button"
          className="icon-button"
          aria-label="Duplicate"
          title="Duplicate the graph"
          onClick={() => void s.duplicateGraph()}
        >
          <DocIcon kind="duplicate" />
        </button>
        <button
          type="button"
          className="icon-button"
          aria-label="Delete graph"
          title="Move the graph to the bin (asks first; restorable from the bin)"
          onClick={() => setDeleting(true)}
        >
          <DocIcon kind="delete" />
        </button>
        {deleting && (
          <Suspense fallback={null}>
            <DeleteGraphDialog onClose={() => setDeleting(false)} />
          </Suspense>
        )}
      </div>
      <div className="topbar-group" role="toolbar" aria-label="Editing">
        <button
          type="button"
          className="icon-button"
          disabled={!canUndo}
          onClick={() => s.undo()}
          title="Undo (Ctrl+Z)"
          aria-label="Undo"
        >
          <UndoIcon />
        </button>
        <button
          type="button"
          className="icon-button"
          disabled={!canRedo}
          onClick={() => s.redo()}
          title="Redo (Shift+Ctrl+Z)"
          aria-label="Redo"
        >
          <UndoIcon redo />
        </button>
      </div>
      <div className="topbar-group" role="toolbar" aria-label="Files">
        <button
          type="button"
          onClick={() => file.current?.click()}
          title="Open a graph file (or drop it on the canvas)"
        >
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
      </div>
      {/* Statuses have fixed widths and the spacer after them absorbs any change: nothing
          beside them moves when "Saved" turns "Saving…" or a problem appears. */}
      <div className="topbar-status">
        <button
          type="button"
          className={`problems-count ${problems.errors > 0 ? 'has-errors' : problems.warnings > 0 ? 'has-warnings' : 'clean'}`}
          aria-label={`Problems: ${s.issues.length}`}
          title={problemsTitle(problems)}
          onClick={() => revealProblems(workbench)}
        >
          <ProblemsIcon clean={s.issues.length === 0} />
          {s.issues.length}
        </button>
        <span className="muted save-state" role="status" aria-label="Save state">
          {s.saveState === 'failed'
            ? 'Not saved'
            : s.saveState === 'saving' || typing
              ? 'Saving…'
              : 'Saved'}
        </span>
      </div>
      <PanelToggles />
      <div className="topbar-group" role="group" aria-label="Help and settings">
        <button
          type="button"
          className="icon-button"
          onClick={() => setSettings(true)}
          title="Settings: API keys for model endpoints (kept in this browser)"
          aria-label="Settings"
        >
          <GearIcon />
        </button>
        <button
          type="button"
          className="icon-button"
          onClick={() => setHelp(true)}
          title="Keyboard shortcuts (?)"
          aria-label="Keyboard shortcuts"
        >
          ?
        </button>
      </div>
      <div className="topbar-group run-controls" role="toolbar" aria-label="Run controls">
        <button
          type="button"
          className="primary run-button"
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
        {s.nested && (
          <>
            <button
              type="button"
              disabled={!s.canRun}
              onClick={() => void s.stepInto()}
              title="Step into: one super-step of the subgraph the next step runs (F11)"
              aria-label="Step into"
              className="icon-button"
            >
              <StepIcon into />
            </button>
            <button
              type="button"
              disabled={!s.canRun || !s.inside}
              onClick={() => void s.stepOut()}
              title="Step out: the rest of the subgraph the run is paused in (Shift+F11)"
              aria-label="Step out"
              className="icon-button"
            >
              <StepIcon />
            </button>
          </>
        )}
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
      <Announcer />
      {help && (
        <Suspense fallback={null}>
          <ShortcutsDialog onClose={() => setHelp(false)} />
        </Suspense>
      )}
      {settings && (
        <Suspense fallback={null}>
          <SettingsDialog onClose={() => setSettings(false)} />
        </Suspense>
      )}
      {exporting && (
        <Suspense fallback={null}>
          <ExportDialog onClose={() => setExporting(false)} />
        </Suspense>
      )}
    </header>
  )
}

// Dialogs load when first opened; the emitters and the zip with the Export dialog.
const SettingsDialog = lazy(() =>
  import('./SettingsDialog').then((m) => ({ default: m.SettingsDialog })),
)
const ShortcutsDialog = lazy(() =>
  import('./ShortcutsDialog').then((m) => ({ default: m.ShortcutsDialog })),
)
const ExportDialog = lazy(() => import('./ExportDialog').then((m) => ({ default: m.ExportDialog })))

const helpOpeners = new WeakMap<(v: boolean) => void, () => void>()
/** A stable callback per state setter, so the key handler is not re-bound every render. */
function opener(setHelp: (v: boolean) => void): () => void {
  let open = helpOpeners.get(setHelp)
  if (!open) helpOpeners.set(setHelp, (open = () => setHelp(true)))
  return open
}

interface ProblemCounts {
  errors: number
  warnings: number
}

function problemCounts(issues: readonly GraphIssue[]): ProblemCounts {
  let errors = 0
  for (const issue of issues) if (issue.severity === 'error') errors++
  return { errors, warnings: issues.length - errors }
}

function problemsTitle({ errors, warnings }: ProblemCounts): string {
  if (errors + warnings === 0) return 'No problems'
  const part = (n: number, word: string) => (n === 0 ? [] : [`${n} ${word}${n === 1 ? '' : 's'}`])
  return `${[...part(errors, 'error'), ...part(warnings, 'warning')].join(', ')}: show the list`
}

/** A warning sign, or a tick when there is nothing to show. */
function ProblemsIcon({ clean }: { clean: boolean }) {
  return (
    <svg width="14" height="14" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      {clean ? (
        <path d="M3 8.5l3 3 7-7" fill="none" stroke="currentColor" strokeWidth="1.8" />
      ) : (
        <>
          <path d="M8 1.8l6.6 12H1.4z" fill="none" stroke="currentColor" strokeWidth="1.4" />
          <path d="M8 6v4M8 11.6v1.2" stroke="currentColor" strokeWidth="1.6" />
        </>
      )}
    </svg>
  )
}

/** An arrow down into a level (step into) or up out of it (step out), as debuggers draw them. */
function StepIcon({ into = false }: { into?: boolean }) {
  return (
    <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <circle cx="8" cy="13" r="1.8" fill="currentColor" />
      <path
        d={into ? 'M8 1.5v7.5M4.8 6l3.2 3.2L11.2 6' : 'M8 10V2.5M4.8 5.6L8 2.4l3.2 3.2'}
        fill="none"
        stroke="currentColor"
        strokeWidth="1.5"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  )
}

/** A curved arrow back (undo) or, mirrored, forward (redo). */
function UndoIcon({ redo = false }: { redo?: boolean }) {
  return (
    <svg
      width="16"
      height="16"
      viewBox="0 0 16 16"
      aria-hidden="true"
      focusable="false"
      style={redo ? { transform: 'scaleX(-1)' } : undefined}
    >
      <path
        d="M5.5 3.5L2.5 6.5l3 3M2.8 6.5h6.7a3.8 3.8 0 0 1 0 7.6H7"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.5"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  )
}

function GearIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <circle cx="8" cy="8" r="2.2" fill="none" stroke="currentColor" strokeWidth="1.4" />
      <path
        d="M8 1.5v2M8 12.5v2M1.5 8h2M12.5 8h2M3.4 3.4l1.4 1.4M11.2 11.2l1.4 1.4M3.4 12.6l1.4-1.4M11.2 4.8l1.4-1.4"
        stroke="currentColor"
        strokeWidth="1.4"
        strokeLinecap="round"
      />
    </svg>
  )
}

/** Pencil, two sheets, bin: the graph's own actions beside its name. */
function DocIcon({ kind }: { kind: 'rename' | 'duplicate' | 'delete' }) {
  const stroke = { fill: 'none', stroke: 'currentColor', strokeWidth: 1.3 } as const
  return (
    <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      {kind === 'rename' && (
        <path d="M10.5 2.5l3 3-7.5 7.5H3v-3zM9 4l3 3" {...stroke} strokeLinejoin="round" />
      )}
      {kind === 'duplicate' && (
        <>
          <rect x="5.5" y="5.5" width="8" height="8.5" rx="1.2" {...stroke} />
          <path d="M3.5 10.5h-.3a1 1 0 0 1-1-1V3a1 1 0 0 1 1-1h6.3a1 1 0 0 1 1 1v.5" {...stroke} />
        </>
      )}
      {kind === 'delete' && (
        <path
          d="M2.5 4h11M6.5 4V2.5h3V4M4 4l.7 9.5h6.6L12 4M6.8 6.5v5M9.2 6.5v5"
          {...stroke}
          strokeLinejoin="round"
        />
      )}
    </svg>
  )
}
