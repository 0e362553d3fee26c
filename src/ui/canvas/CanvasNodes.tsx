import { Handle, Position, type NodeProps } from '@xyflow/react'
import { memo, useContext, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react'
import { CanvasActionsContext } from './canvasActions'
import { useLowDetail } from './detail'
import type { IssueBadge, MarkerFlowNode, StepFlowNode, TerminalFlowNode } from './flowTypes'
import { describeBadge } from './issueTargets'
import { stepNodeName, terminalNodeName } from './nodeName'
import { useNodeOverlay, type NodeOverlay } from './overlay'
import { focusNodeOnMount, useNodeKeys } from './useNodeKeys'
import { showBidiControls } from '../bidi'
import { BidiText, Name } from '../Name'

/** A node's issue badge: the count, red for errors, amber for warnings only; messages as title. */
export function IssueBadgeView({ badge }: { badge: IssueBadge | undefined }) {
  if (!badge) return null
  const severity = badge.errors ? 'error' : 'warning'
  return (
    <span
      className={`ss-issues ss-issues-${severity}`}
      role="img"
      title={showBidiControls(badge.title)}
      aria-label={`${describeBadge(badge)}: ${showBidiControls(badge.title)}`}
    >
      {badge.errors + badge.warnings}
    </span>
  )
}

function overlayClass(o: NodeOverlay): string {
  return `${o.ran ? ' ss-ran' : ''}${o.next ? ' ss-next' : ''}${o.failed ? ' ss-failed' : ''}`
}

/** The run failed in this node: a mark with the error, until the next run. */
function FailedMark({ o }: { o: NodeOverlay }) {
  if (!o.failed) return null
  return (
    <span
      className="ss-failed-mark"
      role="img"
      aria-label={`Failed: ${showBidiControls(o.failed)}`}
      title={showBidiControls(o.failed)}
    >
      ✗
    </span>
  )
}

function StepBadge({ o }: { o: NodeOverlay }) {
  if (o.badge === undefined) return null
  return (
    <span
      className="ss-step-badge"
      role="img"
      aria-label={`Step ${o.badge}`}
      title={`Super-step ${o.badge}`}
    >
      {o.badge}
    </span>
  )
}

const KIND_MARK = { code: 'ƒ', model: '✦', tools: '⚒', human: '☺', graph: '⊞' } as const
const KIND_TITLE = {
  code: 'Code node',
  model: 'Model node: calls a chat model',
  tools: 'Tools node: runs the tool calls of the last AI message (ToolNode)',
  human: 'Human node: pauses with interrupt() for a reply',
  graph: 'Graph node: runs a subgraph',
} as const

/**
 * A document node: its id (double-click to rename), kind markers, issues and run state; a
 * plain box when a big graph is zoomed out (`detail.ts`).
 */
export const StepNode = memo(function StepNode(props: NodeProps<StepFlowNode>) {
  return useLowDetail() ? <StepBox {...props} /> : <StepCard {...props} />
})

/**
 * A node zoomed out: its box with the run state and problem colours, and nothing inside but
 * its accessible name and two hidden handle stubs (plain elements React Flow measures, so
 * the edges keep their ends; no `Handle`, which subscribes to React Flow's store). The
 * keyboard (arrows, Enter) works as on the full node.
 */
function StepBox({
  id,
  data,
  selected,
  sourcePosition = Position.Right,
  targetPosition = Position.Left,
}: NodeProps<StepFlowNode>) {
  const o = useNodeOverlay(data.docId)
  const box = useRef<HTMLDivElement>(null)
  const nameId = useId()
  const actions = useContext(CanvasActionsContext)
  const sub = data.subgraph
  const open = sub ? () => actions.openSubgraph(sub.name) : undefined
  useNodeKeys(box, id, data.docId, nameId, undefined, open)
  const kind = data.hitl ? ' ss-hitl' : ''
  const severity = data.issues ? (data.issues.errors ? ' ss-has-error' : ' ss-has-warning') : ''
  return (
    <div
      ref={box}
      className={`ss-node ss-step ss-box${kind}${severity}${overlayClass(o)}${selected ? ' ss-selected' : ''}${sub ? ' ss-graph' : ''}`}
      onDoubleClick={open}
    >
      <span id={nameId} hidden>
        {stepNodeName(showBidiControls(data.docId), data, o)}
      </span>
      <HandleStub type="target" position={targetPosition} />
      <HandleStub type="source" position={sourcePosition} />
    </div>
  )
}

/** Where an edge ends on a zoomed-out node: React Flow finds it by these classes. */
function HandleStub({ type, position }: { type: 'source' | 'target'; position: Position }) {
  return (
    <div
      className={`react-flow__handle react-flow__handle-${position} ${type} ss-handle-stub`}
      data-handlepos={position}
    />
  )
}

/** A node at normal zoom. */
function StepCard({
  id,
  data,
  selected,
  sourcePosition = Position.Right,
  targetPosition = Position.Left,
}: NodeProps<StepFlowNode>) {
  const o = useNodeOverlay(data.docId)
  const [editing, setEditing] = useState(false)
  const box = useRef<HTMLDivElement>(null)
  const nameId = useId()
  const actions = useContext(CanvasActionsContext)
  const sub = data.subgraph
  const open = sub ? () => actions.openSubgraph(sub.name) : undefined
  useNodeKeys(box, id, data.docId, nameId, () => setEditing(true), open)
  const kind = data.hitl ? ' ss-hitl' : ''
  const severity = data.issues ? (data.issues.errors ? ' ss-has-error' : ' ss-has-warning') : ''
  const shown = showBidiControls(data.docId)
  // Back on the node after an inline rename: its new element (renamed) or this one.
  const doneEditing = (renamedTo?: string) => {
    setEditing(false)
    if (renamedTo !== undefined) focusNodeOnMount(renamedTo)
    else box.current?.closest<HTMLElement>('.react-flow__node')?.focus()
  }
  return (
    <div
      ref={box}
      className={`ss-node ss-step${kind}${severity}${overlayClass(o)}${selected ? ' ss-selected' : ''}${sub ? ' ss-graph' : ''}`}
      onDoubleClick={open}
    >
      {/* The node element's accessible name (its aria-labelledby, set by useNodeKeys). */}
      <span id={nameId} hidden>
        {stepNodeName(shown, data, o)}
      </span>
      <BreakDot id={data.docId} when="before" on={data.pauseBefore} />
      <BreakDot id={data.docId} when="after" on={data.pauseAfter} />
      {/* A handle is a div with no role: its name is a tooltip (aria-label is not allowed). */}
      <Handle type="target" position={targetPosition} title={`Connect into ${shown}`} />
      <span
        className={`ss-kind ss-kind-${data.nodeKind}`}
        aria-hidden="true"
        title={KIND_TITLE[data.nodeKind]}
      >
        {KIND_MARK[data.nodeKind]}
      </span>
      {editing ? (
        <RenameInput id={data.docId} onDone={doneEditing} onBlur={() => setEditing(false)} />
      ) : (
        <span
          className="ss-label"
          title="Double-click to rename"
          onDoubleClick={(e) => {
            e.stopPropagation()
            setEditing(true)
          }}
        >
          <Name>{data.docId}</Name>
        </span>
      )}
      {data.hitl && (
        <span
          className="ss-tag ss-hitl-marker"
          role="img"
          aria-label="Human in the loop"
          title="Human in the loop: the code calls interrupt()"
        >
          interrupt
        </span>
      )}
      {data.command && (
        <span className="ss-tag" title="Returns Command({ goto }): see the dotted edges">
          goto
        </span>
      )}
      {data.defer && (
        <span className="ss-tag" title="Deferred: runs when the rest of the graph has finished">
          defer
        </span>
      )}
      {sub && <SubgraphPreview name={sub.name} nodes={sub.nodes} onOpen={open} />}
      <IssueBadgeView badge={data.issues} />
      <StepBadge o={o} />
      <FailedMark o={o} />
      <Handle type="source" position={sourcePosition} title={`Connect from ${shown}`} />
    </div>
  )
}

/** What a graph node holds, small: its subgraph's first nodes, and the way in. */
function SubgraphPreview(props: { name: string; nodes: string[] | null; onOpen?: () => void }) {
  const { name, nodes } = props
  const shown = nodes?.slice(0, 3) ?? []
  const more = (nodes?.length ?? 0) - shown.length
  const what = nodes
    ? `${name}: ${nodes.length} node${nodes.length === 1 ? '' : 's'}${nodes.length ? ` (${nodes.join(', ')})` : ''}`
    : `${name}, a subgraph of an outer graph`
  return (
    <button
      type="button"
      className="ss-subgraph nodrag nopan"
      title={showBidiControls(`Open ${what} (double-click, or Enter)`)}
      aria-label={showBidiControls(`Open subgraph ${name}`)}
      onClick={(e) => {
        e.stopPropagation()
        props.onOpen?.()
      }}
      onDoubleClick={(e) => e.stopPropagation()}
    >
      <span className="ss-subgraph-name">
        <Name>{name}</Name>
      </span>
      <span className="ss-subgraph-nodes" aria-hidden="true">
        {shown.map((n) => showBidiControls(n)).join(' · ') || (nodes ? 'empty' : '…')}
        {more > 0 && ` +${more}`}
      </span>
    </button>
  )
}

/** The gutter dot of a breakpoint: filled when the run pauses there; a click toggles it. */
function BreakDot({ id, when, on }: { id: string; when: 'before' | 'after'; on: boolean }) {
  const actions = useContext(CanvasActionsContext)
  const shown = showBidiControls(id)
  return (
    <button
      type="button"
      className={`ss-break ss-break-${when} nodrag nopan${on ? ' ss-on' : ''}`}
      aria-label={`Pause ${when} ${shown}`}
      aria-pressed={on}
      title={`Pause ${when} ${shown} (a breakpoint: interrupt${when === 'before' ? 'Before' : 'After'})`}
      onClick={(e) => {
        e.stopPropagation()
        actions.setBreakpoint(id, when, !on)
      }}
    />
  )
}

// The node's context menu (its breakpoints) is NodeMenu.tsx, in screen space.

/** The inline rename: Enter commits (`onDone` with the new name), Escape cancels. */
function RenameInput(props: {
  id: string
  onDone: (renamedTo?: string) => void
  onBlur: () => void
}) {
  const { id, onDone } = props
  const actions = useContext(CanvasActionsContext)
  const [value, setValue] = useState(id)
  const [error, setError] = useState<string | null>(null)
  const input = useRef<HTMLInputElement>(null)
  // The name comes selected (as F2 does in an editor): what is typed replaces it.
  useEffect(() => input.current?.select(), [])
  const commit = () => {
    const to = value.trim()
    const problem = actions.rename(id, to)
    if (problem) setError(problem)
    else onDone(to === id ? undefined : to)
  }
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    e.stopPropagation()
    if (e.key === 'Enter') commit()
    if (e.key === 'Escape') onDone()
  }
  return (
    <span className="ss-rename nodrag nopan">
      <input
        ref={input}
        aria-label="Node name"
        aria-invalid={error ? true : undefined}
        value={value}
        autoFocus
        spellCheck={false}
        onChange={(e) => {
          setValue(e.target.value)
          setError(null)
        }}
        onKeyDown={onKeyDown}
        onBlur={props.onBlur}
      />
      {error && (
        <span className="ss-rename-error" role="alert">
          <BidiText>{error}</BidiText>
        </span>
      )}
    </span>
  )
}

/** START or END: a pill with one handle in use (the other stays for invalid edges to land). */
export const TerminalNode = memo(function TerminalNode({
  id,
  data,
  selected,
  sourcePosition = Position.Right,
  targetPosition = Position.Left,
}: NodeProps<TerminalFlowNode>) {
  const start = data.kind === 'start'
  const o = useNodeOverlay(start ? '__start__' : '__end__')
  const box = useRef<HTMLDivElement>(null)
  const nameId = useId()
  const label = start ? 'START' : 'END'
  useNodeKeys(box, id, id, nameId)
  return (
    <div
      ref={box}
      className={`ss-node ss-terminal${overlayClass(o)}${selected ? ' ss-selected' : ''}`}
    >
      <span id={nameId} hidden>
        {terminalNodeName(label, data.issues, o)}
      </span>
      <Handle
        type="target"
        position={targetPosition}
        isConnectable={!start}
        className={start ? 'ss-handle-unused' : undefined}
        title={start ? undefined : 'Connect into END'}
      />
      <span className="ss-label">{label}</span>
      <IssueBadgeView badge={data.issues} />
      <Handle
        type="source"
        position={sourcePosition}
        isConnectable={start}
        className={start ? undefined : 'ss-handle-unused'}
        title={start ? 'Connect from START' : undefined}
      />
    </div>
  )
})

/** A join marker, the "any node" marker of a branch without paths, or a missing node. */
export const MarkerNode = memo(function MarkerNode({ data, selected }: NodeProps<MarkerFlowNode>) {
  return (
    <div
      className={`ss-marker ss-marker-${data.kind}${selected ? ' ss-selected' : ''}`}
      title={showBidiControls(data.label)}
    >
      <Handle
        type="target"
        position={Position.Left}
        isConnectable={false}
        className="ss-handle-center"
      />
      {data.kind !== 'join' && (
        <span className="ss-label">
          <Name>{data.label}</Name>
        </span>
      )}
      <IssueBadgeView badge={data.issues} />
      <Handle
        type="source"
        position={Position.Right}
        isConnectable={false}
        className="ss-handle-center"
      />
    </div>
  )
})

/** Module scope: a new object per render would remount every node (NOTES.md). */
export const nodeTypes = { step: StepNode, terminal: TerminalNode, marker: MarkerNode }
