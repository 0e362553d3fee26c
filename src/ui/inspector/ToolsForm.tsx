import type { ToolSpec } from '../../core/graph/schema'
import type { GraphIssue } from '../../core/graph/issues'
import { CodeEditor, type CodeMarker } from '../editor/CodeEditor'
import { CommitInput } from './controls'
import { argsTypeOf, freshName, toolNameProblem } from './paramRows'
import { ParamsForm } from './ParamsForm'
import { codeMarkers } from './selection'
import { useDraft } from './useDraft'

/** How long typing in a tool's code waits before it becomes an edit (as node code). */
const CODE_DELAY_MS = 300

/** A new tool: no parameters, code that answers something. */
function newTool(taken: readonly string[]): ToolSpec {
  return {
    name: freshName('tool', taken),
    description: '',
    parameters: { type: 'object', properties: {} },
    code: "(args) => 'done'",
  }
}

/**
 * A tools node's tools, one card each: name, description, parameters (a form over the JSON
 * Schema), and the code in the code editor, its argument typed from the parameters. Each
 * change is one new tools list (`onChange`).
 */
export function ToolsForm(props: {
  node: string
  tools: readonly ToolSpec[]
  /** The node's issues (paths `nodes.i.tools.j…`). */
  issues: readonly GraphIssue[]
  onChange(tools: ToolSpec[]): void
}) {
  const { node, tools, issues, onChange } = props
  const names = tools.map((t) => t.name)
  const setTool = (i: number, tool: ToolSpec) => onChange(tools.map((t, j) => (j === i ? tool : t)))
  return (
    <div className="kind-form tools-form">
      {tools.length === 0 && <p className="muted kind-form-note">No tools yet.</p>}
      {tools.map((tool, i) => (
        <ToolCard
          key={i}
          node={node}
          tool={tool}
          others={names.filter((_, j) => j !== i)}
          markers={codeMarkers(
            issues.filter((x) => x.path[2] === 'tools' && x.path[3] === i),
            'code',
          )}
          onChange={(t) => setTool(i, t)}
          onRemove={() => onChange(tools.filter((_, j) => j !== i))}
        />
      ))}
      <button type="button" onClick={() => onChange([...tools, newTool(names)])}>
        Add tool
      </button>
    </div>
  )
}

function ToolCard(props: {
  node: string
  tool: ToolSpec
  others: readonly string[]
  markers: readonly CodeMarker[]
  onChange(tool: ToolSpec): void
  onRemove(): void
}) {
  const { node, tool, others, markers, onChange, onRemove } = props
  const name = tool.name
  const code = useDraft(tool.code, (text) => onChange({ ...tool, code: text }), CODE_DELAY_MS)
  const set = (patch: Partial<ToolSpec>) => {
    const next: Record<string, unknown> = { ...tool, ...patch }
    for (const [k, v] of Object.entries(patch)) if (v === undefined) delete next[k]
    onChange(next as ToolSpec)
  }
  return (
    <fieldset className="tool-card" aria-label={`Tool ${name}`}>
      <legend>Tool</legend>
      <div className="tool-head">
        <CommitInput
          key={name}
          className="tool-name"
          label={`Name of tool ${name}`}
          value={name}
          validate={(text) => toolNameProblem(text, others)}
          onCommit={(text) => set({ name: text })}
        />
        <button
          type="button"
          className="small-button"
          aria-label={`Remove tool ${name}`}
          title={`Remove tool ${name} from ${node}`}
          onClick={onRemove}
        >
          Remove
        </button>
      </div>
      <CommitInput
        key={`d:${tool.description ?? ''}`}
        className="tool-description"
        label={`Description of tool ${name}`}
        placeholder="what it does (the model reads this)"
        value={tool.description ?? ''}
        onCommit={(text) => set({ description: text === '' ? undefined : text })}
      />
      <ParamsForm
        tool={name}
        parameters={tool.parameters}
        onChange={(parameters) => set({ parameters: parameters as ToolSpec['parameters'] })}
      />
      <span className="tool-part-title">Code</span>
      <CodeEditor
        label={`Code of tool ${name}`}
        value={code.text}
        onChange={code.change}
        onBlur={code.flush}
        code={{ kind: 'tool', args: argsTypeOf(tool.parameters) }}
        markers={markers}
        height={96}
      />
    </fieldset>
  )
}
