import { useState } from 'react'
import { KIND_KEYS } from '../../core/graph/editNodes'
import { DEFAULT_MESSAGES_FIELD } from '../../core/graph/nodeKinds'
import type { GraphEdit } from '../../core/graph/edits'
import type { GraphIssue } from '../../core/graph/issues'
import {
  NODE_KINDS,
  type GraphSpec,
  type ModelSettings,
  type AnyNodeKind,
  type NodeKind,
  type NodeSpec,
  type ScriptedReply,
  type ToolSpec,
} from '../../core/graph/schema'
import { showBidiControls } from '../bidi'
import { FieldSelect } from './FieldSelect'
import { HumanForm } from './HumanForm'
import { ModelProviderSettings, starterScripted } from './ModelProviderSettings'
import { RepliesForm } from './RepliesForm'
import { toolsForModel } from './replyEdits'
import { ToolsForm } from './ToolsForm'

const KIND_LABEL: Record<NodeKind, string> = {
  code: 'Code (JavaScript)',
  model: 'Model (chat model call)',
  tools: 'Tools (ToolNode)',
  human: 'Human (interrupt)',
}

/** Settings a node gets when it becomes a kind: a working start, edited from there. */
function starterSettings(doc: GraphSpec, kind: NodeKind): Record<string, unknown> {
  const messages = doc.state.find((f) => f.reducer === 'add_messages')?.name ?? 'messages'
  const first = doc.state[0]?.name ?? 'messages'
  switch (kind) {
    case 'model':
      return { model: starterScripted(), messagesField: messages }
    case 'tools':
      return {
        messagesField: messages,
        tools: [
          {
            name: 'echo',
            description: 'Returns its text.',
            parameters: { type: 'object', properties: { text: { type: 'string' } } },
            code: '({ text }) => text',
          },
        ],
      }
    case 'human':
      return { show: first, writeTo: first }
    case 'code':
      return {}
  }
}

/** The settings of a node's kind, as the document holds them. */
export function kindSettingsOf(node: NodeSpec): Record<string, unknown> {
  const n = node as Record<string, unknown>
  return Object.fromEntries(KIND_KEYS.filter((k) => n[k] !== undefined).map((k) => [k, n[k]]))
}

/**
 * A node's kind (code, model, tools, human) and, for the last three, their settings in forms:
 * a model's provider (scripted replies or an endpoint), bound tools and messages field; a
 * tools node's tools (parameters, code); a human node's fields. Each change is one
 * `setNodeKind` edit; the validator's problems show below as for any edit. The settings as
 * JSON stay behind a disclosure, applied on blur or Ctrl/Cmd+Enter when the text parses.
 * API keys never go here (the document refuses them): they are kept in Settings.
 */
export function KindSettings(props: {
  doc: GraphSpec
  node: NodeSpec
  /** The node's issues: a tool's code problems are marked in its code. */
  issues?: readonly GraphIssue[]
  onEdit(e: GraphEdit): void
}) {
  const { doc, node, issues = [], onEdit } = props
  const kind = node.kind ?? 'code'
  /** One edit: the node's settings with `patch` over them (`undefined` removes a key). */
  const setSettings = (patch: Record<string, unknown>) =>
    onEdit({
      type: 'setNodeKind',
      id: node.id,
      kind,
      settings: { ...kindSettingsOf(node), ...patch },
    })
  return (
    <fieldset className="kind-settings">
      <legend>Kind</legend>
      <select
        aria-label={`Kind of ${node.id}`}
        value={kind}
        onChange={(e) => {
          const next = e.target.value as NodeKind
          onEdit({
            type: 'setNodeKind',
            id: node.id,
            kind: next,
            settings: starterSettings(doc, next),
          })
        }}
      >
        {NODE_KINDS.map((k) => (
          <option key={k} value={k}>
            {KIND_LABEL[k]}
          </option>
        ))}
      </select>
      {kind === 'model' && <ModelForm doc={doc} node={node} onSettings={setSettings} />}
      {(kind === 'model' || kind === 'tools') && (
        <FieldSelect
          label={`Messages field of ${node.id}`}
          caption="Messages field"
          doc={doc}
          value={node.messagesField}
          fallback={DEFAULT_MESSAGES_FIELD}
          onChange={(messagesField) => setSettings({ messagesField })}
        />
      )}
      {kind === 'tools' && (
        <ToolsForm
          node={node.id}
          tools={node.tools ?? []}
          issues={issues}
          onChange={(tools: ToolSpec[]) => setSettings({ tools })}
        />
      )}
      {kind === 'human' && <HumanForm doc={doc} node={node} onChange={setSettings} />}
      {kind !== 'code' && <SettingsJson node={node} kind={kind} onEdit={onEdit} />}
    </fieldset>
  )
}

/** A model node: its provider, the replies of a scripted one, the tools it binds. */
function ModelForm(props: {
  doc: GraphSpec
  node: NodeSpec
  onSettings(patch: Record<string, unknown>): void
}) {
  const { doc, node, onSettings } = props
  const model = node.model
  const toolsNodes = doc.nodes.filter((n) => n.kind === 'tools').map((n) => n.id)
  const bound = node.bindTools
  return (
    <>
      <ModelProviderSettings
        graphName={doc.name}
        node={node}
        onChange={(m: ModelSettings) => onSettings({ model: m })}
      />
      {model?.provider === 'scripted' && (
        <RepliesForm
          node={node.id}
          replies={model.replies}
          tools={toolsForModel(doc, node)}
          onChange={(replies: ScriptedReply[]) => onSettings({ model: { ...model, replies } })}
        />
      )}
      <label className="stack">
        <span>Bound tools</span>
        <select
          aria-label={`Tools bound to ${node.id}`}
          value={bound ?? ''}
          onChange={(e) => onSettings({ bindTools: e.target.value || undefined })}
        >
          <option value="">none</option>
          {bound !== undefined && !toolsNodes.includes(bound) && (
            <option value={bound}>{showBidiControls(bound)} (not a tools node)</option>
          )}
          {toolsNodes.map((id) => (
            <option key={id} value={id}>
              {showBidiControls(id)}
            </option>
          ))}
        </select>
      </label>
    </>
  )
}

/** The settings as JSON, for what the forms do not show: applied on blur or Ctrl/Cmd+Enter. */
function SettingsJson(props: { node: NodeSpec; kind: AnyNodeKind; onEdit(e: GraphEdit): void }) {
  const { node, kind, onEdit } = props
  const shown = JSON.stringify(kindSettingsOf(node), null, 2)
  const [text, setText] = useState(shown)
  const [last, setLast] = useState(shown)
  const [error, setError] = useState<string | null>(null)
  if (shown !== last) {
    setLast(shown)
    setText(shown)
    setError(null)
  }
  const commit = () => {
    if (text === shown) return
    let settings: unknown
    try {
      settings = JSON.parse(text)
    } catch (e) {
      return setError(`Not JSON: ${(e as Error).message}`)
    }
    if (!settings || typeof settings !== 'object' || Array.isArray(settings))
      return setError('The settings are a JSON object.')
    setError(null)
    onEdit({
      type: 'setNodeKind',
      id: node.id,
      kind,
      settings: settings as Record<string, unknown>,
    })
  }
  return (
    <details className="kind-json">
      <summary>JSON</summary>
      <textarea
        aria-label={`Settings of ${node.id}`}
        className="code-editor code-plain"
        value={text}
        rows={10}
        spellCheck={false}
        aria-invalid={error ? true : undefined}
        onChange={(e) => setText(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) commit()
        }}
      />
      {error && (
        <span className="field-error" role="alert">
          {error}
        </span>
      )}
    </details>
  )
}
