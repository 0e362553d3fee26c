import { useRef, useState } from 'react'
import { END, START } from '../../core/graph/constants'
import { label } from '../../core/graph/editCommon'
import type { GraphEdit } from '../../core/graph/edits'
import type { GraphIssue } from '../../core/graph/issues'
import type { GraphSpec, NodeSpec } from '../../core/graph/schema'
import { CodeEditor } from '../editor/CodeEditor'
import { KindSettings } from './KindSettings'
import { CommitInput, IssueList } from './controls'
import { refocusAfterRename, useRefocusAfterRename } from './refocus'
import { codeMarkers } from './selection'
import { useDraft } from './useDraft'
import { showBidiControls } from '../bidi'

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
 * Mount it keyed by the node so a pending code edit is committed to the right node (a rename
 * from here may keep the key: the pending edit then goes to the node's new id).
 */
export function NodeInspector(props: NodeInspectorProps) {
  const { doc, node, issues, onEdit, typings, reveal, runError } = props
  const id = node.id
  const section = useRef<HTMLElement>(null)
  // A rename mounts a new id field (keyed by the id), or a new inspector: it keeps the focus.
  useRefocusAfterRename(section, `node:${id}`, '.node-id-input input')
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
    <section ref={section} className="node-inspector" aria-labelledby="node-heading">
      <h2 id="node-heading">Node</h2>
      <CommitInput
        key={id}
        className="node-id-input"
        label="Node id"
        value={id}
        validate={validateId}
        onCommit={(to) => {
          refocusAfterRename(`node:${to}`)
          onEdit({ type: 'renameNode', from: id, to })
        }}
      />
      <KindSettings doc={doc} node={node} issues={issues} onEdit={onEdit} />
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
      <EdgesEditor doc={doc} id={id} onEdit={onEdit} />
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

/** A node id as the inspector shows it: START and END by name, others as they are. */
const shown = (id: string) => (id === START || id === END ? label(id) : showBidiControls(id))

/** One listed edge or end, with its Remove button. */
function RemovableRow(props: { text: string; removeLabel: string; onRemove(): void }) {
  return (
    <li>
      <code>{props.text}</code>{' '}
      <button type="button" aria-label={props.removeLabel} onClick={props.onRemove}>
        Remove
      </button>
    </li>
  )
}

/**
 * Above this many choices a select gets its options when it is first used (focus, pointer
 * or key), not when it is drawn: a node of a 2,000-node graph has three selects of 2,000
 * options each, and creating them made selecting or renaming a node take half a second.
 */
export const LAZY_CHOICES_ABOVE = 200

/** A select that adds one of `choices` (node ids, START/END shown by name); none: absent. */
function AddSelect(props: { label: string; choices: string[]; onPick(id: string): void }) {
  const [used, setUsed] = useState(false)
  if (props.choices.length === 0) return null
  const lazy = !used && props.choices.length > LAZY_CHOICES_ABOVE
  const use = lazy ? () => setUsed(true) : undefined
  return (
    <select
      aria-label={props.label}
      value=""
      onChange={(e) => e.target.value && props.onPick(e.target.value)}
      onFocus={use}
      onPointerDown={use}
      onKeyDown={use}
    >
      <option value="">{props.label}…</option>
      {!lazy &&
        props.choices.map((c) => (
          <option key={c} value={c}>
            {shown(c)}
          </option>
        ))}
    </select>
  )
}

/**
 * The node's fixed edges and joins, made and removed without the pointer: edges out (to a
 * node or END), edges in (from START or a node), and joins into it (it waits for all of
 * their sources).
 */
function EdgesEditor({
  doc,
  id,
  onEdit,
}: {
  doc: GraphSpec
  id: string
  onEdit(e: GraphEdit): void
}) {
  const edges = doc.edges.map((e, index) => ({ ...e, index }))
  const out = edges.filter((e) => e.from === id)
  const into = edges.filter((e) => e.to === id && !Array.isArray(e.from))
  const joins = edges.filter((e) => e.to === id && Array.isArray(e.from))
  const others = doc.nodes.map((n) => n.id).filter((n) => n !== id)
  const outChoices = [...doc.nodes.map((n) => n.id), END].filter(
    (t) => !out.some((e) => e.to === t),
  )
  const inChoices = [START, ...doc.nodes.map((n) => n.id)].filter(
    (f) => !into.some((e) => e.from === f),
  )
  const row = (key: number, text: string, removeLabel: string, index: number) => (
    <RemovableRow
      key={key}
      text={text}
      removeLabel={removeLabel}
      onRemove={() => onEdit({ type: 'deleteEdges', indexes: [index] })}
    />
  )
  return (
    <fieldset className="edges">
      <legend>Edges</legend>
      <ul className="plain-list" aria-label={`Edges of ${id}`}>
        {into.map((e) =>
          row(
            e.index,
            `${shown(e.from as string)} → ${shown(id)}`,
            `Remove edge from ${shown(e.from as string)}`,
            e.index,
          ),
        )}
        {out.map((e) =>
          row(e.index, `${shown(id)} → ${shown(e.to)}`, `Remove edge to ${shown(e.to)}`, e.index),
        )}
        {joins.map((e) =>
          row(
            e.index,
            `${shown(id)} waits for all of ${(e.from as string[]).map(shown).join(', ')}`,
            `Remove join from ${(e.from as string[]).map(shown).join(', ')}`,
            e.index,
          ),
        )}
      </ul>
      {out.length + into.length + joins.length === 0 && (
        <p className="muted">None yet: add them here, or drag from a handle on the canvas.</p>
      )}
      <div className="row">
        <AddSelect
          label="Add edge to"
          choices={outChoices}
          onPick={(to) => onEdit({ type: 'addEdge', from: id, to })}
        />
        <AddSelect
          label="Add edge from"
          choices={inChoices}
          onPick={(from) => onEdit({ type: 'addEdge', from, to: id })}
        />
      </div>
      {others.length >= 2 && <JoinMaker id={id} others={others} onEdit={onEdit} />}
    </fieldset>
  )
}

/** Makes a join into the node: it runs once every chosen source has run (LangGraph's waiting edge). */
function JoinMaker({
  id,
  others,
  onEdit,
}: {
  id: string
  others: string[]
  onEdit(e: GraphEdit): void
}) {
  const [chosen, setChosen] = useState<string[]>([])
  // The sources are drawn while the details are open only (one checkbox per node).
  const [open, setOpen] = useState(false)
  return (
    <details className="join-maker" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Add a join: wait for all of several nodes</summary>
      <div role="group" aria-label={`Sources of a join into ${id}`}>
        {(open ? others : []).map((n) => (
          <label key={n} className="inline-check">
            <input
              type="checkbox"
              checked={chosen.includes(n)}
              onChange={(e) =>
                setChosen(e.target.checked ? [...chosen, n] : chosen.filter((c) => c !== n))
              }
            />
            {showBidiControls(n)}
          </label>
        ))}
      </div>
      <button
        type="button"
        disabled={chosen.length < 2}
        title={chosen.length < 2 ? 'Choose at least two sources' : undefined}
        onClick={() => {
          onEdit({ type: 'addJoin', from: chosen, to: id })
          setChosen([])
        }}
      >
        Add join into {showBidiControls(id)}
      </button>
    </details>
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
            <RemovableRow
              key={end}
              text={shown(end)}
              removeLabel={`Remove end ${end}`}
              onRemove={() => set(ends.filter((e) => e !== end))}
            />
          ))}
        </ul>
      )}
      <AddSelect label="Add end" choices={choices} onPick={(end) => set([...ends, end])} />
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
