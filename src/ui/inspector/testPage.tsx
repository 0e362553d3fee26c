/**
 * The test-only page (inspector-test.html) for e2e/inspector.spec.ts: the Inspector over a
 * local document, edits applied with `applyEdit`, a few buttons to set the selection, and
 * `window.__inspector` to read the document and the edits made.
 */
import { StrictMode, useMemo, useState } from 'react'
import { createRoot } from 'react-dom/client'
import '../../store/graphToolsEager'
import { applyEdit, type GraphEdit } from '../../core/graph/edits'
import type { GraphSpec } from '../../core/graph/schema'
import { validateGraph } from '../../core/graph/validate'
import { Inspector, type Selection } from './Inspector'
import '../app.css'

const initial: GraphSpec = {
  superstep: 1,
  name: 'inspector test',
  state: [
    { name: 'count', reducer: 'add', default: 0 },
    { name: 'log', reducer: 'append', default: [] },
    { name: 'messages', reducer: 'add_messages' },
    { name: 'answer', description: 'The final answer.' },
  ],
  nodes: [
    { id: 'inc', code: '(state) => ({ count: 1, log: ["inc"] })' },
    { id: 'done', code: '(state) => ({ answer: String(state.count) })' },
  ],
  edges: [
    { from: '__start__', to: 'inc' },
    { from: 'done', to: '__end__' },
  ],
  branches: [
    {
      from: 'inc',
      router: "(state) => (state.count < 3 ? 'again' : 'stop')",
      paths: { again: 'inc', stop: 'done' },
    },
  ],
}

interface Harness {
  doc(): GraphSpec
  edits: GraphEdit[]
}

declare global {
  interface Window {
    __inspector: Harness
  }
}

const edits: GraphEdit[] = []
let current = initial
window.__inspector = { doc: () => current, edits }

function TestPage() {
  const [doc, setDoc] = useState(initial)
  const [selection, setSelection] = useState<Selection>({ nodes: [], edges: [] })
  const [refused, setRefused] = useState('')
  const issues = useMemo(() => validateGraph(doc), [doc])
  const onEdit = (edit: GraphEdit) => {
    edits.push(edit)
    const result = applyEdit(current, edit)
    current = result.doc
    setDoc(result.doc)
    setRefused(result.ok ? '' : result.error)
    if (result.ok && edit.type === 'renameNode') {
      setSelection((s) => ({ ...s, nodes: s.nodes.map((n) => (n === edit.from ? edit.to : n)) }))
    }
  }
  const select = (nodes: string[], edgeIds: string[] = []) =>
    setSelection({ nodes, edges: edgeIds })
  return (
    <div className="inspector-test">
      <nav aria-label="Selection">
        <button type="button" onClick={() => select([])}>
          Select nothing
        </button>
        {doc.nodes.map((n) => (
          <button type="button" key={n.id} onClick={() => select([n.id])}>
            Select node {n.id}
          </button>
        ))}
        <button type="button" onClick={() => select([], ['b:0:again'])}>
          Select branch path
        </button>
      </nav>
      <output aria-label="Refused edit">{refused}</output>
      <aside className="right panel" aria-label="Inspector" style={{ width: 300 }}>
        <Inspector doc={doc} issues={issues} selection={selection} onEdit={onEdit} />
      </aside>
    </div>
  )
}

const root = document.getElementById('root')
if (!root) throw new Error('inspector-test.html has no #root element')
createRoot(root).render(
  <StrictMode>
    <TestPage />
  </StrictMode>,
)
