import {
  lazy,
  Suspense,
  use,
  useMemo,
  useState,
  useSyncExternalStore,
  type DragEvent,
  type ReactNode,
} from 'react'
import type { GraphIssue } from '../core/graph/issues'
import { issuesAt, levelPathOfNodes, type Level } from '../core/graph/levels'
import { nsNodes } from '../core/pregel/namespace'
import type { GraphSpec } from '../core/graph/schema'
import { openLevelOf } from '../store/documents'
import { loadViewport, saveViewport, viewportKey } from '../store/viewMemory'
import type { CheckpointInspection } from '../core/debug/types'
import type { TimelineEntry } from '../worker/protocol'
import { firedEdges, lastRunSteps } from './canvas/runPicture'
import { GraphCanvas } from './canvas/GraphCanvas'
import { canLayOut, loadDagre } from './canvas/layout'
import { nodePress } from './canvas/nodePress'
import { edgeRouterSettled, loadEdgeRouter } from './canvas/edgeRouterLoad'
import { LevelBar } from './canvas/LevelBar'
import type { RunOverlay } from './canvas/overlay'
import { TopBar } from './panels/TopBar'
import { useApp } from './storeContext'
import { BinLink } from './library/BinLink'
import { ShortWhen } from './library/ShortWhen'
import { isThreadFile } from './library/isThreadFile'
import { showBidiControls } from './bidi'
import { BidiText, Name } from './Name'
import { FirstRunHint } from './layout/FirstRunHint'
import { Workbench } from './layout/Workbench'
// The library's styles stay with the page (the bin link, the undo of a delete), though the
// dialogs and the conflict banner that import them load later.
import './library/library.css'
// Likewise the problems' styles: the import problems and the inspector use them too.
import './panels/problems.css'

// Fetched when the page first draws them, and shown when they arrive: the canvas does not
// wait for the inspector (its forms, JSON Schema checks) or the run drawer (timeline, tabs,
// JSON views). Each keeps its place on the screen, saying "Loading…", meanwhile.
const Inspector = lazy(() =>
  import('./inspector/Inspector').then((m) => ({ default: m.Inspector })),
)
const RunDrawer = lazy(() => import('./panels/RunDrawer').then((m) => ({ default: m.RunDrawer })))
// Shown only when an import is refused or another tab's save conflicts: fetched at the first
// render, after the page's script, with nothing drawn in their place until they show.
const ImportProblems = lazy(() =>
  import('./panels/ImportProblems').then((m) => ({ default: m.ImportProblems })),
)
const ConflictBanner = lazy(() =>
  import('./library/ConflictBanner').then((m) => ({ default: m.ConflictBanner })),
)
// The Problems list (its culprit lookups with it) is at the foot of the sidebar, below the
// graphs and templates: fetched at the first render and shown when it arrives, as the above.
const ProblemsList = lazy(() =>
  import('./panels/ProblemsList').then((m) => ({ default: m.ProblemsList })),
)

/** Said in a panel's place while its code loads. */
const Loading = () => <p className="muted">Loading…</p>

/** The screen of PRODUCT.md: graphs and problems, the document, the inspector, the run drawer. */
export function App() {
  const root = useApp((s) => s.spec)
  // The canvas and the inspector show the open level: the graph, or one of its subgraphs.
  const level = openLevelOf(
    root,
    useApp((s) => s.level),
  )
  return (
    <>
      <Workbench
        top={<TopBar />}
        sidebar={<LeftColumn graph={root} />}
        canvas={
          level ? <CanvasPanel level={level} /> : <main className="canvas" aria-label="Canvas" />
        }
        inspector={
          <aside className="right panel" aria-label="Inspector">
            {level && (
              <Suspense fallback={<Loading />}>
                <InspectorPanel level={level} />
              </Suspense>
            )}
          </aside>
        }
        drawer={
          <Suspense
            fallback={
              <section className="drawer panel" aria-busy="true">
                <Loading />
              </section>
            }
          >
            <RunDrawer />
          </Suspense>
        }
      />
      <Suspense fallback={null}>
        <ImportProblems />
        <ConflictBanner />
      </Suspense>
    </>
  )
}

/** The canvas with the document, its problems, the selection and the selected checkpoint's run. */
function CanvasPanel({ level }: { level: Level }) {
  const graph = level.spec
  const { selection, edit, setSelection, editError, inspection, timeline, live, runError } = useApp(
    (s) => ({
      selection: s.selection,
      edit: s.edit,
      setSelection: s.setSelection,
      editError: s.editError,
      inspection: s.inspection,
      timeline: s.timeline,
      live: s.runState === 'running',
      runError: s.runState === 'failed' ? s.error : null,
    }),
  )
  const issues = useLevelIssues(level)
  const failedNode = runError?.node
  const failedMessage = runError?.message
  // The shown checkpoint's picture is drawn on the level it belongs to (a subgraph's
  // checkpoint on its subgraph's canvas), and on no other.
  const shownNs = useApp((s) => (s.selectedCheckpointId === null ? '' : s.selectedNs))
  const root = useApp((s) => s.spec)
  const shownLevel = useMemo(
    () => (shownNs && root ? levelPathOfNodes(root, nsNodes(shownNs)) : []),
    [shownNs, root],
  )
  const drawn = shownLevel?.join('\u0000') === level.path.join('\u0000')
  // While a run goes inside a subgraph, its canvas outlines the nodes running now.
  const liveInner = useApp((s) => s.liveInner)
  const liveLevel = useMemo(
    () => (liveInner && root ? levelPathOfNodes(root, nsNodes(liveInner.ns)) : null),
    [liveInner, root],
  )
  const runningHere =
    live &&
    liveInner &&
    liveLevel?.join('\u0000') === level.path.join('\u0000') &&
    level.path.length > 0
  const runOverlay = useMemo(() => {
    if (runningHere && liveInner)
      return { ran: [], next: liveInner.nodes, badges: {}, live: true } satisfies RunOverlay
    if (!drawn) return undefined
    const failed =
      failedNode !== undefined ? { node: failedNode, message: failedMessage ?? '' } : undefined
    return overlayOf(graph, inspection, timeline, live, failed)
  }, [runningHere, liveInner, drawn, graph, inspection, timeline, live, failedNode, failedMessage])
  const graphId = useApp((s) => s.current?.id)
  const openLevel = useApp((s) => s.openLevel)
  const library = useApp((s) => s.graphs)
  // The other graphs of the library: "Add subgraph" may copy one in.
  const subgraphSources = useMemo(() => library.filter((g) => g.id !== graphId), [library, graphId])
  const canvasKey = viewportKey(graphId ?? '', level.path)
  const leftAt = useMemo(() => loadViewport(canvasKey), [canvasKey])
  const importDocument = useApp((s) => s.importDocument)
  const importThreadFile = useApp((s) => s.importThreadFile)
  const onDrop = async (e: DragEvent) => {
    const file = e.dataTransfer.files[0]
    if (!file) return
    e.preventDefault()
    if (await isThreadFile(file)) await importThreadFile(file, file.name)
    else await importDocument(await file.text(), file.name)
  }
  return (
    <main
      className="canvas"
      aria-label="Canvas"
      onDragOver={(e) => {
        if (e.dataTransfer.types.includes('Files')) e.preventDefault()
      }}
      onDrop={(e) => void onDrop(e)}
    >
      <h1 className="visually-hidden">
        <Name>{graph.name}</Name>
      </h1>
      <LevelBar level={level} />
      {/* Another graph (or level) is another canvas: its own viewport, where the user left
          it (remembered across reloads), else fitted as it opens. */}
      <Suspense fallback={null}>
        <LaidOut doc={graph}>
          <GraphCanvas
            key={canvasKey}
            viewport={leftAt}
            onViewportChange={(v) => saveViewport(canvasKey, v)}
            doc={graph}
            issues={issues}
            onEdit={edit}
            selection={selection}
            onSelect={setSelection}
            runOverlay={runOverlay}
            colorMode="system"
            onOpenSubgraph={(name) => openLevel([...level.path, name])}
            subgraphSources={subgraphSources}
          />
        </LaidOut>
      </Suspense>
      <FirstRunHint
        done={timeline.length > 0}
        hidden={selection.nodes.length > 0 || selection.edges.length > 0}
      />
      {editError && (
        <p className="canvas-error" role="alert">
          <BidiText>{editError}</BidiText>
        </p>
      )}
    </main>
  )
}

/**
 * Its children once the graph can be placed: a graph whose nodes all have positions needs no
 * layout; one with a node without a position waits for dagre (a chunk of its own) first.
 * Every graph waits for the edge router (a chunk of its own too, fetched as the page starts,
 * so in practice there already): its edges are drawn routed from the first frame.
 */
function LaidOut({ doc, children }: { doc: GraphSpec; children: ReactNode }) {
  if (!canLayOut(doc)) use(loadDagre())
  if (!edgeRouterSettled()) use(loadEdgeRouter())
  return children
}

function InspectorPanel({ level }: { level: Level }) {
  const issues = useLevelIssues(level)
  const {
    selection: chosen,
    edit,
    focus,
    runError,
    fieldFocus,
  } = useApp((s) => ({
    selection: s.selection,
    edit: s.edit,
    focus: s.focusCode,
    runError: s.error,
    fieldFocus: s.fieldFocus,
  }))
  // While the pointer is down on a canvas node (a drag that selected it), the inspector keeps
  // what it showed; it follows the selection once the pointer is released.
  const pressed = useSyncExternalStore(nodePress.subscribe, nodePress.get)
  const [shown, setShown] = useState(chosen)
  if (!pressed && shown !== chosen) setShown(chosen)
  const selection = pressed ? shown : chosen
  return (
    <Inspector
      doc={level.spec}
      issues={issues}
      selection={selection}
      onEdit={edit}
      focus={focus}
      runError={runError}
      fieldFocus={fieldFocus}
    />
  )
}

/** The document's problems on the open level, placed as the level's own. */
function useLevelIssues(level: Level): GraphIssue[] {
  const all = useApp((s) => s.issues)
  return useMemo(() => issuesAt(all, level.at), [all, level.at])
}

/**
 * The shown checkpoint drawn on the canvas: the nodes that ran in its super-step lit, the
 * nodes queued as `next` outlined, the edges that fired animated, and the step each node
 * last ran at (on this checkpoint's branch) as a badge.
 */
function overlayOf(
  graph: GraphSpec,
  inspection: CheckpointInspection | null,
  timeline: readonly TimelineEntry[],
  live: boolean,
  failed: RunOverlay['failed'],
): RunOverlay | undefined {
  if (!inspection) return failed && { ran: [], next: [], badges: {}, failed }
  return {
    failed,
    ran: inspection.ran.map((t) => t.name),
    next: inspection.next,
    fired: firedEdges(graph, inspection.ran),
    badges: lastRunSteps(timeline, inspection.checkpointId),
    live,
  }
}

function LeftColumn({ graph }: { graph: GraphSpec | null }) {
  const { graphs, templates, currentId, select, newGraph } = useApp((s) => ({
    graphs: s.graphs,
    templates: s.templates,
    currentId: s.current?.id,
    select: s.select,
    newGraph: s.newGraph,
  }))
  return (
    <nav className="left panel" aria-label="Graphs and problems">
      <h2>Graphs</h2>
      <ul className="plain-list">
        {graphs.map((g) => (
          <li
            key={g.id}
            aria-current={g.id === currentId ? 'page' : undefined}
            className={g.id === currentId ? 'current' : undefined}
          >
            <button
              type="button"
              className="link graph-name"
              title={showBidiControls(g.name)}
              // The open graph's own row does nothing: opening it again would stop its run and
              // drop the checkpoint and node the user has selected.
              onClick={() => void select(g.id)}
            >
              <Name>{g.name}</Name>
              {!g.trusted && (
                <span className="badge warn" title="Imported: its code has not run">
                  untrusted
                </span>
              )}
            </button>
            {/* An untrusted graph's badge takes the time's place: the name keeps some room. */}
            {g.updatedAt && g.trusted && <ShortWhen iso={g.updatedAt} />}
          </li>
        ))}
      </ul>
      <BinLink />
      <h2>Templates</h2>
      <ul className="plain-list">
        {templates.map((t) => (
          <li key={t.id}>
            <button
              type="button"
              className="link"
              onClick={() => void newGraph(t.doc, undefined, JSON.stringify(t.input))}
              aria-label={`New graph from template ${t.name}`}
            >
              {t.name}
            </button>
          </li>
        ))}
      </ul>
      <Suspense fallback={null}>
        <ProblemsList graph={graph} />
      </Suspense>
    </nav>
  )
}
