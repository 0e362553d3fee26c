import { useState } from 'react'
import { KIND_KEYS } from '../../core/graph/editNodes'
import type { GraphEdit } from '../../core/graph/edits'
import {
  NODE_KINDS,
  type GraphSpec,
  type ModelSettings,
  type NodeKind,
  type NodeSpec,
} from '../../core/graph/schema'
import { ModelProviderSettings, starterScripted } from './ModelProviderSettings'

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
 * A node's kind (code, model, tools, human) and, for the last three, their settings as
 * JSON: applied on blur or Ctrl/Cmd+Enter when the text parses; the validator's problems
 * show below as for any edit. A model node also gets a form for its provider (scripted or
 * an endpoint). API keys never go here (the document refuses them): they are kept in
 * Settings.
 */
export function KindSettings(props: {
  doc: GraphSpec
  node: NodeSpec
  onEdit(e: GraphEdit): void
}) {
  const { doc, node, onEdit } = props
  const kind = node.kind ?? 'code'
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
  const setModel = (model: ModelSettings) =>
    onEdit({ type: 'setNodeKind', id: node.id, kind, settings: { ...kindSettingsOf(node), model } })
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
      {kind === 'model' && (
        <ModelProviderSettings graphName={doc.name} node={node} onChange={setModel} />
      )}
      {kind !== 'code' && (
        <label className="stack">
          <span>Settings (JSON)</span>
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
        </label>
      )}
    </fieldset>
  )
}
