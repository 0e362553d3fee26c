import { END } from '../../core/graph/constants'
import type { GraphEdit } from '../../core/graph/edits'
import type { GraphIssue } from '../../core/graph/issues'
import type { GraphSpec, NodeSpec } from '../../core/graph/schema'
import { CodeEditor } from '../editor/CodeEditor'
import { KindSettings } from './KindSettings'
import { CommitInput, IssueList } from './controls'
import { codeMarkers } from './selection'
import { useDraft } from './useDraft'
import { showBidiControls } from '../bidi'
import { Name } from '../Name'

/** Props of the node inspector. */
export interface NodeInspectorProps {
  doc: GraphSpec
  node: NodeSpec
  /** The node's issues (see `issuesAt`). */
  issues: readonly GraphIssue[]
  onEdit(edit: GraphEdit): void
  typings?: string | undefined
  /** A line of the code to show (a clicked run error). */
  reveal?: { line: number; column?: number; seq: number } | undefined
  /** A run error in this node's code, marked on its line. */
  runError?: { message: string; line: number; column?: number } | undefined
}

/** How long typing in node code waits before it becomes a `setNodeCode` edit. */
export const CODE_DELAY_MS = 300

/**
 * A selected node: its id (renameNode on Enter/blur), its code (setNodeCode, debounced and
 * on blur), its `ends` (setNodeEnds), its breakpoints (setBreakpoint) and its problems.
 * Mount it with `key={node.id}` so a pending code edit is committed to the right node.
 */
export function NodeInspector(props: NodeInspectorProps) {
  const { doc, node, issues, onEdit, typings, reveal, runError } = props
  const id = node.id
  const code = useDraft(
    node.code ?? '',
    (text) => onEdit({ type: 'setNodeCode', id, code: text }),
    CODE_DELAY_MS,
  )
  const validateId = (text: string) => {
    if (text.trim() === '') return 'A node needs an id.'
    if (doc.nodes.some((n) => n.id === text)) return `A node is already called ${text}.`
    if (/[:|]/.test(text)) return 'Node ids cannot contain ":" or "|".'
    return null
  }
  return (
    <section className="node-inspector" aria-labelledby="node-heading">
      <h2 id="node-heading">Node</h2>
      <CommitInput
        key={id}
        className="node-id-input"
        label="Node id"
        value={id}
        validate={validateId}
        onCommit={(to) => onEdit({ type: 'renameNode', from: id, to })}
      />
      <KindSettings doc={doc} node={node} onEdit={onEdit} />
      {(node.kind ?? 'code') === 'code' && (
        <>
          <h2>Code</h2>
          <CodeEditor
            label={`Code of ${id}`}
            value={code.text}
            onChange={code.change}
            onBlur={code.flush}
            code={{ kind: 'node' }}
            typings={typings}
            markers={[
              ...codeMarkers(issues, 'code'),
              ...(runError
                ? [
                    {
                      message: runError.message,
                      line: runError.line,
                      column: runError.column ?? 1,
                      severity: 'error' as const,
                    },
                  ]
                : []),
            ]}
            reveal={reveal}
            height={180}
          />
        </>
      )}
      <Breakpoints doc={doc} id={id} onEdit={onEdit} />
      <EndsEditor doc={doc} node={node} onEdit={onEdit} />
      <Branches doc={doc} id={id} onEdit={onEdit} />
      <IssueList issues={issues} label={`Problems of ${id}`} />
    </section>
  )
}

function Breakpoints({
  doc,
  id,
  onEdit,
}: {
  doc: GraphSpec
  id: string
  onEdit(e: GraphEdit): void
}) {
  const box = (when: 'before' | 'after', list: string[] | undefined) => {
    const all = list?.includes('*') ?? false
    return (
      <label className="inline-check" title={all ? 'Every node pauses here ("*")' : undefined}>
        <input
          type="checkbox"
          checked={all || (list?.includes(id) ?? false)}
          disabled={all}
          onChange={(e) => onEdit({ type: 'setBreakpoint', node: id, when, on: e.target.checked })}
        />
        Pause {when}
      </label>
    )
  }
  return (
    <fieldset className="breakpoints">
      <legend>Breakpoints</legend>
      {box('before', doc.interruptBefore)}
      {box('after', doc.interruptAfter)}
    </fieldset>
  )
}

function EndsEditor({
  doc,
  node,
  onEdit,
}: {
  doc: GraphSpec
  node: NodeSpec
  onEdit(e: GraphEdit): void
}) {
  const ends = node.ends ?? []
  const set = (next: string[]) => onEdit({ type: 'setNodeEnds', id: node.id, ends: next })
  const choices = [...doc.nodes.map((n) => n.id), END].filter((t) => !ends.includes(t))
  return (
    <fieldset className="ends">
      <legend>Command goto targets (ends)</legend>
      {ends.length === 0 ? (
        <p className="muted">None: this node returns no Command with goto.</p>
      ) : (
        <ul className="plain-list" aria-label={`Ends of ${node.id}`}>
          {ends.map((end) => (
            <li key={end}>
              <code>
                <Name>{end}</Name>
              </code>{' '}
              <button
                type="button"
                aria-label={`Remove end ${end}`}
                onClick={() => set(ends.filter((e) => e !== end))}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      {choices.length > 0 && (
        <select
          aria-label="Add end"
          value=""
          onChange={(e) => {
            if (e.target.value) set([...ends, e.target.value])
          }}
        >
          <option value="">Add end…</option>
          {choices.map((c) => (
            <option key={c} value={c}>
              {showBidiControls(c)}
            </option>
          ))}
        </select>
      )}
    </fieldset>
  )
}

/** The node's conditional edges: how many, and a button to add one (edit it on the canvas). */
function Branches({ doc, id, onEdit }: { doc: GraphSpec; id: string; onEdit(e: GraphEdit): void }) {
  const count = (doc.branches ?? []).filter((b) => b.from === id).length
  return (
    <fieldset className="branches">
      <legend>Conditional edges</legend>
      <p className="muted">
        {count === 0
          ? 'None: add one to route with a function of the state.'
          : `${count} — select a dashed path on the canvas to edit its router and paths.`}
      </p>
      <button type="button" onClick={() => onEdit({ type: 'addBranch', from: id })}>
        Add conditional edge
      </button>
    </fieldset>
  )
}
