/**
 * The test-only page (canvas-test.html) for e2e/canvas.spec.ts and bench/canvas.bench.ts:
 * `GraphCanvas` over local state, edits applied with `applyEdit`, issues from
 * `validateGraph`. `window.__canvas` exposes the edits, the document and the selection.
 * Query: `?bench=1000` a generated 1,000-node, 1,500-edge graph; `?dark=1`; `?overlay=1`.
 */
import { StrictMode, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react'
import { createRoot } from 'react-dom/client'
import '../../store/graphToolsEager'
import './dagreEager'
import './edgeRouterEager'
import { applyEdit, type GraphEdit } from '../../core/graph/edits'
import type { GraphSpec } from '../../core/graph/schema'
import { validateGraph } from '../../core/graph/validate'
import { benchDoc } from './benchDoc'
import type { CanvasSelection } from './flowTypes'
import { GraphCanvas } from './GraphCanvas'
import type { RunOverlay } from './overlay'

interface CanvasHarness {
  edits: GraphEdit[]
  refused: string[]
  doc: GraphSpec
  selection: CanvasSelection
}

declare global {
  interface Window {
    __canvas: CanvasHarness
  }
}

const code = '(state) => ({ count: 1 })'

/** A small graph with every kind of element. */
export const sampleDoc: GraphSpec = {
  superstep: 1,
  name: 'canvas sample',
  state: [{ name: 'count', reducer: 'add', default: 0 }, { name: 'answer' }],
  nodes: [
    { id: 'inc', code, position: { x: 0, y: 0 } },
    { id: 'left', code, position: { x: 270, y: -120 } },
    { id: 'right', code, position: { x: 270, y: 120 } },
    { id: 'merge', code, position: { x: 540, y: 0 }, ends: ['review', '__end__'] },
    {
      id: 'review',
      code: "(state) => ({ answer: interrupt('Approve?') })",
      position: { x: 810, y: -120 },
    },
    { id: 'spare', code, position: { x: 810, y: 180 } },
  ],
  edges: [
    { from: '__start__', to: 'inc' },
    { from: 'inc', to: 'left' },
    { from: 'inc', to: 'right' },
    { from: ['left', 'right'], to: 'merge' },
    { from: 'review', to: '__end__' },
  ],
  branches: [
    {
      from: 'inc',
      router: "(state) => state.count < 3 ? 'again' : 'done'",
      paths: { again: 'inc', done: 'merge' },
    },
  ],
}

function TestPage({
  initial,
  dark,
  overlay,
}: {
  initial: GraphSpec
  dark: boolean
  overlay: boolean
}) {
  const [doc, setDoc] = useState(initial)
  const [selection, setSelection] = useState<CanvasSelection>({ nodes: [], edges: [] })
  const [refused, setRefused] = useState<string | null>(null)
  const issues = useMemo(() => {
    performance.mark('canvas-test:validate')
    const found = validateGraph(doc)
    performance.measure('validate', 'canvas-test:validate')
    return found
  }, [doc])
  const runOverlay = useMemo<RunOverlay | undefined>(
    () => (overlay ? { ran: ['inc'], next: ['left', 'right'], badges: { inc: 1 } } : undefined),
    [overlay],
  )
  // Several edits can go out in one event (Delete): apply each to the latest document.
  const latest = useRef(doc)
  useLayoutEffect(() => {
    if (!performance.getEntriesByName('canvas-test:commit').length)
      performance.mark('canvas-test:commit')
  }, [])
  useEffect(() => {
    window.__canvas.doc = doc
    window.__canvas.selection = selection
  }, [doc, selection])
  const onEdit = (edit: GraphEdit) => {
    window.__canvas.edits.push(edit)
    const result = applyEdit(latest.current, edit)
    if (!result.ok) {
      window.__canvas.refused.push(result.error)
      setRefused(result.error)
    }
    latest.current = result.doc
    setDoc(result.doc)
  }
  return (
    <div style={{ height: '100%', display: 'flex', flexDirection: 'column' }}>
      <output aria-label="Refused edit" style={{ fontSize: 12 }}>
        {refused}
      </output>
      <main style={{ flex: 1, minHeight: 0 }} aria-label="Canvas">
        <GraphCanvas
          doc={doc}
          issues={issues}
          onEdit={onEdit}
          selection={selection}
          onSelect={setSelection}
          runOverlay={runOverlay}
          colorMode={dark ? 'dark' : 'light'}
        />
      </main>
    </div>
  )
}

performance.mark('canvas-test:start')
const query = new URLSearchParams(location.search)
const bench = Number(query.get('bench') ?? 0)
const initial = bench > 0 ? benchDoc(bench) : sampleDoc
window.__canvas = { edits: [], refused: [], doc: initial, selection: { nodes: [], edges: [] } }
performance.mark('canvas-test:doc')
const root = document.getElementById('root')
if (!root) throw new Error('canvas-test.html has no #root element')
createRoot(root).render(
  <StrictMode>
    <TestPage initial={initial} dark={query.has('dark')} overlay={query.has('overlay')} />
  </StrictMode>,
)
