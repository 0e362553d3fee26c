import { Handle, Position, type NodeProps } from '@xyflow/react'
import { memo, useContext, useState, type KeyboardEvent } from 'react'
import { CanvasActionsContext } from './canvasActions'
import type { IssueBadge, MarkerFlowNode, StepFlowNode, TerminalFlowNode } from './flowTypes'
import { describeBadge } from './issueTargets'
import { useNodeOverlay, type NodeOverlay } from './overlay'
import { showBidiControls } from '../bidi'
import { BidiText, Name } from '../Name'

/** A node's issue badge: the count, red for errors, amber for warnings only; messages as title. */
export function IssueBadgeView({ badge }: { badge: IssueBadge | undefined }) {
  if (!badge) return null
  const severity = badge.errors ? 'error' : 'warning'
  return (
    <span
      className={`ss-issues ss-issues-${severity}`}
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
    <span className="ss-step-badge" aria-label={`Step ${o.badge}`} title={`Super-step ${o.badge}`}>
      {o.badge}
    </span>
  )
}

const KIND_MARK = { code: 'ƒ', model: '✦', tools: '⚒', human: '☺' } as const
const KIND_TITLE = {
  code: 'Code node',
  model: 'Model node: calls a chat model',
  tools: 'Tools node: runs the tool calls of the last AI message (ToolNode)',
  human: 'Human node: pauses with interrupt() for a reply',
} as const

/** A document node: its id (double-click to rename), kind markers, issues and run state. */
export const StepNode = memo(function StepNode({
  data,
  selected,
  sourcePosition = Position.Right,
  targetPosition = Position.Left,
}: NodeProps<StepFlowNode>) {
  const o = useNodeOverlay(data.docId)
  const [editing, setEditing] = useState(false)
  const [menu, setMenu] = useState(false)
  const kind = data.hitl ? ' ss-hitl' : ''
  const severity = data.issues ? (data.issues.errors ? ' ss-has-error' : ' ss-has-warning') : ''
  const shown = showBidiControls(data.docId)
  return (
    <div
      className={`ss-node ss-step${kind}${severity}${overlayClass(o)}${selected ? ' ss-selected' : ''}`}
      onContextMenu={(e) => {
        e.preventDefault()
        setMenu(true)
      }}
    >
      <BreakDot id={data.docId} when="before" on={data.pauseBefore} />
      <BreakDot id={data.docId} when="after" on={data.pauseAfter} />
      {menu && (
        <BreakMenu
          id={data.docId}
          before={data.pauseBefore}
          after={data.pauseAfter}
          onClose={() => setMenu(false)}
        />
      )}
      <Handle type="target" position={targetPosition} aria-label={`Connect into ${shown}`} />
      <span
        className={`ss-kind ss-kind-${data.nodeKind}`}
        aria-hidden="true"
        title={KIND_TITLE[data.nodeKind]}
      >
        {KIND_MARK[data.nodeKind]}
      </span>
      {editing ? (
        <RenameInput id={data.docId} onDone={() => setEditing(false)} />
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
      <IssueBadgeView badge={data.issues} />
      <StepBadge o={o} />
      <FailedMark o={o} />
      <Handle type="source" position={sourcePosition} aria-label={`Connect from ${shown}`} />
    </div>
  )
})

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

/** The node's context menu: its two breakpoints. */
function BreakMenu(props: { id: string; before: boolean; after: boolean; onClose(): void }) {
  const actions = useContext(CanvasActionsContext)
  const item = (when: 'before' | 'after', on: boolean) => (
    <button
      type="button"
      role="menuitemcheckbox"
      aria-checked={on}
      onClick={() => {
        actions.setBreakpoint(props.id, when, !on)
        props.onClose()
      }}
    >
      {on ? '✓ ' : ''}Pause {when}
    </button>
  )
  return (
    <div
      className="ss-menu nodrag nopan"
      role="menu"
      aria-label={`Breakpoints of ${showBidiControls(props.id)}`}
      ref={(el) => el?.querySelector('button')?.focus()}
      onKeyDown={(e) => {
        e.stopPropagation()
        if (e.key === 'Escape') props.onClose()
      }}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) props.onClose()
      }}
    >
      {item('before', props.before)}
      {item('after', props.after)}
    </div>
  )
}

function RenameInput({ id, onDone }: { id: string; onDone: () => void }) {
  const actions = useContext(CanvasActionsContext)
  const [value, setValue] = useState(id)
  const [error, setError] = useState<string | null>(null)
  const commit = () => {
    const problem = actions.rename(id, value.trim())
    if (problem) setError(problem)
    else onDone()
  }
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    e.stopPropagation()
    if (e.key === 'Enter') commit()
    if (e.key === 'Escape') onDone()
  }
  return (
    <span className="ss-rename nodrag nopan">
      <input
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
        onBlur={onDone}
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
  data,
  selected,
  sourcePosition = Position.Right,
  targetPosition = Position.Left,
}: NodeProps<TerminalFlowNode>) {
  const start = data.kind === 'start'
  const o = useNodeOverlay(start ? '__start__' : '__end__')
  return (
    <div className={`ss-node ss-terminal${overlayClass(o)}${selected ? ' ss-selected' : ''}`}>
      <Handle
        type="target"
        position={targetPosition}
        isConnectable={!start}
        className={start ? 'ss-handle-unused' : undefined}
        aria-label={start ? undefined : 'Connect into END'}
      />
      <span className="ss-label">{start ? 'START' : 'END'}</span>
      <IssueBadgeView badge={data.issues} />
      <Handle
        type="source"
        position={sourcePosition}
        isConnectable={start}
        className={start ? undefined : 'ss-handle-unused'}
        aria-label={start ? 'Connect from START' : undefined}
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
