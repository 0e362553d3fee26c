import { useMemo, useState, type KeyboardEvent } from 'react'
import { END, START } from '../core/graph/constants'
import { formatIssue, type GraphIssue } from '../core/graph/issues'
import type { BranchSpec, GraphSpec } from '../core/graph/schema'
import { validateGraph } from '../core/graph/validate'

/** The first page: PRODUCT.md's screen layout, with static placeholders around a real document. */
export function App({ graph }: { graph: GraphSpec }) {
  const issues = useMemo(() => validateGraph(graph), [graph])
  return (
    <div className="app">
      <TopBar graphName={graph.name} />
      <LeftColumn graphName={graph.name} issues={issues} />
      <Canvas graph={graph} />
      <Inspector graph={graph} />
      <RunDrawer />
    </div>
  )
}

const TOOLBAR = [
  ['Undo', 'Redo'],
  ['Add node', 'Auto layout'],
  ['Import', 'Export'],
] as const
const RUN_CONTROLS = ['Run', 'Step', 'Stop'] as const

function TopBar({ graphName }: { graphName: string }) {
  return (
    <header className="topbar">
      <span className="brand">
        <img src="/favicon.svg" alt="" width={20} height={20} />
        Superstep
      </span>
      <select className="graph-picker" aria-label="Graph" value={graphName} disabled>
        <option value={graphName}>{graphName}</option>
      </select>
      <div className="toolbar" role="toolbar" aria-label="Editing">
        {TOOLBAR.map((group) => (
          <div className="toolbar-group" key={group[0]}>
            {group.map((label) => (
              <button type="button" key={label} disabled title={`${label} (coming soon)`}>
                {label}
              </button>
            ))}
          </div>
        ))}
      </div>
      <div className="toolbar run-controls" role="toolbar" aria-label="Run controls">
        {RUN_CONTROLS.map((label) => (
          <button
            type="button"
            key={label}
            className={label === 'Run' ? 'primary' : undefined}
            disabled
            title={`${label} (coming soon)`}
          >
            {label}
          </button>
        ))}
      </div>
    </header>
  )
}

function LeftColumn({ graphName, issues }: { graphName: string; issues: readonly GraphIssue[] }) {
  const count = issues.length
  return (
    <nav className="left panel" aria-label="Graphs and problems">
      <h2>Graphs</h2>
      <ul className="plain-list">
        <li aria-current="page" className="current">
          {graphName}
        </li>
      </ul>
      <h2>Templates</h2>
      <p className="muted">Templates come later.</p>
      <h2 id="problems-heading">
        Problems <span className="badge">{count}</span>
      </h2>
      <div aria-labelledby="problems-heading" aria-live="polite">
        {count === 0 ? (
          <p className="muted">No problems.</p>
        ) : (
          <ul className="plain-list problems">
            {issues.map((issue, i) => (
              <li key={i} className={issue.severity}>
                <span className="severity">{issue.severity}</span> {issue.message}
                <code className="issue-detail">{formatIssue(issue)}</code>
              </li>
            ))}
          </ul>
        )}
      </div>
    </nav>
  )
}

function Canvas({ graph }: { graph: GraphSpec }) {
  return (
    <main className="canvas" aria-label="Canvas">
      <div className="canvas-inner">
        <h1>{graph.name}</h1>
        {graph.description && <p className="muted">{graph.description}</p>}
        <h2>Nodes</h2>
        <ol className="node-list">
          <li className="node terminal">
            <span className="node-id">{START}</span>
            <Targets targets={edgeTargets(graph, START)} />
          </li>
          {graph.nodes.map((node) => (
            <li className="node" key={node.id}>
              <span className="node-id">{node.id}</span>
              <code>{node.code}</code>
              <Targets targets={edgeTargets(graph, node.id)} />
              {graph.branches
                ?.filter((b) => b.from === node.id)
                .map((b, i) => (
                  <p className="branch" key={i}>
                    <span className="muted">router</span> <code>{b.router}</code>
                    <Targets targets={branchTargets(b)} />
                  </p>
                ))}
            </li>
          ))}
          <li className="node terminal">
            <span className="node-id">{END}</span>
          </li>
        </ol>
      </div>
    </main>
  )
}

function Targets({ targets }: { targets: readonly string[] }) {
  if (targets.length === 0) return null
  return <span className="targets">→ {targets.join(', ')}</span>
}

function edgeTargets(graph: GraphSpec, from: string): string[] {
  return graph.edges
    .filter((e) => (Array.isArray(e.from) ? e.from.includes(from) : e.from === from))
    .map((e) => e.to)
}

function branchTargets(branch: BranchSpec): string[] {
  const paths = branch.paths
  if (paths === undefined) return ['(any node)']
  if (Array.isArray(paths)) return paths
  return Object.entries(paths).map(([route, to]) => `${route}: ${to}`)
}

function Inspector({ graph }: { graph: GraphSpec }) {
  return (
    <aside className="right panel" aria-label="Inspector">
      <h2>Inspector</h2>
      <p className="muted">Nothing selected: the state schema.</p>
      <table className="schema">
        <caption className="visually-hidden">State fields</caption>
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Reducer</th>
            <th scope="col">Default</th>
          </tr>
        </thead>
        <tbody>
          {graph.state.map((field) => (
            <tr key={field.name}>
              <th scope="row">{field.name}</th>
              <td>{field.reducer ?? field.channel ?? 'overwrite'}</td>
              <td>
                <code>{field.default === undefined ? '—' : JSON.stringify(field.default)}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </aside>
  )
}

const TABS = ['Channels', 'versions_seen', 'Writes', 'Diff', 'Logs', 'Interrupt'] as const

function RunDrawer() {
  const [tab, setTab] = useState(0)
  const onKeyDown = (e: KeyboardEvent) => {
    const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0
    if (step === 0) return
    e.preventDefault()
    const next = (tab + step + TABS.length) % TABS.length
    setTab(next)
    document.getElementById(`run-tab-${next}`)?.focus()
  }
  return (
    <section className="drawer" aria-label="Run">
      <div className="drawer-bar">
        <label>
          <span>Thread</span>
          <select disabled defaultValue="t-1">
            <option value="t-1">t-1</option>
          </select>
        </label>
        <label>
          <span>Input</span>
          <input type="text" disabled placeholder="{}" />
        </label>
        <div className="timeline" role="group" aria-label="Timeline">
          <span className="muted">No checkpoints yet. Press F10 to step, once runs arrive.</span>
        </div>
      </div>
      <div className="tabs" role="tablist" aria-label="Run details" onKeyDown={onKeyDown}>
        {TABS.map((name, i) => (
          <button
            type="button"
            role="tab"
            key={name}
            id={`run-tab-${i}`}
            aria-selected={i === tab}
            aria-controls="run-tabpanel"
            tabIndex={i === tab ? 0 : -1}
            onClick={() => setTab(i)}
          >
            {name}
          </button>
        ))}
      </div>
      <div
        className="tabpanel"
        role="tabpanel"
        id="run-tabpanel"
        aria-labelledby={`run-tab-${tab}`}
      >
        <p className="muted">{TABS[tab]}: nothing to show before the first run.</p>
      </div>
    </section>
  )
}
