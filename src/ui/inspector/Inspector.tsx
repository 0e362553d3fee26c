import { useMemo, useState } from 'react'
import type { GraphEdit } from '../../core/graph/edits'
import type { GraphIssue } from '../../core/graph/issues'
import type { GraphSpec } from '../../core/graph/schema'
import { typingsFor } from '../editor/typings'
import { BranchInspector } from './BranchInspector'
import { NodeInspector } from './NodeInspector'
import { SchemaPanel } from './SchemaPanel'
import { inspectorTarget, issuesAt, type Selection } from './selection'
import './inspector.css'

export type { Selection } from './selection'

/** Props of the inspector: the document, its issues, the canvas selection, and where edits go. */
export interface InspectorProps {
  doc: GraphSpec
  issues: readonly GraphIssue[]
  selection: Selection
  /** Every change the inspector makes, as a GraphEdit (it never changes `doc` itself). */
  onEdit(edit: GraphEdit): void
  /** A line of a node's code to show (a clicked run error). */
  focus?: { node: string; line?: number; column?: number; seq: number } | null
  /** The run's error, marked in the code of the node it names. */
  runError?: { node?: string; message: string; line?: number; column?: number } | null
  /** A state field to show and focus (a clicked problem), with nothing selected. */
  fieldFocus?: { index: number; seq: number } | null
}

const NO_RENAMES: ReadonlyMap<string, string> = new Map()

/**
 * The right-hand panel's content: the selected node (NodeInspector), the selected
 * conditional edge (BranchInspector), or with nothing selected the state schema. After a
 * `renameNode` edit the owner must rename the node in the selection too.
 */
export function Inspector(props: InspectorProps) {
  const { doc, issues, selection, onEdit, focus, runError, fieldFocus } = props
  const state = doc.state
  const typings = useMemo(() => typingsFor({ state }), [state])
  // A node renamed here keeps its inspector (and its code editor, slow to make): it stays
  // keyed by the id it had when it was selected. A node given that id later is keyed apart
  // (ids never contain ":").
  const [renamed, setRenamed] = useState<ReadonlyMap<string, string>>(NO_RENAMES)
  const onNodeEdit = (e: GraphEdit) => {
    if (e.type === 'renameNode') {
      setRenamed((keys) => {
        const next = new Map(keys)
        next.set(e.to, keys.get(e.from) ?? e.from)
        next.delete(e.from)
        return next
      })
    }
    onEdit(e)
  }
  const keyOf = (id: string) =>
    renamed.get(id) ?? ([...renamed.values()].includes(id) ? `${id}:` : id)
  const target = inspectorTarget(doc, selection)
  switch (target.kind) {
    case 'node':
      return (
        <NodeInspector
          key={keyOf(target.node.id)}
          doc={doc}
          node={target.node}
          issues={issuesAt(issues, ['nodes', target.index], target.node.id)}
          onEdit={onNodeEdit}
          typings={typings}
          reveal={
            focus?.node === target.node.id && focus.line
              ? { ...focus, line: focus.line }
              : undefined
          }
          runError={
            runError?.node === target.node.id && runError.line
              ? { ...runError, line: runError.line }
              : undefined
          }
        />
      )
    case 'branch':
      return (
        <BranchInspector
          key={target.index}
          doc={doc}
          index={target.index}
          selectedKey={target.key}
          issues={issuesAt(issues, ['branches', target.index])}
          onEdit={onEdit}
          typings={typings}
        />
      )
    case 'schema':
      return (
        <>
          {target.note && <p className="muted inspector-note">{target.note}</p>}
          <SchemaPanel
            doc={doc}
            issues={issues}
            onEdit={onEdit}
            typings={typings}
            focus={fieldFocus}
          />
        </>
      )
  }
}
